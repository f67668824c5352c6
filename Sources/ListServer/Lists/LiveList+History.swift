// A list's kept changes: what `list/changesSince` replays and `list/explain` explains.
import ListModel
import ListProtocol

/// What `list/explain` found: the change that produced a version with its causes, or — asked
/// for the latest change concerning an item — none.
enum ListExplanation {
  /// The change, and the causes of its changeset entries (only those concerning the item, when
  /// one was named).
  case change(KeptChange, causes: [ChangeCause], source: ChangeSource)
  /// No kept change concerns the item; the oldest version that can still be explained, if any.
  case none(oldestExplainable: Int?)
}

extension LiveList {
  /// Keeps the change producing `version` in the history as `published` — the form the server
  /// layer published it in — for catch-ups to replay (``KeptChange/Form/published(_:)``).
  /// Nothing if that change is no longer the latest. Must run on ``queue``. O(1).
  func keep(published: any Sendable, ofVersion version: Int) {
    state.withLock { $0.history.keep(published: published, ofVersion: version) }
  }

  /// Every change after `version`, oldest first, and the current version; with `explain` every
  /// one of them must still have its record (for its explanation). Throws
  /// ``ListError/historyUnavailable(_:oldestVersion:currentVersion:)`` if the history (and the
  /// journal) no longer have them. Must run on ``queue``. O(changes).
  func changes(since version: Int, explain: Bool = false) throws(ListError) -> (
    current: Int, changes: [KeptChange]
  ) {
    let (history, current, disposed) = state.withLock { ($0.history, $0.committed.version, $0.isDisposed) }
    guard !disposed else { throw .unknownList(id) }
    guard version <= current else {
      throw .invalidParams(
        "\"version\" \(version) is newer than the list's version \(current)", field: "version")
    }
    guard
      let changes = history.records(since: version, current: current)
        ?? journaledChanges(since: version, history)
    else {
      // The changes since a version are kept when every version from it to the current one
      // is: from the start of the kept range that ends at the current version.
      let inMemory = history.oldestBase ?? current
      let kept = keptVersions(fromMemory: inMemory, current: current)
      // Memory's bound if the files claimed `version` but did not rebuild from it.
      let oldest = kept.last.flatMap { $0.lowerBound > version ? $0.lowerBound : nil } ?? inMemory
      let damage = damageNote(gap(version, in: kept, through: true))
      throw .historyUnavailable(
        "list '\(id)' keeps changes since version \(oldest) only, not \(version): resubscribe to resync\(damage)",
        oldestVersion: oldest, currentVersion: current)
    }
    if explain, let unexplained = changes.first(where: { $0.record == nil }) {
      throw unexplainable(unexplained.version, history: history, current: current)
    }
    return (current, changes)
  }

  /// The changes after `version` that the in-memory history no longer keeps, rebuilt from the
  /// journal (`--state`), followed by those it keeps; nil if the journal does not retain them.
  /// O(size of the journal files read + cost of the changes replayed).
  private func journaledChanges(since version: Int, _ history: ChangeHistory) -> [KeptChange]? {
    guard let journal, let oldestBase = history.oldestBase ?? Optional(committed.version),
      version < oldestBase
    else { return nil }
    var changes: [KeptChange] = []
    var previous: ListSnapshot?
    let source = ChangeSource(method: "journal")
    let complete = journal.replay(serial: serial, list: id, from: version, through: oldestBase) {
      replayed, snapshot, changeset in
      defer { previous = snapshot }
      guard let changeset, let before = previous else { return true }
      changes.append(
        KeptChange(
          version: replayed, previousVersion: replayed - 1, form: .changeset(changeset),
          record: ChangeRecord(before: before, after: snapshot, source: source)))
      return true
    }
    guard complete, let kept = history.records(since: oldestBase, current: committed.version) else {
      return nil
    }
    return changes + kept
  }

  /// `list/explain`: the change that produced `version`, with its causes; with `item`, only
  /// the causes that concern it, and without `version` the latest kept change that concerns it
  /// (``ListExplanation/none(oldestExplainable:)`` if none). Must run on ``queue``. O(the
  /// explained diffs).
  func explanation(of version: Int?, item: String?) throws(ListError) -> ListExplanation {
    let (history, current, disposed) = state.withLock { ($0.history, $0.committed.version, $0.isDisposed) }
    guard !disposed else { throw .unknownList(id) }
    let versions: [Int]
    if let version {
      guard version >= 1, version <= current else {
        let changes = current == 0 ? "it has no changes yet" : "its changes are versions 1 to \(current)"
        throw .invalidParams(
          "\"version\" \(version) is not a change of list '\(id)': \(changes)", field: "version")
      }
      versions = [version]
    } else {
      versions = history.explainableVersionsNewestFirst
    }
    for candidate in versions {
      guard let kept = history.entry(producing: candidate), let record = kept.record else {
        throw unexplainable(candidate, history: history, current: current)
      }
      let changeset = diff(record.before, record.after)
      var causes = ListSnapshot.explain(
        changeset, from: record.before, to: record.after, edits: record.source.edits?.edits)
      if let item {
        causes = ListSnapshot.causes(
          causes, coveringItem: item, changeset: changeset, from: record.before, to: record.after)
        if causes.isEmpty && version == nil { continue }
      }
      return .change(kept, causes: causes, source: record.source)
    }
    return .none(oldestExplainable: history.oldestExplainable)
  }

  /// The refusal of a change whose record the history no longer keeps.
  private func unexplainable(_ version: Int, history: ChangeHistory, current: Int) -> ListError {
    let oldest = history.oldestExplainable ?? current + 1
    return .historyUnavailable(
      "list '\(id)' can explain its changes since version \(oldest) only, not version \(version)",
      oldestVersion: oldest, currentVersion: current)
  }
}
