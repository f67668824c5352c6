// ListClient: typed methods for the remaining requests — outline levels, whole-list selection,
// the other queries, history, and the user events a viewer sends.
import JSON

extension ListClient {
  // MARK: - Outline and selection

  /// `outline/expandToLevel`: rows of levels below `level` expanded, the rest collapsed.
  public func expandToLevel(_ list: String, _ level: Int, section: String? = nil, ifVersion: Int? = nil)
    async throws -> Change
  {
    try await change(
      "outline/expandToLevel",
      params(
        list, ifVersion: ifVersion, ("level", .int(Int64(level))), ("section", section.map { .string($0) })))
  }

  /// `selection/selectAll`.
  public func selectAll(_ list: String, ifVersion: Int? = nil) async throws -> Change {
    try await change("selection/selectAll", params(list, ifVersion: ifVersion))
  }

  /// `selection/deselectAll`.
  public func deselectAll(_ list: String, ifVersion: Int? = nil) async throws -> Change {
    try await change("selection/deselectAll", params(list, ifVersion: ifVersion))
  }

  // MARK: - Queries

  /// `query/sections`: ids, headers, footers and counts of every section.
  public func sections(_ list: String, atVersion: Int? = nil) async throws -> JSONValue {
    try await call("query/sections", .object(query(list, atVersion: atVersion)))
  }

  /// `query/items`: a page of one section's visible rows.
  public func items(
    _ list: String, section: String, offset: Int = 0, limit: Int? = nil, atVersion: Int? = nil
  )
    async throws -> JSONValue
  {
    let object = query(
      list, atVersion: atVersion, ("section", .string(section)), ("offset", .int(Int64(offset))),
      ("limit", limit.map { .int(Int64($0)) }))
    return try await call("query/items", .object(object))
  }

  /// `query/itemAt`: the item at a visible index path.
  public func item(_ list: String, at section: Int, _ row: Int, atVersion: Int? = nil) async throws
    -> JSONValue
  {
    try await call(
      "query/itemAt",
      .object(query(list, atVersion: atVersion, ("indexPath", [.int(Int64(section)), .int(Int64(row))]))))[
        "item"]
      ?? .null
  }

  /// `query/outline`: the outline state of an item's subtree, a section, or the whole list.
  public func outline(
    _ list: String, item: String? = nil, section: String? = nil, depth: Int? = nil, atVersion: Int? = nil
  ) async throws -> JSONValue {
    try await call(
      "query/outline",
      .object(
        query(
          list, atVersion: atVersion, ("item", item.map { .string($0) }),
          ("section", section.map { .string($0) }),
          ("depth", depth.map { .int(Int64($0)) }))))
  }

  /// `query/counts`: sections, items, visible rows and selected items.
  public func counts(_ list: String, atVersion: Int? = nil) async throws -> JSONValue {
    try await call("query/counts", .object(query(list, atVersion: atVersion)))
  }

  /// `list/changesSince`: the `didChange` params after `version`, from the daemon's history
  /// (throws -32015 when they are no longer kept: resubscribe). With `explain`, each carries its
  /// `explain` member (-32015 too when a change's record is no longer kept); ``Change/init(_:)``
  /// decodes each into a ``Change`` with its ``Change/explain``.
  public func changes(_ list: String, since version: Int, explain: Bool = false) async throws -> [JSONValue] {
    let object = params(list, ifVersion: nil, ("version", .int(Int64(version))), ("explain", flag(explain)))
    return try await call("list/changesSince", .object(object))["changes"]?.arrayValue ?? []
  }

  // MARK: - User events (as a viewer)

  /// `event/*`: reports what the user did to an item; `extra` carries the event's operands
  /// (`isOn` for toggle, `action` for action, `before`/`after`/`section` for move). Answers the
  /// list's version.
  @discardableResult
  public func event(_ kind: EventKind, _ list: String, item: String, _ extra: [(String, JSONValue)] = [])
    async throws -> Int
  {
    var object: JSONObject = ["list": .string(list), "item": .string(item)]
    for (key, value) in extra { object.append(key, value) }
    return Int(try await call("event/\(kind.rawValue)", .object(object))["version"]?.intValue ?? -1)
  }

  /// `event/refresh`: asks the owner to refresh and waits until it has; answers the version.
  @discardableResult
  public func refresh(_ list: String, timeoutMs: Int? = nil) async throws -> Int {
    var object: JSONObject = ["list": .string(list)]
    if let timeoutMs { object.append("timeoutMs", .int(Int64(timeoutMs))) }
    return Int(try await call("event/refresh", .object(object))["version"]?.intValue ?? -1)
  }
}

/// The user events a viewer reports (`event/<kind>`), besides `refresh`.
public enum EventKind: String, Sendable, CaseIterable {
  case select, deselect, toggle, action, delete, move
}
