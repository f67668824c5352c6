// A list held by the real model, answering as the daemon would: windowed subscriptions, windows, didChange.
import JSON
import ListModel
import ListProtocol
import XCTest

/// A list in memory, with the daemon's own encoders: what `query/sections`, `query/window` and
/// `list/didChange` would carry, without a daemon. Edits are diffed by the real model.
struct ModelFixture {
  let list = "l"
  private(set) var snapshot: ListSnapshot
  private(set) var version = 0
  /// How many rows the window answers carried, in total.
  private(set) var rowsServed = 0
  /// The subscriber's window, once it subscribed with one: its changes are filtered to it.
  private(set) var window: RowWindow?

  init(_ snapshot: ListSnapshot) { self.snapshot = snapshot }

  /// One section `s` of `count` items `i0…`.
  init(rows count: Int, header: String? = nil) throws {
    var snapshot = ListSnapshot(selectionMode: .multiple)
    try snapshot.appendSections([SectionSpec("s", header: header)])
    try snapshot.appendItems((0..<count).map { ListItem("i\($0)", payload: ItemPayload(text: "item \($0)")) })
    self.init(snapshot)
  }

  /// The `query/sections` answer.
  var sectionsAnswer: JSONValue {
    let sections = snapshot.sectionIdentifiers.enumerated().map { index, id -> JSONValue in
      var object = RowEncoding.sectionHeader(
        id: id, header: snapshot.header(ofSection: id), footer: snapshot.footer(ofSection: id),
        kind: snapshot.kind(ofSection: id), headerMode: snapshot.headerMode(ofSection: id))
      object.append("index", .int(Int64(index)))
      object.append("rows", .int(Int64(snapshot.numberOfItems(inSection: id) ?? 0)))
      return .object(object)
    }
    return ["list": .string(list), "version": .int(Int64(version)), "sections": .array(sections)]
  }

  /// The `query/window` answer for `offset`, `limit`.
  mutating func windowAnswer(offset: Int, limit: Int) -> JSONValue {
    var object = WindowEncoding.window(snapshot, offset: offset, limit: limit)
    rowsServed += object["rows"]?.arrayValue?.count ?? 0
    object.append("list", .string(list))
    object.append("version", .int(Int64(version)))
    return .object(object)
  }

  /// The answer of a windowed `list/subscribe {list, window: {offset, limit}}` (its `lists`
  /// entry wrapped as the daemon answers); later changes are filtered to that window.
  mutating func subscribeAnswer(offset: Int, limit: Int) -> JSONValue {
    ["lists": [windowedAnswer(offset: offset, limit: limit)]]
  }

  /// The answer of `list/setWindow {list, offset, limit}`.
  mutating func windowedAnswer(offset: Int, limit: Int) -> JSONValue {
    let window = RowWindow(offset: offset, limit: limit)
    self.window = window
    var object: JSONObject = [
      "list": .string(list), "version": .int(Int64(version)),
      "info": ["list": .string(list), "selectionMode": .string(snapshot.selectionMode.rawValue)],
    ]
    WindowEncoding.appendWindowed(snapshot, window: window, to: &object)
    rowsServed += object["window"]?["rows"]?.arrayValue?.count ?? 0
    return .object(object)
  }

  /// Applies `edit` and returns the `list/didChange` params the daemon would send: filtered to
  /// the window once the subscriber has one.
  mutating func change(_ edit: (inout ListSnapshot) throws -> Void) throws -> JSONValue {
    let old = snapshot
    try edit(&snapshot)
    version += 1
    let form: ChangesetEncoding.Rows = window.map { .window($0, old: old, new: snapshot) } ?? .all
    return [
      "list": .string(list), "version": .int(Int64(version)), "previousVersion": .int(Int64(version - 1)),
      "changeset": ChangesetEncoding.changeset(diff(old, snapshot), rows: form),
    ]
  }

  /// The flattened visible item ids.
  var rowIDs: [String] { snapshot.rows.sections.flatMap { $0.rows.map(\.id) } }
}
