// A list's past versions: from the history's records in memory, then from its VersionSource.
import ListModel
import ListProtocol

extension LiveList {
  /// The versions the list retains: `oldest` to `current`, both included. Memory retains the
  /// current version and both sides of every change record the history keeps (the records are
  /// the latest changes, contiguous); the connected ``VersionSource`` may reach further back.
  /// Refuses (``ListError/unknownList(_:)``, -32010) if the list is disposed. Any thread. O(1).
  func retainedVersions() throws(ListError) -> (oldest: Int, current: Int) {
    let (history, committed, disposed) = historyAndCommitted
    guard !disposed else { throw .unknownList(id) }
    return (oldestRetained(history, committed), committed.version)
  }

  /// The list as it was at `version` — the contract every time-travel feature goes through.
  ///
  /// Answers from what memory keeps (the committed state, and the `before` and `after`
  /// snapshots of the history's change records), then from ``pastVersions``' source (the
  /// journal). Refuses (``ListError``) a disposed list (-32010), a version newer than the
  /// list's or negative (-32602 naming `field`), and a version no longer retained (-32015,
  /// `data: {oldestVersion, currentVersion}`). Any thread: it reads the state under the list's lock (a
  /// session's own pending changes are waited for by the caller, as for every query). O(1) from
  /// memory.
  func snapshot(atVersion version: Int, field: String = "atVersion") throws(ListError) -> ListSnapshot {
    let (history, committed, disposed) = historyAndCommitted
    guard !disposed else { throw .unknownList(id) }
    try check(version, field: field, current: committed.version)
    if let snapshot = Self.kept(version, history, committed) { return snapshot }
    if let source = pastVersions.current, let snapshot = source.snapshot(atVersion: version) {
      return snapshot
    }
    throw notRetained(version, field: field, history, committed)
  }

  /// The list at `from` and at `to`, for a diff between them. Two adjacent versions come from
  /// the record of the change between them (memory's, else the source's
  /// ``VersionSource/change(producing:)``), so they share an id table and its reload marks
  /// (their diff is the change's own changeset); other pairs are looked up one by one
  /// (``snapshot(atVersion:field:)``). Any thread.
  func snapshots(from: Int, to: Int) throws(ListError) -> (from: ListSnapshot, to: ListSnapshot) {
    if abs(from - to) == 1 {
      let (history, committed, disposed) = historyAndCommitted
      guard !disposed else { throw .unknownList(id) }
      try check(from, field: "from", current: committed.version)
      try check(to, field: "to", current: committed.version)
      let change = history.entry(producing: max(from, to))?.record.map { ($0.before, $0.after) }
      if let (before, after) = change ?? pastVersions.current?.change(producing: max(from, to)) {
        return from < to ? (before, after) : (after, before)
      }
    }
    return (try snapshot(atVersion: from, field: "from"), try snapshot(atVersion: to, field: "to"))
  }

  /// The snapshot memory keeps of `version`, or nil. The `after` side of the change that made
  /// it comes first, then the `before` side of the next change, then the committed state. O(1).
  private static func kept(_ version: Int, _ history: ChangeHistory, _ committed: Committed) -> ListSnapshot?
  {
    if let record = history.entry(producing: version)?.record { return record.after }
    if let record = history.entry(producing: version + 1)?.record { return record.before }
    return version == committed.version ? committed.snapshot : nil
  }

  /// The oldest version memory or the source keeps.
  private func oldestRetained(_ history: ChangeHistory, _ committed: Committed) -> Int {
    let inMemory = history.oldestExplainable.map { $0 - 1 } ?? committed.version
    guard let fromSource = pastVersions.current?.oldestVersion else { return inMemory }
    return min(inMemory, fromSource)
  }

  /// The versions memory (`inMemory` to `current`) and the source keep together: ascending,
  /// disjoint ranges, the last one ending at `current`. O(the source's ranges).
  func keptVersions(fromMemory inMemory: Int, current: Int) -> [ClosedRange<Int>] {
    HeldVersions.merged((pastVersions.current?.retainedVersions ?? []) + [min(inMemory, current)...current])
  }

  /// How an error says what the list keeps (`versions 0 to 3 and 13 to 87`).
  func describe(_ kept: [ClosedRange<Int>]) -> String {
    let text = kept.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound) to \($0.upperBound)" }
    guard let last = text.last else { return "no version" }
    let listed = text.count == 1 ? last : text.dropLast().joined(separator: ", ") + " and " + last
    return (kept.count == 1 && kept[0].count == 1 ? "version " : "versions ") + listed
  }

  /// The gap between kept ranges that holds `version` (for `atVersion`), or, with `through`,
  /// the newest gap after it (the changes since `version` cross it); nil if none.
  func gap(_ version: Int, in kept: [ClosedRange<Int>], through: Bool = false) -> ClosedRange<Int>? {
    let gaps = zip(kept, kept.dropFirst()).map { $0.upperBound + 1...$1.lowerBound - 1 }
    if through {
      return kept.first.flatMap {
        version >= $0.lowerBound ? gaps.last(where: { $0.upperBound >= version }) : nil
      }
    }
    return gaps.first { $0.contains(version) }
  }

  /// What an error adds for versions lost in `gap` when the source met damage (nothing when it
  /// met none: then retention made the gap).
  func damageNote(_ gap: ClosedRange<Int>?) -> String {
    guard let gap, let damage = pastVersions.current?.damage, !damage.isEmpty else { return "" }
    let lost =
      gap.count == 1 ? "version \(gap.lowerBound) is" : "versions \(gap.lowerBound) to \(gap.upperBound) are"
    return "; \(lost) lost to damage: " + damage.joined(separator: "; ")
  }

  /// The refusal (-32602) of a version the list never had: negative, or newer than `current`.
  private func check(_ version: Int, field: String, current: Int) throws(ListError) {
    guard version >= 0 else {
      throw .invalidParams("\"\(field)\" must be 0 or more, got \(version)", field: field)
    }
    guard version <= current else {
      throw .invalidParams(
        "\"\(field)\" \(version) is newer than the version of list '\(id)', \(current)", field: field)
    }
  }

  /// The refusal (-32015) of a version the list had but no longer retains, naming the versions it keeps
  /// (and the damage that lost it, if it is in a gap between them).
  private func notRetained(
    _ version: Int, field: String, _ history: ChangeHistory, _ committed: Committed
  ) -> ListError {
    let current = committed.version
    let inMemory = history.oldestExplainable.map { $0 - 1 } ?? current
    let kept = keptVersions(fromMemory: inMemory, current: current)
    let oldest = kept.first?.lowerBound ?? current
    let only = oldest == current ? " only" : ""
    return .historyUnavailable(
      "\"\(field)\" \(version) is no longer kept by list '\(id)', which keeps \(describe(kept))\(only)"
        + damageNote(gap(version, in: kept)),
      oldestVersion: oldest, currentVersion: current)
  }
}
