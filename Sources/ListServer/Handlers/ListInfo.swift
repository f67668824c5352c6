// The `info` of a list as list/info, list/all, list/subscribe and list/didCreate carry it.
import JSON
import ListModel
import ListProtocol

/// `{list, title, appearance, selectionMode, version, sections, items, rows, selected, owner,
/// subscribers}`, the list attributes that are not the default (`columns`) and, for a view,
/// its `source`.
enum ListInfo {
  /// The info of the list's committed state. O(sections + columns).
  static func encode(_ list: LiveList) -> JSONValue {
    let committed = list.committed
    return encode(list, version: committed.version, committed.snapshot)
  }

  /// The info with the versioned fields of `snapshot` at `version` (a past version: the
  /// selection mode and counts of then); the title, appearance, owner and subscribers are not
  /// versioned and are the current ones. O(sections + columns).
  static func encode(_ list: LiveList, version: Int, _ snapshot: ListSnapshot) -> JSONValue {
    let (metadata, owner, subscribers) = list.infoState
    var object: JSONObject = [
      "list": .string(list.id),
      "title": .string(metadata.title),
      "appearance": .string(metadata.appearance.rawValue),
      "selectionMode": .string(snapshot.selectionMode.rawValue),
      "version": .int(Int64(version)),
      "sections": .int(Int64(snapshot.numberOfSections)),
      "items": .int(Int64(snapshot.numberOfItems(includingHidden: true))),
      "rows": .int(Int64(snapshot.numberOfItems())),
      "selected": .int(Int64(snapshot.selectedItems.count)),
      "owner": owner?.ownerInfo ?? .null,
      "subscribers": .int(Int64(subscribers)),
    ]
    ListAttributeCoding.append(snapshot, to: &object)
    if let derivation = list.derivation { object.append("source", .string(derivation.source.id)) }
    return .object(object)
  }
}
