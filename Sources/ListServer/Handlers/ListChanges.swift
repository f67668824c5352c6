// How a handler changes a live list: apply, commit, notify the subscribers, and answer.
import JSON
import JSONRPC
import ListModel
import ListProtocol

/// A change committed and published (Sessions/ChangeFanout.swift): the commit, and its
/// changeset's full encoding (the answer shares it; nil when the change made no version).
struct PublishedChange: Sendable {
  var commit: ListCommit
  var encoded: JSONValue?

  /// The answer `{list, version, changeset}` (with `rows` of the changeset's rows; with
  /// `explain`, why it did what it did), once the change is durable. O(size of the changeset).
  func answer(rows: AnswerRows = .all, explain: Bool = false) -> DurableAnswer {
    let changeset =
      rows == .all
      ? encoded ?? ChangesetEncoding.changeset(commit.changeset)
      : ChangesetEncoding.changeset(commit.changeset, rows: rows.encoding)
    var result = ListChanges.result(list: commit.list, version: commit.version, changeset: changeset)
    if explain {
      result = result.setting(
        "explain",
        ExplanationEncoding.explain(
          commit.changeset, from: commit.before, to: commit.after, source: commit.source))
    }
    return DurableAnswer(result, after: commit.durabilityTicket)
  }
}

/// The handler layer's side of ``LiveList/commit(_:changeset:from:source:journaled:)``: every
/// change of a list — by a request, a view following its source, the demo — is committed and
/// published through here, so its subscribers hear of it before it is answered.
enum ListChanges {
  /// The answer of a mutation: `{list, version, changeset}`.
  static func result(list: String, version: Int, changeset: JSONValue) -> JSONValue {
    ["list": .string(list), "version": .int(Int64(version)), "changeset": changeset]
  }

  /// Commits `snapshot` (derived from `base` by `changeset`) and publishes it to the list's
  /// subscribers; a refusal as its JSON-RPC error. Must run on the list's queue.
  static func commit(
    _ list: LiveList, _ snapshot: ListSnapshot, changeset: Changeset, from base: LiveList.Committed,
    source: ChangeSource, journaled: JournaledChange? = nil
  ) throws(ResponseError) -> PublishedChange {
    let commit = try mappingListErrors { () throws(ListError) in
      try list.commit(snapshot, changeset: changeset, from: base, source: source, journaled: journaled)
    }
    return PublishedChange(commit: commit, encoded: ChangeFanout.publish(commit, of: list))
  }

  /// Applies `change` to the committed snapshot (honouring `ifVersion`) and commits the result
  /// (``commit(_:_:changeset:from:source:journaled:)``). `change` returns the changeset and, for
  /// a batch, its decoded edits (kept in the source for `explain`); the journal keeps a batch
  /// as sent (`wireEdits`, `list/edit`), else as its model edits when it has no patches, else
  /// as the new state. Must run on the list's queue. O(cost of the change + its changeset).
  static func mutate(
    _ list: LiveList, ifVersion: Int?, source: ChangeSource, wireEdits: JSONValue? = nil,
    _ change: (inout ListSnapshot) throws(ResponseError) -> (Changeset, DecodedEdits?)
  ) throws(ResponseError) -> PublishedChange {
    let current = try mappingListErrors { () throws(ListError) in try list.current(ifVersion: ifVersion) }
    var snapshot = current.snapshot
    let (changeset, edits) = try change(&snapshot)
    var source = source
    source.edits = edits
    let journaled =
      list.journal == nil
      ? nil
      : wireEdits.map(JournaledChange.wireEdits)
        ?? edits.flatMap { $0.patches.isEmpty ? JournaledChange(modelEdits: $0.edits) : nil }
    return try commit(
      list, snapshot, changeset: changeset, from: current, source: source, journaled: journaled)
  }

  /// ``mutate(_:ifVersion:source:wireEdits:_:)`` for a change that is not a batch of edits.
  static func mutate(
    _ list: LiveList, ifVersion: Int?, source: ChangeSource,
    _ change: (inout ListSnapshot) throws(ResponseError) -> Changeset
  ) throws(ResponseError) -> PublishedChange {
    try mutate(list, ifVersion: ifVersion, source: source) { snapshot throws(ResponseError) in
      (try change(&snapshot), nil)
    }
  }
}
