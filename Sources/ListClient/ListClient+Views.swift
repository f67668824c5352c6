// Live views from a client: view/create, view/update and view/info.
import JSON

extension ListClient {
  /// `view/create`: a live view of `source` (a list or a view), owned by this session.
  /// `filter` is `{query?, match?, predicates?}`, `sort` `[{field, descending?}]`, `group`
  /// `{field, by?, descending?}` (Protocol/README.md, Live views). Returns version 0 and its changeset.
  public func createView(
    _ view: String, source: String, title: String? = nil, filter: JSONValue? = nil, sort: [JSONValue]? = nil,
    group: JSONValue? = nil
  ) async throws -> Change {
    var object: JSONObject = ["view": .string(view), "source": .string(source)]
    if let title { object.append("title", .string(title)) }
    if let filter { object.append("filter", filter) }
    if let sort { object.append("sort", .array(sort)) }
    if let group { object.append("group", group) }
    return try await change("view/create", object)
  }

  /// `view/update`: replaces the members given (`.null` removes one; nil leaves it), in one changeset.
  public func updateView(
    _ view: String, filter: JSONValue? = nil, sort: JSONValue? = nil, group: JSONValue? = nil
  ) async throws -> Change {
    var object: JSONObject = ["view": .string(view)]
    if let filter { object.append("filter", filter) }
    if let sort { object.append("sort", sort) }
    if let group { object.append("group", group) }
    return try await change("view/update", object)
  }

  /// `view/info`: `{view, source, filter, sort, group, version, rows}`.
  public func viewInfo(_ view: String) async throws -> JSONValue {
    try await call("view/info", ["view": .string(view)])
  }
}
