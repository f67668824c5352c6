// The `model` suite: ListModel build, diff, outline and selection figures.
import ListModel
import SeededRandom

enum ModelBenchmarks {
  /// Mutable holder so an untimed setup can undo what the timed body did, in place (a copy of
  /// a snapshot would make the first write copy its storage).
  final class Holder {
    var snapshot: ListSnapshot
    init(_ snapshot: ListSnapshot) { self.snapshot = snapshot }
  }

  static func run(_ options: BenchOptions) {
    printHeading("ListModel", options)
    let scale = options.quick ? 10 : 1
    let columns: [(String, Int)] = [
      ("case", 46), ("median", 10), ("p90", 10), ("stdlib", 10), ("vs stdlib", 9), ("floor", 10),
      ("vs floor", 8),
    ]
    for kind in IDKind.allCases {
      print("\n-- \(kind.rawValue) ids --")
      let table = Table(columns)
      buildCases(options, kind, scale, table)
      diffCases(options, kind, scale, table)
    }
    print(
      """
      stdlib = Array.difference(from:).inferringMoves() on the flattened id arrays (only up to \
      10k ids: quadratic beyond); * = median of 3 runs, the baseline taking over 0.2 s a run.
      floor = one pass hashing every old and new id into a Dictionary<String, Int>.
      Ratios are diff median / baseline median, measured in the same run.
      """)
    print("\n-- outline and selection (short ids) --")
    outlineCases(options, scale, Table(columns))
    InspectorBenchmarks.run(options, scale)
  }

  /// Times `timed`, running the untimed `undo` before each run, on state kept in place.
  static func inPlace(_ options: BenchOptions, undo: () -> Void, timed: () -> Void) -> Timing {
    measure(options, setup: undo, { _ in timed() })
  }

  static func row(_ table: Table, _ name: String, _ timing: Timing) {
    table.printRow([name, formatDuration(timing.median), formatDuration(timing.p90), "", "", "", ""])
  }

  static func buildCases(_ options: BenchOptions, _ kind: IDKind, _ scale: Int, _ table: Table) {
    for count in [10_000 / scale, 50_000 / scale] {
      let ids = kind.make(count, seed: 1)
      row(table, "build \(count) items", measure(options) { makeSnapshot([("s", ids)]) })
    }
    let sections = (0..<100).map { ("s\($0)", kind.make(100 / scale, seed: UInt64(100 + $0))) }
    row(table, "build 100 sections × \(100 / scale) items", measure(options) { makeSnapshot(sections) })
  }

  /// Times diff(old, new) and both baselines on the same ids; prints one row with both ratios.
  static func diffRow(
    _ options: BenchOptions, _ table: Table, _ name: String, old: [(String, [String])],
    new: [(String, [String])],
    derive: ((inout ListSnapshot) -> Void)? = nil
  ) {
    let a = makeSnapshot(old)
    var b = makeSnapshot(new, sharing: a)
    if let derive {
      b = a
      derive(&b)
    }
    let timing = measure(options) { diff(a, b) }
    let oldIDs = old.flatMap(\.1)
    let newIDs = new.flatMap(\.1)
    let floor = measure(options) { hashFloor(oldIDs, newIDs) }
    var stdlib: Timing?
    var stdlibNote = ""
    if max(oldIDs.count, newIDs.count) <= 10_000 {
      // The quadratic baseline can take seconds per run: beyond 0.2 s, take the median of 3.
      let start = now()
      blackHole(stdlibDiff(oldIDs, newIDs))
      if now() - start > 0.2 {
        var few = options
        few.runs = 3
        few.warmup = 0
        stdlib = measure(few) { stdlibDiff(oldIDs, newIDs) }
        stdlibNote = "*"
      } else {
        stdlib = measure(options) { stdlibDiff(oldIDs, newIDs) }
      }
    }
    table.printRow([
      name, formatDuration(timing.median), formatDuration(timing.p90),
      stdlib.map { stdlibNote + formatDuration($0.median) } ?? "-",
      stdlib.map { formatRatio(timing.median / $0.median) } ?? "-",
      formatDuration(floor.median), formatRatio(timing.median / floor.median),
    ])
  }

  /// Times `checkBatchUpdate` on the changeset of diff(old, new) (its conversion included),
  /// with the diff's own time as the floor column: the check should cost no more than the diff.
  static func checkRow(
    _ options: BenchOptions, _ table: Table, old: [(String, [String])], new: [(String, [String])]
  ) {
    let a = makeSnapshot(old)
    let b = makeSnapshot(new, sharing: a)
    let changeset = diff(a, b)
    let before = a.rows.sections.map(\.rows.count)
    let after = b.rows.sections.map(\.rows.count)
    guard checkBatchUpdate(before: before, BatchUpdate(changeset), after: after) == .valid(after: after)
    else {
      fatalError("the churn changeset does not pass checkBatchUpdate")
    }
    let timing = measure(options) { checkBatchUpdate(before: before, BatchUpdate(changeset), after: after) }
    let diffTiming = measure(options) { diff(a, b) }
    table.printRow([
      "  check/batchUpdate of it (floor: the diff)", formatDuration(timing.median),
      formatDuration(timing.p90),
      "", "", formatDuration(diffTiming.median), formatRatio(timing.median / diffTiming.median),
    ])
  }

  static func diffCases(_ options: BenchOptions, _ kind: IDKind, _ scale: Int, _ table: Table) {
    for count in [10_000 / scale, 50_000 / scale] {
      let ids = kind.make(count + count / 2, seed: 2)
      let old = Array(ids[0..<count])
      let new = Array(ids[(count / 2)...])
      diffRow(options, table, "diff \(count), 50% overlap", old: [("s", old)], new: [("s", new)])
    }
    let count = 10_000 / scale
    let ids = kind.make(count, seed: 3)
    diffRow(options, table, "no-change \(count)", old: [("s", ids)], new: [("s", ids)]) { _ in }
    diffRow(options, table, "no-change \(count), rebuilt (full scan)", old: [("s", ids)], new: [("s", ids)])
    var shuffledIDs = ids
    var random = SplitMix64(seed: 4)
    shuffledIDs.shuffle(using: &random)
    diffRow(options, table, "shuffle \(count)", old: [("s", ids)], new: [("s", shuffledIDs)])
    for (label, fraction) in [("moderate churn 20%", 0.2), ("heavy churn 50%", 0.5)] {
      for size in [10_000 / scale, 50_000 / scale] {
        let base = kind.make(size, seed: 5)
        let changed = churned(
          base, deletes: fraction, inserts: fraction, moves: fraction, kind: kind, seed: 6)
        diffRow(options, table, "\(label) \(size)", old: [("s", base)], new: [("s", changed)])
        if fraction == 0.2 && size == 10_000 / scale {
          checkRow(options, table, old: [("s", base)], new: [("s", changed)])
        }
      }
    }
    let perSection = 100 / scale
    let sections = (0..<100).map { ("s\($0)", kind.make(perSection, seed: UInt64(200 + $0))) }
    var shifted = sections.map { ($0.0, Array($0.1.dropFirst()) + $0.1.prefix(1)) }
    shifted.insert(shifted.removeLast(), at: 0)
    diffRow(options, table, "100×\(perSection) sections, every section shifted", old: sections, new: shifted)
    let half = 5_000 / scale
    let left = kind.make(half, seed: 7)
    let right = kind.make(half, seed: 8)
    diffRow(
      options, table, "2×\(half) sections swapping all items", old: [("a", left), ("b", right)],
      new: [("a", right), ("b", left)])
  }

  static func outlineCases(_ options: BenchOptions, _ scale: Int, _ table: Table) {
    // 10 folders × 100,000 descendants = 1,000,010 nodes (scaled down with --quick).
    let big = Holder(makeOutline(folders: 10, subfolders: 1_000 / scale, leaves: 99))
    let nodes = big.snapshot.numberOfItems(includingHidden: true)
    let expand100k = inPlace(
      options, undo: { try! big.snapshot.collapse(["f5"]) },
      timed: { try! big.snapshot.expand(["f5"]) })
    row(table, "expand 1 of \(nodes) nodes: \(100_000 / scale) rows", expand100k)
    let collapse100k = inPlace(
      options, undo: { try! big.snapshot.expand(["f5"]) },
      timed: { try! big.snapshot.collapse(["f5"]) })
    row(table, "collapse 1 of \(nodes) nodes: \(100_000 / scale) rows", collapse100k)
    try! big.snapshot.collapse(["f5"])
    let direct = inPlace(
      options, undo: { try! big.snapshot.collapse(["f5"]) },
      timed: { blackHole(try! big.snapshot.applyAndDiff([.expand(["f5"])])) })
    row(table, "  same expand + direct changeset", direct)
    try! big.snapshot.collapse(["f5"])

    // 1,000-descendant folders in a 10k and a 1M tree, side by side.
    var thousand: [Double] = []
    for folders in [10, 1_000 / scale] {
      let holder = Holder(makeOutline(folders: folders, subfolders: 10, leaves: 99))
      let total = holder.snapshot.numberOfItems(includingHidden: true)
      let target = "f\(folders / 2)"
      let expand = inPlace(
        options, undo: { try! holder.snapshot.collapse([target]) },
        timed: { try! holder.snapshot.expand([target]) })
      let collapse = inPlace(
        options, undo: { try! holder.snapshot.expand([target]) },
        timed: { try! holder.snapshot.collapse([target]) })
      row(table, "expand 1,000 rows in \(total) nodes", expand)
      row(table, "collapse 1,000 rows in \(total) nodes", collapse)
      thousand.append(expand.median + collapse.median)
    }
    print("  1,000-row expand+collapse, big tree / small tree: \(formatRatio(thousand[1] / thousand[0]))")

    let flat = Holder(makeSnapshot([("s", IDKind.short.make(10_000 / scale, seed: 9))]))
    let selectAll = inPlace(
      options, undo: { flat.snapshot.deselectAll() },
      timed: { try! flat.snapshot.selectAll() })
    row(table, "selectAll \(10_000 / scale)", selectAll)
  }
}
