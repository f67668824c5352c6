// How a change is journaled so that it replays exactly: wire edits, content, or model edits.
import JSON
import JSONRPC
import ListModel
import ListProtocol

/// A committed change as the journal keeps it. Each case replays deterministically on the
/// snapshot it was first applied to, through the same code that applied it then.
enum JournaledChange {
  /// `list/edit`'s `edits`, as sent.
  case wireEdits(JSONValue)
  /// `list/replace`'s `content`, as sent.
  case content(JSONValue)
  /// Model edits of the kinds outline, selection, event and demo changes make
  /// (see ``init(modelEdits:)``).
  case modelEdits([ListEdit])

  /// The model edits as a journaled change, or nil if one of them has no journal form (the
  /// change is then journaled as its resulting state).
  init?(modelEdits edits: [ListEdit]) {
    guard edits.allSatisfy({ Self.encode($0) != nil }) else { return nil }
    self = .modelEdits(edits)
  }

  /// Replays the change on `snapshot`; returns the changeset, or an empty one without
  /// `diffing` (recovery needs the changesets of the versions the history keeps only).
  /// O(cost of the change), plus the diff when `diffing`.
  func apply(to snapshot: inout ListSnapshot, list: String, diffing: Bool = true) throws(ResponseError)
    -> Changeset
  {
    // A journal keeps what an older daemon accepted: items with two of one system accessory,
    // refused since (Protocol/README.md, "One of each system accessory"), are read as written.
    try ContentDecoding.$acceptsRepeatedSystemAccessories.withValue(true) {
      Result { () throws(ResponseError) in try replay(on: &snapshot, list: list, diffing: diffing) }
    }.get()
  }

  private func replay(on snapshot: inout ListSnapshot, list: String, diffing: Bool) throws(ResponseError)
    -> Changeset
  {
    switch self {
    case .wireEdits(let edits):
      let decoded = try EditDecoding.edits(Params(["edits": edits]))
      return try decoded.applyAndDiff(to: &snapshot, list: list, batch: true, diffing: diffing)
    case .content(let content):
      let sections = try ContentDecoding.content(Params(content), inheritingExpansion: ())
      let old = snapshot
      snapshot = try ContentHandlers.replaced(old, by: sections, list: list)
      return diffing ? diff(old, snapshot) : Changeset()
    case .modelEdits(let edits):
      do throws(ListModelError) {
        guard diffing else {
          try snapshot.apply(edits)
          return Changeset()
        }
        return try snapshot.applyAndDiff(edits)
      } catch {
        throw .model(error, list: list)
      }
    }
  }

  /// Adds the change's members to a record. O(size).
  func append(to object: inout JSONObject) {
    switch self {
    case .wireEdits(let edits): object.append("edits", edits)
    case .content(let content): object.append("content", content)
    case .modelEdits(let edits): object.append("modelEdits", .array(edits.compactMap(Self.encode)))
    }
  }

  /// Reads the change's members of a record.
  init(_ record: JSONValue) throws(JournalError) {
    if let edits = record["edits"] {
      self = .wireEdits(edits)
    } else if let content = record["content"] {
      self = .content(content)
    } else if case .array(let edits)? = record["modelEdits"] {
      var decoded: [ListEdit] = []
      for edit in edits {
        guard let model = Self.decode(edit) else { throw JournalError("a change with an unknown model edit") }
        decoded.append(model)
      }
      self = .modelEdits(decoded)
    } else {
      throw JournalError("a change record without its change")
    }
  }

  // MARK: - Model edits

  private static func ids(_ ids: [String]) -> JSONValue { .array(ids.map(JSONValue.string)) }
  private static func optional(_ string: String?) -> JSONValue { string.map(JSONValue.string) ?? .null }

  private static func encode(_ edit: ListEdit) -> JSONValue? {
    switch edit {
    case .expand(let items): ["op": "expand", "items": ids(items)]
    case .collapse(let items): ["op": "collapse", "items": ids(items)]
    case .expandSubtree(let item): ["op": "expandSubtree", "item": .string(item)]
    case .collapseSubtree(let item): ["op": "collapseSubtree", "item": .string(item)]
    case .expandAll(let section): ["op": "expandAll", "section": optional(section)]
    case .collapseAll(let section): ["op": "collapseAll", "section": optional(section)]
    case .expandToLevel(let level, let section):
      ["op": "expandToLevel", "level": .int(Int64(level)), "section": optional(section)]
    case .select(let items): ["op": "select", "items": ids(items)]
    case .deselect(let items): ["op": "deselect", "items": ids(items)]
    case .selectAll: ["op": "selectAll"]
    case .deselectAll: ["op": "deselectAll"]
    case .deleteItems(let items): ["op": "deleteItems", "items": ids(items)]
    case .setPayload(let item, let payload):
      {
        var object: JSONObject = ["op": "setPayload", "item": .string(item)]
        var fields = JSONObject()
        RowEncoding.appendPayload(payload, to: &fields)
        object.append("payload", .object(fields))
        return .object(object)
      }()
    default: nil
    }
  }

  private static func decode(_ value: JSONValue) -> ListEdit? {
    let items = value["items"].flatMap { items -> [String]? in
      guard case .array(let array) = items else { return nil }
      return array.compactMap(\.stringValue)
    }
    let item = value["item"]?.stringValue
    let section = value["section"]?.stringValue
    switch value["op"]?.stringValue {
    case "expand": return items.map { .expand($0) }
    case "collapse": return items.map { .collapse($0) }
    case "expandSubtree": return item.map { .expandSubtree($0) }
    case "collapseSubtree": return item.map { .collapseSubtree($0) }
    case "expandAll": return .expandAll(section: section)
    case "collapseAll": return .collapseAll(section: section)
    case "expandToLevel": return value["level"]?.intValue.map { .expandToLevel(Int($0), section: section) }
    case "select": return items.map { .select($0) }
    case "deselect": return items.map { .deselect($0) }
    case "selectAll": return .selectAll
    case "deselectAll": return .deselectAll
    case "deleteItems": return items.map { .deleteItems($0) }
    case "setPayload":
      guard let item,
        let payload = ContentDecoding.$acceptsRepeatedSystemAccessories.withValue(
          true, operation: { try? ContentDecoding.payload(Params(value["payload"])) })
      else { return nil }
      return .setPayload(item: item, payload: payload)
    default: return nil
    }
  }
}
