// Encodes a whole snapshot — hidden children, expansion and selection included — in the content format.
import JSON
import ListModel

/// Snapshot → `{"sections": [...]}` in `list/create`'s content format, every item with its
/// `expanded` state, so ``ContentDecoding`` rebuilds the same snapshot; the selection goes
/// beside it. Journal checkpoints are written this way.
enum ContentEncoding {
  /// The content of `snapshot`. O(items + payload sizes).
  static func content(_ snapshot: ListSnapshot) -> JSONValue {
    let sections = snapshot.sectionIdentifiers.map { section -> JSONValue in
      var object = RowEncoding.sectionHeader(
        id: section, header: snapshot.header(ofSection: section), footer: snapshot.footer(ofSection: section))
      object.append("items", .array(snapshot.rootItems(inSection: section).map { tree($0, in: snapshot) }))
      return .object(object)
    }
    return ["sections": .array(sections)]
  }

  private static func tree(_ id: String, in snapshot: ListSnapshot) -> JSONValue {
    var object: JSONObject = ["id": .string(id)]
    if let payload = snapshot.payload(of: id) { RowEncoding.appendPayload(payload, to: &object) }
    if snapshot.isExpanded(id) { object.append("expanded", true) }
    let children = snapshot.children(of: id)
    if !children.isEmpty { object.append("children", .array(children.map { tree($0, in: snapshot) })) }
    return .object(object)
  }
}
