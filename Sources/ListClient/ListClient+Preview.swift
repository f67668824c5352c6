// The inspector's previews: what an edit or a replace would do, and the diff of two contents.
import JSON
import ListProtocol

/// The answer of `diff/contents` asked with `explain`: the changeset and why it is what it is.
public struct ContentsDiff: Sendable, Equatable {
  /// The wire changeset from `old` to `new` (Protocol §4); `{}` when they are the same.
  public let changeset: JSONValue
  /// The explanation (source method `diff/contents`); nil when it was not asked for.
  public let explain: Explanation?
}

extension ListClient {
  /// `diff/preview` with `edits`: what `list/edit` would answer now (the same version,
  /// changeset and errors, and with `explain` the same explanation), with nothing committed.
  public func preview(_ list: String, edits: [JSONValue], ifVersion: Int? = nil, explain: Bool = false)
    async throws -> Change
  {
    try await change(
      "diff/preview",
      params(list, ifVersion: ifVersion, ("edits", .array(edits)), ("explain", flag(explain))))
  }

  /// `diff/preview` with `content`: what `list/replace` would answer now, committing nothing.
  public func preview(_ list: String, content: JSONValue, ifVersion: Int? = nil, explain: Bool = false)
    async throws -> Change
  {
    try await change(
      "diff/preview", params(list, ifVersion: ifVersion, ("content", content), ("explain", flag(explain))))
  }

  /// `diff/contents`: the changeset from `old` to `new` (contents in `list/create`'s format), no
  /// list involved.
  public func diffContents(old: JSONValue, new: JSONValue, selectionMode: String? = nil) async throws
    -> JSONValue
  {
    try await diffContents(old: old, new: new, selectionMode: selectionMode, explain: false).changeset
  }

  /// `diff/contents` with its `explain` option: the changeset from `old` to `new` and, with
  /// `explain`, the cause of each of its parts.
  public func diffContents(old: JSONValue, new: JSONValue, selectionMode: String? = nil, explain: Bool)
    async throws -> ContentsDiff
  {
    var params: JSONObject = ["old": old, "new": new]
    if let selectionMode { params.append("selectionMode", .string(selectionMode)) }
    if explain { params.append("explain", true) }
    let value = try await call("diff/contents", .object(params))
    let explanation = value["explain"].flatMap(Explanation.init)
    guard value["explain"] == nil || explanation != nil else {
      throw UnexpectedAnswer(description: "diff/contents answered \(value)")
    }
    return ContentsDiff(changeset: value["changeset"] ?? [:], explain: explanation)
  }
}
