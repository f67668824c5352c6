// One visible row as the TUI draws it, decoded once from its wire JSON (Protocol/README.md §3).
import JSON

/// An action a row offers: from its swipe actions, context menu or pop-up menu accessory.
public struct RowAction: Equatable, Sendable {
  /// The action id sent with `event/action`.
  public var id: String
  /// The title shown.
  public var title: String
  /// Whether it is destructive (drawn in red).
  public var destructive: Bool
  /// Where it comes from: "leading", "trailing", "menu" or "popUp".
  public var origin: String
}

/// A row of the window cache.
public struct ListRow: Equatable, Sendable {
  /// The item id.
  public var id: String
  /// The wire row, for anything the fields below do not decode.
  public var json: JSONValue
  /// The text, or nil.
  public var text: String? { json["text"]?.stringValue }
  /// The secondary text, or nil.
  public var secondaryText: String? { json["secondaryText"]?.stringValue }
  /// Outline depth, 0 for roots.
  public var level: Int { Int(json["level"]?.intValue ?? 0) }
  /// The parent id, nil for roots.
  public var parent: String? { json["parent"]?.stringValue }
  /// Whether it has children.
  public var hasChildren: Bool { json["hasChildren"]?.boolValue == true }
  /// Whether it is expanded.
  public var expanded: Bool { json["expanded"]?.boolValue == true }
  /// Whether it can be selected (default true).
  public var selectable: Bool { json["selectable"]?.boolValue != false }
  /// The accessories, as wire objects `{type, …}`.
  public var accessories: [JSONValue] { json["accessories"]?.arrayValue ?? [] }

  /// A row from its wire JSON; nil without an id.
  public init?(_ json: JSONValue) {
    guard let id = json["id"]?.stringValue else { return nil }
    self.id = id
    self.json = json
  }

  /// The `isOn` of its toggle accessory, nil when it has none.
  public var toggle: Bool? {
    accessories.first { $0["type"]?.stringValue == "toggle" }.map { $0["isOn"]?.boolValue == true }
  }

  /// Every action the row offers, without repeating an id: leading and trailing swipe actions,
  /// context-menu actions, then pop-up menu actions.
  public var actions: [RowAction] {
    var seen = Set<String>()
    var result: [RowAction] = []
    func add(_ values: [JSONValue], _ origin: String) {
      for value in values {
        guard let id = value["id"]?.stringValue, seen.insert(id).inserted else { continue }
        result.append(
          RowAction(
            id: id, title: value["title"]?.stringValue ?? id,
            destructive: value["style"]?.stringValue == "destructive", origin: origin))
      }
    }
    add(json["leadingSwipeActions"]?.arrayValue ?? [], "leading")
    add(json["trailingSwipeActions"]?.arrayValue ?? [], "trailing")
    add(json["contextMenuActions"]?.arrayValue ?? [], "menu")
    for accessory in accessories where accessory["type"]?.stringValue == "popUpMenu" {
      add(accessory["actions"]?.arrayValue ?? [], "popUp")
    }
    return result
  }
}
