// The `daemon` suite's --state cases: the cost of the journal against the same daemon without it, in one run.
import Dispatch
import JSONRPC
import ListModel

extension DaemonBenchmarks {
  /// With and without `--state` (`--sync batch`, and `always` for reference), in the same run:
  /// the 10k churn replace p50, pipelined small edits per second, journal bytes per change, and
  /// the recovery time of a 1,000,000-item list against its `list/create`.
  static func durability(_ path: String, _ options: BenchOptions) {
    let directory = NSTemporaryDirectory() + "/listd-bench-state-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o700)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let items = options.quick ? 2_000 : 10_000
    let runs = max(options.runs, options.quick ? 5 : 30)
    let edits = options.quick ? 5_000 : 20_000

    func daemon(_ state: String?, sync: String = "batch") -> ChildProcess {
      let arguments = ["--log-level", "error"] + (state.map { ["--state", $0, "--sync", sync] } ?? [])
      let child = try! ChildProcess(path, arguments)
      child.connection.initialize(name: "bench-state")
      return child
    }

    // Replace with 20% churn.
    var replace: [String: (p50: Double, bytes: Double)] = [:]
    for (name, sync) in [("memory", nil), ("batch", "batch"), ("always", "always"), ("none", "none")]
      as [(String, String?)]
    {
      let state = sync.map { directory + "/replace-\($0)" }
      let child = daemon(state, sync: sync ?? "batch")
      let original = BenchContent(items: items, sectionCount: 10)
      let churned = original.churned(0.2, seed: UInt64(items))
      child.connection.write(original.requestFrame("list/create", list: "r", id: 10))
      _ = child.connection.readResponse()
      let frames = [
        churned.requestFrame("list/replace", list: "r", id: 11),
        original.requestFrame("list/replace", list: "r", id: 12),
      ]
      let before = state.map(directoryBytes) ?? 0
      var samples: [Double] = []
      for run in 0..<(options.warmup + runs) {
        let start = now()
        child.connection.write(frames[run % 2])
        _ = child.connection.readResponse()
        if run >= options.warmup { samples.append(now() - start) }
      }
      let bytes = Double((state.map(directoryBytes) ?? 0) - before) / Double(options.warmup + runs)
      replace[name] = (Timing(samples: samples).median, bytes)
      child.stop()
    }
    let memory = replace["memory"]!.p50
    let batch = replace["batch"]!
    let always = replace["always"]!
    table.row(
      "replace \(items / 1000)k, 20% churn, --state --sync batch", formatDuration(batch.p50), "", "",
      "no --state " + formatDuration(memory), formatRatio(batch.p50 / memory),
      check(batch.p50 <= 1.3 * memory, "≤ 1.3×"))
    table.row(
      "  … --sync always", formatDuration(always.p50), "", "", "no --state " + formatDuration(memory),
      formatRatio(always.p50 / memory), "")
    let none = replace["none"]!
    table.row(
      "  … --sync none", formatDuration(none.p50), "", "", "no --state " + formatDuration(memory),
      formatRatio(none.p50 / memory), "")
    table.row(
      "  journal bytes per replace", String(format: "%.0f kB", batch.bytes / 1e3), "", "",
      String(
        format: "request %.0f kB",
        Double(
          BenchContent(items: items, sectionCount: 10).requestFrame("list/replace", list: "r", id: 1).count)
          / 1e3),
      "", "")

    // Pipelined small edits.
    var rates: [String: Double] = [:]
    for (name, sync) in [("memory", nil), ("batch", "batch"), ("none", "none")] as [(String, String?)] {
      let child = daemon(sync.map { directory + "/edits-\($0)" }, sync: sync ?? "batch")
      child.connection.call("list/create", ["list": "e", "content": BenchContentJSON.small(items: 100)])
      var times: [Double] = []
      for run in 0...(options.quick ? 3 : 5) {
        var chunk: [UInt8] = []
        for index in 0..<edits {
          let text = JSONValue.string("edit \(run)-\(index)")
          chunk += requestFrame(
            "list/edit",
            [
              "list": "e",
              "edits": [["op": "patchItems", "items": [["id": .string("q\(index % 100)"), "text": text]]]],
            ],
            id: 100 + index)
        }
        let payload = chunk
        let connection = child.connection
        let start = now()
        let writer = Thread { connection.write(payload) }
        writer.start()
        for _ in 0..<edits { _ = connection.readResponse() }
        if run > 0 { times.append(now() - start) }
      }
      rates[name] = Double(edits) / Timing(samples: times).median
      child.stop()
    }
    table.row(
      "pipelined small edits, --state --sync batch", formatRate(rates["batch"]!), "", "",
      "no --state " + formatRate(rates["memory"]!), formatRatio(rates["batch"]! / rates["memory"]!),
      check(rates["batch"]! >= 0.7 * rates["memory"]!, "≥ 0.7×"))
    table.row(
      "  … --sync none", formatRate(rates["none"]!), "", "", "no --state " + formatRate(rates["memory"]!),
      formatRatio(rates["none"]! / rates["memory"]!), "")

    // Recovery of a 1,000,000-item list.
    let count = options.quick ? 100_000 : 1_000_000
    let big = BenchContent(items: count, sectionCount: 10)
    let frame = big.requestFrame("list/create", list: "big", id: 20)
    let state = directory + "/big"
    let creator = daemon(state)
    let createStart = now()
    creator.connection.write(frame)
    _ = creator.connection.readResponse()
    let create = now() - createStart
    creator.stop()
    var recoveries: [Double] = []
    for _ in 0..<(options.quick ? 2 : 3) {
      let start = now()
      let child = daemon(state)
      let info = child.connection.call("list/info", ["list": "big"])
      recoveries.append(now() - start)
      precondition(info["items"] == .int(Int64(count)), "recovered \(info)")
      child.stop()
    }
    let recovery = Timing(samples: recoveries).median
    table.row(
      "recovery of a \(count / 1000)k-item list (start → answer)", formatDuration(recovery), "", "",
      "its list/create " + formatDuration(create), formatRatio(recovery / create),
      check(recovery <= 2, "≤ 2 s"))
    print(
      String(
        format: "    (state directory of the %dk-item list: %.0f MB)", count / 1000,
        Double(directoryBytes(state)) / 1e6))
  }

  /// The bytes of the files in `path`.
  static func directoryBytes(_ path: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.reduce(0) { total, name in
      total + ((try? FileManager.default.attributesOfItem(atPath: path + "/" + name)[.size] as? Int) ?? 0)
    }
  }
}
