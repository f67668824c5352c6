// The hook for a list's versions that memory no longer keeps: the journal connects here.
import ListModel
import ListProtocol
import Synchronization

/// A list's past versions kept outside memory — the journal, with `listd --state`.
///
/// ``LiveList/snapshot(atVersion:field:)`` answers first from memory (the committed state and
/// the `before`/`after` snapshots of the history's change records) and asks the source only
/// for a version older than those. Everything built on past versions (`atVersion` on queries,
/// `list/info` and `list/subscribe`, `list/diff`, and `listctl record` through them) goes
/// through that one entry point, so a connected source extends all of them at once.
///
/// Called from any thread (queries read past versions where they read the committed state),
/// never for a version newer than the list's current one.
protocol VersionSource: Sendable {
  /// The versions the source can answer: ascending, disjoint ranges (empty when it holds none;
  /// a gap between two is lost to damage, or to retention).
  var retainedVersions: [ClosedRange<Int>] { get }
  /// The damage the source met in its files (each described as it was reported), which a
  /// version in a gap of ``retainedVersions`` may be lost to. Default: none.
  var damage: [String] { get }
  /// The list's content at `version`, or nil if the source does not keep it.
  func snapshot(atVersion version: Int) -> ListSnapshot?
  /// The list on both sides of the change that produced `version`, as one change record holds
  /// them: derived from each other, so `diff(before, after)` is that change's own changeset —
  /// its explicit reloads included, which live in the `after` snapshot's reload marks (a
  /// snapshot rebuilt from content has none: a reload-only change would diff to `{}`, and a
  /// recording of it would not replay). Nil if not kept; `list/diff` of adjacent versions then
  /// diffs ``snapshot(atVersion:)`` of each side. Default: nil.
  func change(producing version: Int) -> (before: ListSnapshot, after: ListSnapshot)?
}

extension VersionSource {
  /// The oldest version the source can answer, or nil when it holds none.
  var oldestVersion: Int? { retainedVersions.first?.lowerBound }

  var damage: [String] { [] }

  func change(producing version: Int) -> (before: ListSnapshot, after: ListSnapshot)? { nil }
}

/// The ``VersionSource`` connected to one list, if any. Any thread.
final class PastVersions: Sendable {
  private let source = Mutex<(any VersionSource)?>(nil)

  /// The connected source.
  var current: (any VersionSource)? { source.withLock { $0 } }

  /// Connects `source` (nil disconnects).
  func connect(_ source: (any VersionSource)?) {
    self.source.withLock { $0 = source }
  }
}
