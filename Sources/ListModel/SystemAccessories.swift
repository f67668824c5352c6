// Which accessories are UIKit's system accessories, and the repeats of one that UIKit refuses.

extension ListAccessory {
  /// The accessory's wire `type`.
  public var typeName: String {
    switch self {
    case .disclosureIndicator: return "disclosureIndicator"
    case .checkmark: return "checkmark"
    case .delete: return "delete"
    case .reorder: return "reorder"
    case .outlineDisclosure: return "outlineDisclosure"
    case .detail: return "detail"
    case .multiselect: return "multiselect"
    case .label: return "label"
    case .badge: return "badge"
    case .image: return "image"
    case .progress: return "progress"
    case .activityIndicator: return "activityIndicator"
    case .toggle: return "toggle"
    case .popUpMenu: return "popUpMenu"
    case .custom: return "custom"
    }
  }

  /// Whether UIKit has this accessory as a system accessory (`UICellAccessory.disclosureIndicator`,
  /// `.label`, …): UIKit places it by its type and refuses a cell with two of one type. The
  /// others (`badge`, `image`, `progress`, `activityIndicator`, `toggle`, `custom`) are custom
  /// views there: any number, in the order of the array.
  public var isSystem: Bool { Self.systemTypes.contains(typeName) }

  /// UIKit's system accessory types (their display order is the clients': ListClient's
  /// `AccessoryOrder`, Protocol/README.md "Accessory order").
  public static let systemTypes: Set<String> = [
    "delete", "multiselect", "label", "detail", "checkmark", "popUpMenu", "outlineDisclosure", "reorder",
    "disclosureIndicator",
  ]

  /// The system accessory types that occur more than once in `accessories`, each once, in the
  /// order of their second occurrence (UIKit throws on such a cell).
  public static func repeatedSystemTypes(_ accessories: [ListAccessory]) -> [String] {
    var seen = Set<String>()
    var repeated: [String] = []
    for accessory in accessories where accessory.isSystem {
      let type = accessory.typeName
      if !seen.insert(type).inserted && !repeated.contains(type) { repeated.append(type) }
    }
    return repeated
  }
}
