// The inspector rows of the `model` suite: explaining a diff, next to the diff alone.
import ListModel

enum InspectorBenchmarks {
  /// Explain on a 10k moderate churn (target ≤ 1.3× the diff alone) and on a 100k-row reveal,
  /// each as a ratio to the same diff without the explanation, measured in the same run.
  static func run(_ options: BenchOptions, _ scale: Int) {
    print("\n-- inspector (short ids) --")
    let table = Table([("case", 46), ("diff", 10), ("+ explain", 10), ("ratio", 8), ("causes", 8)])
    let size = 10_000 / scale
    let base = IDKind.short.make(size, seed: 5)
    let changed = churned(base, deletes: 0.2, inserts: 0.2, moves: 0.2, kind: .short, seed: 6)
    let a = makeSnapshot([("s", base)])
    var b = makeSnapshot([("s", changed)], sharing: a)
    // A fifth of the kept rows also get a new payload, so reconfigures (and their fields) count.
    for (index, id) in changed.enumerated() where index % 5 == 0 && a.contains(item: id) {
      try! b.setPayload(ItemPayload(text: "v2 \(index)"), forItem: id)
    }
    row(options, table, "moderate churn 20% \(size) + 20% payloads", old: a, new: b)

    var tree = ListSnapshot()
    try! tree.appendSections([SectionSpec("s")])
    let children = (0..<(100_000 / scale)).map { OutlineNode("c\($0)") }
    try! tree.appendTrees([OutlineNode("root", children: children)], toSection: "s")
    var expanded = tree
    try! expanded.expand(["root"])
    row(options, table, "reveal \(100_000 / scale) rows (one cause)", old: tree, new: expanded)
  }

  static func row(
    _ options: BenchOptions, _ table: Table, _ name: String, old: ListSnapshot, new: ListSnapshot
  ) {
    let plain = measure(options) { diff(old, new) }
    var causes = 0
    let explained = measure(options) { () -> Int in
      let changes = diff(old, new)
      causes = ListSnapshot.explain(changes, from: old, to: new).count
      return causes
    }
    table.printRow([
      name, formatDuration(plain.median), formatDuration(explained.median),
      formatRatio(explained.median / plain.median), "\(causes)",
    ])
  }
}
