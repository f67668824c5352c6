// ListClient: time travel — the diff between two versions of a list, and a list's whole content.
import JSON
import ListProtocol

/// The answer of `list/diff`: one changeset from version `from` to version `to`.
public struct VersionDiff: Sendable, Equatable {
  /// The list id.
  public let list: String
  /// The version the changeset starts from.
  public let from: Int
  /// The version it leads to (older than `from` for a backward diff).
  public let to: Int
  /// The wire changeset (Protocol §4): a mirror at `from` that applies it equals the list at `to`.
  public let changeset: JSONValue
  /// The `list/edit` batch that makes this changeset from `from`, when asked (`edits: true`).
  public let edits: [JSONValue]?
  /// Why each row differs, when asked (`explain: true`; source method `list/diff`).
  public let explain: Explanation?
}

/// The answer of `query/content`: a list's whole content in `list/create`'s format.
public struct ListContent: Sendable, Equatable {
  /// The list id.
  public let list: String
  /// The version described.
  public let version: Int
  /// The list's selection mode (`none`, `single`, `multiple`).
  public let selectionMode: String
  /// `{"sections": […]}`: every item, hidden ones too, with `expanded: true` where expanded.
  public let content: JSONValue
  /// The selected item ids, in index-path order.
  public let selection: [String]
  /// The list's columns (`[]` unless it is a table): `list/create`'s `columns`.
  public let columns: [JSONValue]
  /// The list's empty state, if any: `list/create`'s `emptyState`.
  public let emptyState: JSONValue?
  /// Whether the list is in editing mode: `list/create`'s `editing`.
  public let isEditing: Bool
}

extension ListClient {
  /// `list/diff`: the changeset from version `from` to version `to` of `list` (either way);
  /// with `edits`, the `list/edit` batch that makes it from `from` (to bring a list back to an
  /// old version: `diff(list, from: current, to: old, edits: true)`, then ``edit(_:_:ifVersion:explain:)``
  /// with those edits and `ifVersion: current`); with `explain`, the cause of each part.
  /// Throws -32015 for a version the list no longer retains.
  public func diff(_ list: String, from: Int, to: Int, edits: Bool = false, explain: Bool = false)
    async throws -> VersionDiff
  {
    let object = params(
      list, ifVersion: nil, ("from", .int(Int64(from))), ("to", .int(Int64(to))), ("edits", flag(edits)),
      ("explain", flag(explain)))
    let value = try await call("list/diff", .object(object))
    let explanation = value["explain"].flatMap(Explanation.init)
    guard let id = value["list"]?.stringValue, let changeset = value["changeset"],
      value["explain"] == nil || explanation != nil,
      value["edits"] == nil || value["edits"]?.arrayValue != nil
    else { throw UnexpectedAnswer(description: "list/diff answered \(value)") }
    return VersionDiff(
      list: id, from: from, to: to, changeset: changeset, edits: value["edits"]?.arrayValue,
      explain: explanation)
  }

  /// `query/content`: the whole content of `list`, now or at `atVersion`, with its selection
  /// mode and selection — what `list/create` (then a select) needs to make an equal list.
  public func content(_ list: String, atVersion: Int? = nil) async throws -> ListContent {
    let value = try await call("query/content", .object(query(list, atVersion: atVersion)))
    guard let id = value["list"]?.stringValue, let version = value["version"]?.intValue,
      let mode = value["selectionMode"]?.stringValue, let content = value["content"],
      let selection = value["selection"]?.arrayValue?.compactMap(\.stringValue)
    else { throw UnexpectedAnswer(description: "query/content answered \(value)") }
    return ListContent(
      list: id, version: Int(version), selectionMode: mode, content: content, selection: selection,
      columns: value["columns"]?.arrayValue ?? [], emptyState: value["emptyState"],
      isEditing: value["editing"] == true)
  }
}
