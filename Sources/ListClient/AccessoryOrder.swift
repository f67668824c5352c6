// The order a row shows its accessories in, whatever their order in the array (Protocol/README.md, "Accessory order").
import JSON

/// Where a viewer shows each accessory of a row: UIKit places system accessories by their type;
/// custom ones (`badge`, `image`, `progress`, `activityIndicator`, `toggle`, `custom`) keep
/// their array order, nearest the content.
public enum AccessoryOrder {
  /// UIKit's system accessories, each with its place on its edge, leading to trailing.
  public static let order: [String: Int] = [
    "delete": 1, "multiselect": 2, "label": 3, "detail": 4, "checkmark": 5, "popUpMenu": 6,
    "outlineDisclosure": 7, "reorder": 8, "disclosureIndicator": 9,
  ]

  /// The accessory's edge: its `placement`, else its type's default (`delete` and
  /// `multiselect` leading, every other type trailing).
  public static func isLeading(_ accessory: JSONValue) -> Bool {
    switch accessory["placement"]?.stringValue {
    case "leading": return true
    case "trailing": return false
    default:
      let type = accessory["type"]?.stringValue
      return type == "delete" || type == "multiselect"
    }
  }

  /// `accessories` as a row shows them, leading to trailing: the leading edge (system
  /// accessories by ``order``, then custom ones), then the trailing edge (custom ones, then
  /// system accessories by ``order``). O(n log n).
  public static func displayed(_ accessories: [JSONValue]) -> [JSONValue] {
    accessories.enumerated().sorted { a, b in key(a.element, a.offset) < key(b.element, b.offset) }.map(
      \.element)
  }

  /// (edge, place on the edge, array index): custom accessories sit nearest the content.
  private static func key(_ accessory: JSONValue, _ index: Int) -> (Int, Int, Int) {
    let leading = isLeading(accessory)
    let rank = accessory["type"]?.stringValue.flatMap { order[$0] } ?? (leading ? order.count + 1 : 0)
    return (leading ? 0 : 1, rank, index)
  }
}
