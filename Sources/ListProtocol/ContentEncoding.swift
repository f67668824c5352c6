// Encodes a snapshot's whole content — hidden items too — in list/create's content format.
import JSON
import ListModel

/// Snapshot → `{"sections": [{id, header?, footer?, items: [item…]}]}`, which `list/create`
/// (and `list/replace`, `diff/contents`) read back into an equal snapshot: every item with its
/// payload fields (as rows show them), `children`, and `expanded: true` when it is expanded
/// (hidden items and leaves included), so nothing depends on what the reader keeps.
public enum ContentEncoding {
  /// The whole content. O(items).
  public static func content(_ snapshot: ListSnapshot) -> JSONValue {
    let sections = snapshot.contentSections.map { section -> JSONValue in
      var object = RowEncoding.sectionHeader(
        id: section.id, header: section.header, footer: section.footer, kind: section.kind,
        headerMode: section.headerMode)
      object.append("items", .array(items(section.items)))
      return .object(object)
    }
    return ["sections": .array(sections)]
  }

  /// A section's item trees, built from its preorder without recursion (outlines may be deep).
  /// O(items of the section).
  public static func items(_ preorder: [ListSnapshot.ContentItem]) -> [JSONValue] {
    // Open ancestors of the current item, outermost first, each with the children built so far.
    var open: [(object: JSONObject, children: [JSONValue])] = []
    var roots: [JSONValue] = []
    func close() {
      let (object, children) = open.removeLast()
      let item = finish(object, children: children)
      if open.isEmpty { roots.append(item) } else { open[open.count - 1].children.append(item) }
    }
    for item in preorder {
      while open.count > item.level { close() }
      open.append((object(item.id, payload: item.payload, expanded: item.isExpanded), []))
    }
    while !open.isEmpty { close() }
    return roots
  }

  /// An item tree of new items, as `appendItems` / `insertItems` / `appendChildren` take it.
  public static func item(_ node: OutlineNode) -> JSONValue {
    finish(
      object(node.item.id, payload: node.item.payload, expanded: node.isExpanded),
      children: node.children.map(item))
  }

  /// `{id, …payload fields, expanded?: true}`.
  public static func object(_ id: String, payload: ItemPayload, expanded: Bool) -> JSONObject {
    var object: JSONObject = ["id": .string(id)]
    RowEncoding.appendPayload(payload, to: &object)
    if expanded { object.append("expanded", true) }
    return object
  }

  private static func finish(_ object: JSONObject, children: [JSONValue]) -> JSONValue {
    guard !children.isEmpty else { return .object(object) }
    var object = object
    object.append("children", .array(children))
    return .object(object)
  }
}
