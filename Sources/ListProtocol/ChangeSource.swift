// What made a change — the method, the session, the batch of edits — kept to explain it later.
import JSON
import ListModel

/// The origin of one change of a list: what `list/explain` and `explain: true` report beside
/// the causes, and the batch whose edits the causes name.
public struct ChangeSource: Sendable {
  /// The method that made the change (`list/edit`, `outline/expand`, …; `demo` for the demo
  /// lists' own changes).
  public var method: String
  /// The session that sent it (`{session, name?}`), nil for the daemon's own changes.
  public var by: JSONValue?
  /// The batch of edits, when the change was one.
  public var edits: DecodedEdits?

  public init(method: String, by: JSONValue? = nil, edits: DecodedEdits? = nil) {
    self.method = method
    self.by = by
    self.edits = edits
  }
}

/// A committed change kept with the snapshots on both sides, so it can be explained on demand.
public struct ChangeRecord: Sendable {
  public var before: ListSnapshot
  public var after: ListSnapshot
  public var source: ChangeSource

  /// The change from `before` to `after` that `source` made.
  public init(before: ListSnapshot, after: ListSnapshot, source: ChangeSource) {
    self.before = before
    self.after = after
    self.source = source
  }
}
