// Which versions of one list one generation file holds, and which of them a replay can start from.

/// One file of a generation: its checkpoint or its journal.
struct GenerationFile: Hashable, Sendable {
  var generation: Int
  var checkpoint: Bool
}

/// The versions of one list that one file holds: sorted, disjoint runs of consecutive versions
/// (damage that cost a record splits a run), and the versions held whole (state records: a
/// checkpoint's, a creation's, a change journaled as its result), from which a replay starts.
struct HeldVersions: Sendable {
  private(set) var runs: [ClosedRange<Int>] = []
  /// Ascending.
  private(set) var bases: [Int] = []

  /// Notes `version`, a base when `base`. O(1) for a version after the newest one held.
  mutating func insert(_ version: Int, base: Bool) {
    if base {
      var index = bases.count
      while index > 0 && bases[index - 1] > version { index -= 1 }
      if index == 0 || bases[index - 1] != version { bases.insert(version, at: index) }
    }
    if let last = runs.last {
      if last.contains(version) { return }
      if version == last.upperBound + 1 {
        runs[runs.count - 1] = last.lowerBound...version
        return
      }
    }
    runs = Self.merged(runs + [version...version])
  }

  /// The newest version held, or nil.
  var newest: Int? { runs.last?.upperBound }

  /// `ranges` sorted, with overlapping and adjacent ones joined. O(n log n).
  static func merged(_ ranges: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
    var result: [ClosedRange<Int>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = result.last, range.lowerBound <= last.upperBound + 1 {
        result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
      } else {
        result.append(range)
      }
    }
    return result
  }

  /// The versions a replay of `files` can rebuild: each run of consecutive versions over all
  /// of them, from its oldest base on (a version is rebuilt from a base before it and every
  /// change between). Ascending and disjoint. O(n log n) in the runs and bases.
  static func reachable(_ files: [HeldVersions]) -> [ClosedRange<Int>] {
    let bases = files.flatMap(\.bases).sorted()
    return merged(files.flatMap(\.runs)).compactMap { run in
      bases.first(where: run.contains).map { $0...run.upperBound }
    }
  }
}
