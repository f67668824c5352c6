// What made a change — the method, the session, the batch of edits — kept to explain it later.
import JSON
import ListModel

/// The origin of one change of a list: what `list/explain` and `explain: true` report beside
/// the causes, and the batch whose edits the causes name.
struct ChangeSource: Sendable {
  /// The method that made the change (`list/edit`, `outline/expand`, …; `demo` for the demo
  /// lists' own changes).
  var method: String
  /// The session that sent it (`{session, name?}`), nil for the daemon's own changes.
  var by: JSONValue?
  /// The batch of edits, when the change was one.
  var edits: DecodedEdits?

  init(method: String, by: JSONValue? = nil, edits: DecodedEdits? = nil) {
    self.method = method
    self.by = by
    self.edits = edits
  }
}

/// A committed change kept with the snapshots on both sides, so it can be explained on demand.
struct ChangeRecord: Sendable {
  var before: ListSnapshot
  var after: ListSnapshot
  var source: ChangeSource
}
