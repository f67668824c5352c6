// `listd-bench views`: a live view of 100k items — create, single-item source changes, re-sort — against sorting the same values.
import ListModel
import SeededRandom

enum ViewBenchmarks {
  static func run(_ options: BenchOptions) {
    let count = options.quick ? 10_000 : 100_000
    var random = SplitMix64(seed: 16)
    let words = (0..<count).map { _ in randomWord(&random) }
    var source = ListSnapshot()
    try! source.appendSections(["all"])
    try! source.appendItems(
      (0..<count).map { i in
        ListItem(
          "item\(i)",
          payload: ItemPayload(content: ItemContent(text: words[i], data: ["n": .int(Int64(i % 100))])))
      }, toSection: "all")
    let definition = ViewDefinition(
      filter: ViewFilter(predicates: [
        FieldPredicate(field: .data(["n"]), op: .greaterOrEqual, value: .number(10))
      ]),
      sort: [SortKey(field: .text)])

    printHeading("views (\(count) items; filter data.n ≥ 10 keeps 90%, sort by text)", options)
    let table = Table([("case", 44), ("median", 11), ("p90", 11), ("ratio", 9), ("target", 10)])
    let baseline = measure(options, setup: { words }) { values in values.sorted() }
    table.printRow([
      "baseline: sort the \(count) texts ([String].sorted)", formatDuration(baseline.median),
      formatDuration(baseline.p90), "1.00×", "",
    ])
    let create = measure(options) { ViewEngine(definition: definition, source: source) }
    table.printRow([
      "view/create: filter + sort (engine)", formatDuration(create.median), formatDuration(create.p90),
      formatRatio(create.median / baseline.median), "≤ 3×",
    ])
    let engine = ViewEngine(definition: definition, source: source)
    let materialize = measure(options) { engine.makeSnapshot(selectionMode: .multiple) }
    table.printRow([
      "  + the view's snapshot (model, O(n))", formatDuration(materialize.median),
      formatDuration(materialize.p90), formatRatio(materialize.median / baseline.median), "",
    ])
    let resort = ViewDefinition(
      filter: definition.filter,
      sort: [SortKey(field: .data(["n"]), descending: true), SortKey(field: .text)])
    let redefine = measure(options, setup: { engine }) { engine in engine.redefine(resort) }
    table.printRow([
      "view/update: re-sort by data.n desc, text", formatDuration(redefine.median),
      formatDuration(redefine.p90),
      formatRatio(redefine.median / baseline.median), "",
    ])

    // 1,000 random single-item changes of the source: new text (re-sorts), new n (filters in or out).
    var live = engine
    var view = engine.makeSnapshot(selectionMode: .multiple)
    var engineTimes: [Double] = []
    var snapshotTimes: [Double] = []
    let changes = options.quick ? 200 : 1_000
    for change in 0..<changes {
      let index = random.int(0..<count)
      let id = "item\(index)"
      var payload = source.payload(of: id)!
      if change % 2 == 0 {
        payload.content.text = randomWord(&random)
      } else {
        payload.content.data = ["n": .int(Int64(random.int(0..<100)))]
      }
      try! source.setPayload(payload, forItem: id)
      var changeset = Changeset()
      changeset.itemReconfigures = [.init(section: 0, start: index, rows: [Row(id: id, payload: payload)])]
      // The snapshots replaced are freed after the clock stops: the model's copy-on-write
      // (setPayload copied the shared section) is not the view's work.
      let previousSource = live.source
      let previousView = view
      let start = now()
      let update = live.update(to: source, changeset: changeset)
      let middle = now()
      blackHole(try! live.apply(update, to: &view))
      let end = now()
      blackHole(previousSource)
      blackHole(previousView)
      engineTimes.append(middle - start)
      snapshotTimes.append(end - middle)
    }
    let perChange = Timing(samples: engineTimes)
    let applied = Timing(samples: snapshotTimes)
    let sortPerItem = baseline.median / Double(count)
    table.printRow([
      "\(changes) single-item changes: engine p50", formatDuration(perChange.median), "", "", "≤ 20 µs",
    ])
    table.printRow(["  engine p99", formatDuration(perChange.percentile(0.99)), "", "", ""])
    table.printRow([
      "  per change vs the sort's time per item", "", "", formatRatio(perChange.median / sortPerItem), "",
    ])
    table.printRow(["  + the view's snapshot edits (model) p50", formatDuration(applied.median), "", "", ""])
    table.printRow([
      "  + the view's snapshot edits (model) p99", formatDuration(applied.percentile(0.99)), "", "", "",
    ])
  }

  static func randomWord(_ random: inout SplitMix64) -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    return String((0..<random.int(in: 4...10)).map { _ in letters[random.int(0..<26)] })
  }
}
