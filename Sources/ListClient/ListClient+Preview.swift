// The inspector's previews: what an edit or a replace would do, and the diff of two contents.
import JSON

extension ListClient {
  /// `diff/preview` with `edits`: what `list/edit` would answer now (the same version,
  /// changeset and errors), with nothing committed.
  public func preview(_ list: String, edits: [JSONValue], ifVersion: Int? = nil) async throws -> Change {
    try await change("diff/preview", params(list, ifVersion: ifVersion, ("edits", .array(edits))))
  }

  /// `diff/preview` with `content`: what `list/replace` would answer now, committing nothing.
  public func preview(_ list: String, content: JSONValue, ifVersion: Int? = nil) async throws -> Change {
    try await change("diff/preview", params(list, ifVersion: ifVersion, ("content", content)))
  }

  /// `diff/contents`: the changeset from `old` to `new` (contents in `list/create`'s format), no
  /// list involved.
  public func diffContents(old: JSONValue, new: JSONValue, selectionMode: String? = nil) async throws
    -> JSONValue
  {
    var params: JSONObject = ["old": old, "new": new]
    if let selectionMode { params.append("selectionMode", .string(selectionMode)) }
    return try await call("diff/contents", .object(params))["changeset"] ?? [:]
  }
}
