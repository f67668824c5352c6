// The `scale` suite: lists of up to 1,000,000 items — building, diffing, single-item edits, versions, daemon replace/edit/RSS — each figure against its target and a same-run baseline.
import ListModel
import ListServer

enum ScaleBenchmarks {
  static let columns: [(String, Int)] = [
    ("case", 46), ("median", 10), ("p90", 10), ("baseline (same run)", 36), ("ratio", 8), ("target", 26),
  ]

  static func run(_ options: BenchOptions) {
    printHeading("scale: lists of up to 1,000,000 items, against their targets", options)
    print("ratio = median ÷ baseline median, both measured in this run; ✓/✗ = target met or missed.")
    print("LISTD_BENCH_ONLY=build|outline|edits|versions|daemon|daemon-edits|daemon-rss runs one group.\n")
    let only = ProcessInfo.processInfo.environment["LISTD_BENCH_ONLY"]
    let table = Table(columns)
    if only == nil || only == "build" { buildAndDiff(options, table) }
    if only == nil || only == "outline" { outline(options, table) }
    if only == nil || only == "edits" { modelEdits(options, table) }
    if only == nil || only == "versions" { versions(options, table) }
    if only == nil || only == "daemon" { ScaleDaemonBenchmarks.run(options, table) }
    if only == "daemon-edits" { ScaleDaemonBenchmarks.run(options, table, only: .edits) }
    if only == "daemon-rss" { ScaleDaemonBenchmarks.run(options, table, only: .rss) }
    table.printSummary()
  }

  static func row(
    _ table: Table, _ name: String, _ timing: Timing, baseline: String, _ base: Double, target: String,
    met: Bool
  ) {
    table.printRow([
      name, formatDuration(timing.median), formatDuration(timing.p90),
      baseline + " " + formatDuration(base), formatRatio(timing.median / base), (met ? "✓ " : "✗ ") + target,
    ])
  }

  // MARK: - Build and diff

  /// Inserting `ids` into a fresh `Dictionary<String, Int>`: the baseline of building a snapshot.
  @inline(never) static func dictionaryInsert(_ ids: [String]) -> Int {
    var table = [String: Int]()
    for (index, id) in ids.enumerated() { table[id] = index }
    return table.count
  }

  static func buildAndDiff(_ options: BenchOptions, _ table: Table) {
    let scale = options.quick ? 10 : 1
    for (count, limit) in [(10_000 / scale, 0.6e-3), (50_000 / scale, 3.5e-3)] {
      let ids = IDKind.uuid.make(count, seed: 1)
      let build = measure(options) { makeSnapshot([("s", ids)]) }
      let dictionary = measure(options) { dictionaryInsert(ids) }
      let ratioTarget = count == 10_000 / scale ? " and ≤ 0.6×" : ""
      let met =
        build.median <= limit && (ratioTarget.isEmpty || build.median <= 0.6 * dictionary.median)
      row(
        table, "build \(count) UUID ids", build, baseline: "Dictionary insert", dictionary.median,
        target: "≤ \(formatDuration(limit))\(ratioTarget)", met: met)
    }
    let count = 10_000 / scale
    let ids = IDKind.uuid.make(count + count / 2, seed: 2)
    let old = Array(ids[0..<count])
    let new = Array(ids[(count / 2)...])
    let base = makeSnapshot([("s", old)])
    let buildDiff = measure(options) { diff(base, makeSnapshot([("s", new)], sharing: base)) }
    let floor = measure(options) { hashFloor(old, new) }
    row(
      table, "build+diff \(count) UUID, 50% overlap", buildDiff, baseline: "Dictionary old+new",
      floor.median, target: "≤ 1.30 ms", met: buildDiff.median <= 1.3e-3)

    let same = IDKind.uuid.make(count, seed: 3)
    let a = makeSnapshot([("s", same)])
    let b = makeSnapshot([("s", same)], sharing: a)
    let equal = measure(options) { diff(a, b) }
    let bytes = count * MemoryLayout<(Int64, Int64, Int64, Int64, Int64)>.stride
    let left = [UInt8](repeating: 7, count: bytes)
    let right = [UInt8](repeating: 7, count: bytes)
    // The length varies by one byte between runs, so the comparison cannot be hoisted out of the loop.
    var flip = 0
    let compare = measure(options) { () -> Int32 in
      flip &+= 1
      let length = bytes - (flip & 1)
      return left.withUnsafeBytes { l in
        right.withUnsafeBytes { memcmp(l.baseAddress!, $0.baseAddress!, length) }
      }
    }
    row(
      table, "equal content rebuilt \(count): diff", equal, baseline: "memcmp 40 B/item", compare.median,
      target: "≤ 50.00 µs", met: equal.median <= 50e-6)
  }

  // MARK: - Outline

  static func outline(_ options: BenchOptions, _ table: Table) {
    // 100 collapsed folders of 9 expanded subfolders of 10 leaves: 10,000 nodes, 100 rows.
    let folders = options.quick ? 10 : 100
    let make = { makeOutline(folders: folders, subfolders: 9, leaves: 10) }
    let nodes = make().numberOfItems(includingHidden: true)
    let changeset = measure(options, setup: make) { snapshot in
      try! snapshot.applyAndDiff([.expandAll(section: nil)])
    }
    let rowsOnly = measure(options, setup: make) { snapshot in try! snapshot.expandAll() }
    row(
      table, "expandAll changeset, \(nodes)-node outline", changeset, baseline: "rows-only expandAll",
      rowsOnly.median, target: "≤ 3× baseline", met: changeset.median <= 3 * rowsOnly.median)
    let expandedOutline = { () -> ListSnapshot in
      var snapshot = make()
      try! snapshot.expandAll()
      return snapshot
    }
    let collapse = measure(options, setup: expandedOutline) { snapshot in
      try! snapshot.applyAndDiff([.collapseAll(section: nil)])
    }
    let collapseRows = measure(options, setup: expandedOutline) { snapshot in try! snapshot.collapseAll() }
    row(
      table, "collapseAll changeset, \(nodes)-node outline", collapse, baseline: "rows-only collapseAll",
      collapseRows.median, target: "≤ 3× baseline", met: collapse.median <= 3 * collapseRows.median)
  }

  // MARK: - Single-item edits of a 1,000,000-item list

  /// The five single-item edits on items `i0…i(n-1)` of one section `s`.
  static func singleEdits(_ n: Int) -> [(String, ListEdit)] {
    let mid = n / 2
    return [
      ("append", .appendItems([ListItem("new-a", payload: ItemPayload(text: "new"))], section: "s")),
      ("insert", .insertItemsBefore([ListItem("new-i", payload: ItemPayload(text: "new"))], item: "i\(mid)")),
      ("delete", .deleteItems(["i\(mid + 1)"])),
      ("move", .moveItemAfter("i10", item: "i\(n - 10)")),
      ("update", .setPayload(item: "i\(mid)", payload: ItemPayload(text: "changed"))),
    ]
  }

  static func flatSnapshot(_ n: Int) -> ListSnapshot {
    var snapshot = ListSnapshot()
    try! snapshot.appendSections(["s"])
    try! snapshot.appendItems(
      (0..<n).map { ListItem("i\($0)", payload: ItemPayload(text: "Item i\($0)")) }, toSection: "s")
    return snapshot
  }

  /// A new version by one edit, with its changeset, the old version kept (as a list keeps its history).
  static func editTiming(_ options: BenchOptions, _ base: ListSnapshot, _ edit: ListEdit) -> Timing {
    var runOptions = options
    if base.numberOfItems(includingHidden: true) > 100_000 {
      runOptions.runs = min(options.runs, 9)
      runOptions.warmup = 1
    }
    // Each run derives a new version from `base`, which stays alive: the edit pays for what a
    // version shares with the one before it (today: copying the section it touches).
    return measure(runOptions, setup: { base }) { next in try! next.applyAndDiff([edit]) }
  }

  static func modelEdits(_ options: BenchOptions, _ table: Table) {
    let big = options.quick ? 100_000 : 1_000_000
    let large = flatSnapshot(big)
    let small = flatSnapshot(1_000)
    for ((name, edit), (_, smallEdit)) in zip(singleEdits(big), singleEdits(1_000)) {
      let timing = editTiming(options, large, edit)
      let baseline = editTiming(options, small, smallEdit)
      row(
        table, "model: \(name) 1 item of \(big / 1000)k (new version)", timing,
        baseline: "same on 1k items", baseline.median, target: "≤ 50.00 µs", met: timing.median <= 50e-6)
      // Where the time goes: the new version alone, and the diff of the two.
      var quick = options
      quick.runs = min(options.runs, 9)
      quick.warmup = 1
      let apply = measure(quick, setup: { large }) { next in try! next.apply(edit) }
      var edited = large
      try! edited.apply(edit)
      let diffOnly = measure(quick) { diff(large, edited) }
      table.printRow([
        "  of which the new version (copy + edit)", formatDuration(apply.median), formatDuration(apply.p90),
        "",
        "", "",
      ])
      table.printRow([
        "  of which the diff", formatDuration(diffOnly.median), formatDuration(diffOnly.p90), "", "", "",
      ])
    }
  }

  // MARK: - Retained versions

  /// RSS of versions of a 1,000,000-item list, each a single-item update of the one before, all
  /// kept; extrapolated to 1,000 versions when fewer fit (stopping at 4 GB of growth).
  static func versions(_ options: BenchOptions, _ table: Table) {
    let big = options.quick ? 100_000 : 1_000_000
    // Freed memory goes back to the system before each reading, so neither figure counts
    // what building the list left behind (and later versions would silently reuse).
    MemoryTrim.now()
    let before = residentSetSize(of: "self")
    var history: [ListSnapshot] = [flatSnapshot(big)]
    MemoryTrim.now()
    let one = residentSetSize(of: "self") - before
    var count = 1
    let start = now()
    while count < 1_000 {
      var next = history[history.count - 1]
      try! next.setPayload(ItemPayload(text: "v\(count)"), forItem: "i\((count * 7919) % big)")
      history.append(next)
      count += 1
      if residentSetSize(of: "self") - before > 4 << 30 { break }
    }
    let elapsed = now() - start
    MemoryTrim.now()
    let total = residentSetSize(of: "self") - before
    let perVersion = Double(total - one) / Double(count - 1)
    let thousand = Double(one) + perVersion * 999
    let note = count < 1_000 ? " (\(count) kept, extrapolated)" : ""
    table.printRow([
      "1,000 versions of \(big / 1000)k, 1-item edits\(note)", String(format: "%.0f MB", thousand / 1e6),
      "", String(format: "one version %.0f MB", Double(one) / 1e6), formatRatio(thousand / Double(one)),
      (thousand <= 2 * Double(one) ? "✓ " : "✗ ") + "≤ 2× one version",
    ])
    print(
      String(
        format: "    (%.0f B per extra version; %d versions made in %@)", perVersion, count,
        formatDuration(elapsed)))
    blackHole(history)
  }
}
