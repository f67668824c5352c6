// ListClient: typed async methods for the requests of Protocol/README.md §5.
import JSON
import ListProtocol

/// The answer of a mutation: `{list, version, changeset, explain?}`.
public struct Change: Sendable, Equatable {
  /// The list id.
  public let list: String
  /// The list's version after the mutation (unchanged when nothing changed).
  public let version: Int
  /// The wire changeset (Protocol §4); `{}` when nothing changed.
  public let changeset: JSONValue
  /// Why the changeset is what it is, when the request asked (`explain: true`).
  public let explain: Explanation?

  /// Decodes a mutation answer (or a `list/didChange` params object, as `list/changesSince`
  /// and `list/explain` answer them); nil if it does not have that shape.
  public init?(_ value: JSONValue) {
    guard let list = value["list"]?.stringValue, let version = value["version"]?.intValue else { return nil }
    self.list = list
    self.version = Int(version)
    changeset = value["changeset"] ?? [:]
    if let explain = value["explain"] {
      guard let explanation = Explanation(explain) else { return nil }
      self.explain = explanation
    } else {
      explain = nil
    }
  }
}

/// A client-side failure: an answer that does not have the documented shape.
public struct UnexpectedAnswer: Error, CustomStringConvertible {
  /// What was expected and what came.
  public let description: String
}

extension ListClient {
  func change(_ method: String, _ params: JSONObject) async throws -> Change {
    let value = try await call(method, .object(params))
    guard let change = Change(value) else {
      throw UnexpectedAnswer(description: "\(method) answered \(value)")
    }
    return change
  }

  func params(_ list: String, ifVersion: Int?, _ members: (String, JSONValue?)...) -> JSONObject {
    var object: JSONObject = ["list": .string(list)]
    for (key, value) in members { if let value { object.append(key, value) } }
    if let ifVersion { object.append("ifVersion", .int(Int64(ifVersion))) }
    return object
  }

  func strings(_ ids: [String]) -> JSONValue { .array(ids.map { .string($0) }) }

  /// The params of a query: `list`, `members` (nil ones left out), then `atVersion` when given.
  func query(_ list: String, atVersion: Int?, _ members: (String, JSONValue?)...) -> JSONObject {
    var object: JSONObject = ["list": .string(list)]
    for (key, value) in members { if let value { object.append(key, value) } }
    if let atVersion { object.append("atVersion", .int(Int64(atVersion))) }
    return object
  }

  /// `true` for a switch that is on; nil (the member left out) when it is off.
  func flag(_ on: Bool) -> JSONValue? { on ? true : nil }

  // MARK: - Lists

  /// What a mutation's answer carries of its changeset's rows (the `rows` member).
  public enum AnswerRows: String, Sendable {
    /// Every row (the daemon's default, but for `list/create`).
    case all
    /// The structure only: runs as `{at, count}`, inserted sections as `{id, …, rowCount}`.
    case none
  }

  /// `list/create`: a new list owned by this session, with optional initial `content`; for a
  /// table, `columns` (`[{id, title, alignment?, width?, sortable?}]`); an `emptyState`
  /// (`{title, image?, description?}`) and the `editing` mode. Unless `rows: .all`, the answer
  /// does not echo the content (`{id, header?, footer?, kind?, headerMode?, rowCount}` per
  /// inserted section).
  public func create(
    _ list: String, title: String? = nil, appearance: String? = nil, selectionMode: String? = nil,
    columns: [JSONValue]? = nil, emptyState: JSONValue? = nil, editing: Bool? = nil,
    content: JSONValue? = nil, rows: AnswerRows? = nil
  ) async throws -> Change {
    try await change(
      "list/create",
      params(
        list, ifVersion: nil, ("title", title.map { .string($0) }),
        ("appearance", appearance.map { .string($0) }),
        ("selectionMode", selectionMode.map { .string($0) }), ("columns", columns.map { .array($0) }),
        ("emptyState", emptyState), ("editing", editing.map { .bool($0) }), ("content", content),
        ("rows", rows.map { .string($0.rawValue) })))
  }

  /// `list/dispose`; returns the list's last version. A list another live session owns needs
  /// `force` (else -32018), and that owner is told (`owner/lost`).
  @discardableResult
  public func dispose(_ list: String, force: Bool = false) async throws -> Int {
    var params: JSONObject = ["list": .string(list)]
    if force { params.append("force", true) }
    return Int(try await call("list/dispose", .object(params))["version"]?.intValue ?? 0)
  }

  /// `list/claim`: become the owner of a list whose owner has gone (with `force`, of any list;
  /// its owner is told). Returns the new owner, `{session, name?}`.
  @discardableResult
  public func claim(_ list: String, force: Bool = false) async throws -> JSONValue {
    var params: JSONObject = ["list": .string(list)]
    if force { params.append("force", true) }
    return try await call("list/claim", .object(params))["owner"] ?? .null
  }

  /// `list/all` page by page (`pageSize` lists a request, so no answer grows with the number
  /// of lists): the `info` of every list, in creation order. A list disposed while the pages
  /// are read may move one still unread into a page already read (it is then missed).
  public func all(pageSize: Int = 1_000) async throws -> [JSONValue] {
    var lists: [JSONValue] = []
    try await forEachPage(pageSize: pageSize) { lists += $0 }
    return lists
  }

  /// `list/all {offset, limit}`: the `info` of the lists at `offset..<offset+limit` in creation
  /// order, and how many lists there are.
  public func lists(offset: Int = 0, limit: Int) async throws -> (lists: [JSONValue], total: Int) {
    let answer = try await call("list/all", ["offset": .int(Int64(offset)), "limit": .int(Int64(limit))])
    return (answer["lists"]?.arrayValue ?? [], Int(answer["total"]?.intValue ?? 0))
  }

  /// Calls `body` with each page of `list/all` in turn (see ``all(pageSize:)``).
  public func forEachPage(pageSize: Int = 1_000, _ body: ([JSONValue]) throws -> Void) async throws {
    var offset = 0
    while true {
      let (page, total) = try await lists(offset: offset, limit: pageSize)
      try body(page)
      offset += page.count
      if page.isEmpty || offset >= total { return }
    }
  }

  /// `list/info`; with `atVersion`, the list's version, selection mode and counts of then
  /// (-32015 when it no longer retains that version).
  public func info(_ list: String, atVersion: Int? = nil) async throws -> JSONValue {
    try await call("list/info", .object(query(list, atVersion: atVersion)))
  }

  // MARK: - Content

  /// `list/replace`: the list's full content. With `explain`, the answer's ``Change/explain``
  /// says why each part of the changeset is there.
  public func replace(
    _ list: String, content: JSONValue, ifVersion: Int? = nil, explain: Bool = false, rows: AnswerRows? = nil
  ) async throws -> Change {
    try await change(
      "list/replace",
      params(
        list, ifVersion: ifVersion, ("content", content), ("explain", flag(explain)),
        ("rows", rows.map { .string($0.rawValue) })))
  }

  /// `list/edit`: an atomic batch of edits (`[{"op": …}]`). With `explain`, the answer's
  /// ``Change/explain`` names the reason (and the edit) behind each part of the changeset.
  public func edit(
    _ list: String, _ edits: [JSONValue], ifVersion: Int? = nil, explain: Bool = false,
    rows: AnswerRows? = nil
  ) async throws -> Change {
    try await change(
      "list/edit",
      params(
        list, ifVersion: ifVersion, ("edits", .array(edits)), ("explain", flag(explain)),
        ("rows", rows.map { .string($0.rawValue) })))
  }

  /// `outline/expand`: one item (its subtree with `recursive`), or every item when `item` is nil.
  public func expand(
    _ list: String, item: String? = nil, recursive: Bool = false, ifVersion: Int? = nil,
    rows: AnswerRows? = nil
  ) async throws -> Change {
    try await change(
      "outline/expand",
      params(
        list, ifVersion: ifVersion, ("item", item.map { .string($0) }), ("recursive", recursive ? true : nil),
        ("rows", rows.map { .string($0.rawValue) })))
  }

  /// `outline/collapse`: the mirror of ``expand(_:item:recursive:ifVersion:rows:)``.
  public func collapse(
    _ list: String, item: String? = nil, recursive: Bool = false, ifVersion: Int? = nil,
    rows: AnswerRows? = nil
  ) async throws -> Change {
    try await change(
      "outline/collapse",
      params(
        list, ifVersion: ifVersion, ("item", item.map { .string($0) }), ("recursive", recursive ? true : nil),
        ("rows", rows.map { .string($0.rawValue) })))
  }

  /// `selection/select`.
  public func select(_ list: String, _ items: [String], ifVersion: Int? = nil) async throws -> Change {
    try await change("selection/select", params(list, ifVersion: ifVersion, ("items", strings(items))))
  }

  /// `selection/deselect`.
  public func deselect(_ list: String, _ items: [String], ifVersion: Int? = nil) async throws -> Change {
    try await change("selection/deselect", params(list, ifVersion: ifVersion, ("items", strings(items))))
  }

  // MARK: - Subscriptions

  /// `list/subscribe` to one list (or every list when nil); returns the answer's `lists` entries.
  /// With `atVersion` (one list only), the entry describes the list at that version, and every
  /// `list/didChange` after it follows on ``notifications``.
  public func subscribe(_ list: String? = nil, snapshot: String = "full", atVersion: Int? = nil) async throws
    -> [JSONValue]
  {
    var object: JSONObject = [:]
    if let list { object.append("list", .string(list)) }
    object.append("snapshot", .string(snapshot))
    if let atVersion { object.append("atVersion", .int(Int64(atVersion))) }
    return try await call("list/subscribe", .object(object))["lists"]?.arrayValue ?? []
  }

  /// Subscribes to `list` with a full snapshot and returns a ``Mirror`` of it — at `atVersion`
  /// when given; keep it current by applying the `list/didChange` notifications for it from
  /// ``notifications`` (with `atVersion`, those after that version come first).
  public func mirror(_ list: String, atVersion: Int? = nil) async throws -> Mirror {
    guard let entry = try await subscribe(list, atVersion: atVersion).first else {
      throw UnexpectedAnswer(description: "list/subscribe answered no entry for '\(list)'")
    }
    return try Mirror(subscribed: entry)
  }

  /// Subscribes to `list` through the window `[offset, offset + limit)` of its flattened rows and
  /// returns a ``WindowedMirror`` of it; keep it current by applying the (filtered)
  /// `list/didChange` notifications for it from ``notifications``, and move the window with
  /// ``setWindow(_:offset:limit:)``.
  public func windowedMirror(_ list: String, offset: Int, limit: Int) async throws -> WindowedMirror {
    let answer = try await call(
      "list/subscribe",
      ["list": .string(list), "window": ["offset": .int(Int64(offset)), "limit": .int(Int64(limit))]])
    guard let entry = answer["lists"]?.arrayValue?.first else {
      throw UnexpectedAnswer(description: "list/subscribe answered no entry for '\(list)'")
    }
    return try WindowedMirror(subscribed: entry, limit: limit)
  }

  /// `list/setWindow`: moves the session's window over `list`; returns the answer
  /// `{list, version, window, sections, selection}`, which ``WindowedMirror/apply(setWindow:limit:)``
  /// starts afresh from once the notifications of earlier versions are applied.
  @discardableResult
  public func setWindow(_ list: String, offset: Int, limit: Int) async throws -> JSONValue {
    try await call(
      "list/setWindow", ["list": .string(list), "offset": .int(Int64(offset)), "limit": .int(Int64(limit))])
  }

  /// `list/unsubscribe`.
  public func unsubscribe(_ list: String? = nil) async throws {
    try await call("list/unsubscribe", list.map { ["list": .string($0)] } ?? [:])
  }

  // MARK: - Queries

  // Every query takes `atVersion`: the answer is the list as it was at that version (-32015
  // when the list no longer retains it), and its `version` is that version.

  /// `query/item`: the item's `itemInfo`.
  public func item(_ list: String, _ item: String, atVersion: Int? = nil) async throws -> JSONValue {
    try await call("query/item", .object(query(list, atVersion: atVersion, ("item", .string(item)))))["item"]
      ?? .null
  }

  /// `query/window`: `limit` visible rows from `offset`.
  public func window(_ list: String, offset: Int = 0, limit: Int = 100, atVersion: Int? = nil) async throws
    -> JSONValue
  {
    try await call(
      "query/window",
      .object(
        query(list, atVersion: atVersion, ("offset", .int(Int64(offset))), ("limit", .int(Int64(limit))))))
  }

  /// `query/search`: items whose text or secondary text contains `text`.
  public func search(
    _ list: String, _ text: String, caseSensitive: Bool = false, limit: Int? = nil, atVersion: Int? = nil
  ) async throws -> JSONValue {
    var object = query(list, atVersion: atVersion, ("text", .string(text)))
    if caseSensitive { object.append("caseSensitive", true) }
    if let limit { object.append("limit", .int(Int64(limit))) }
    return try await call("query/search", .object(object))
  }

  /// `query/selection`.
  public func selection(_ list: String, atVersion: Int? = nil) async throws -> JSONValue {
    try await call("query/selection", .object(query(list, atVersion: atVersion)))
  }

  /// `shutdown` then `exit`.
  public func shutdown() async throws {
    try await call("shutdown")
    notify("exit")
  }
}
