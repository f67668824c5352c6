// The `scale` suite's end-to-end figures: the release listd replacing, editing and holding big lists.
import JSONRPC
import ListModel

enum ScaleDaemonBenchmarks {
  /// One group of the daemon rows run alone.
  enum Group { case edits, rss }

  /// The daemon rows, or `only` one group: the single-item edits, or the RSS rows (the create's
  /// peak and settled figures, without the minutes of replaces and edits before them).
  static func run(_ options: BenchOptions, _ table: Table, only: Group? = nil) {
    guard let daemon = locateDaemon() else {
      print("    (no release listd next to this executable: swift build -c release; daemon rows skipped)")
      return
    }
    signal(SIGPIPE, SIG_IGN)
    switch only {
    case .edits: edits(daemon, options, table)
    case .rss: memory(daemon, options, table)
    case nil:
      replaces(daemon, options, table)
      edits(daemon, options, table)
      memory(daemon, options, table)
    }
  }

  // MARK: - list/replace

  static func replaces(_ path: String, _ options: BenchOptions, _ table: Table) {
    let directory = NSTemporaryDirectory() + "/listd-bench-scale-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o700)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let socket = directory + "/listd.sock"
    let child = try! ChildProcess(path, ["--log-level", "error", "--listen", socket])
    defer { child.stop() }
    child.connection.initialize(name: "bench-scale")
    while !FileManager.default.fileExists(atPath: socket) { usleep(1_000) }
    let small = options.quick ? 2_000 : 10_000
    let large = options.quick ? 20_000 : 100_000
    for items in [small, large] {
      let result = DaemonBenchmarks.replaceCase(
        items: items, subscribers: 1, owner: child.connection, daemonPID: "\(child.pid)", socket: socket,
        runs: items == large ? options.runs : max(options.runs, 30), warmup: options.warmup, options)
      let endToEnd = result.endToEnd
      let model = result.model.median
      let met =
        items == small ? endToEnd.median <= 2.5e-3 && endToEnd.median <= 2 * model : endToEnd.median <= 30e-3
      ScaleBenchmarks.row(
        table, "daemon list/replace \(items / 1000)k, 20% churn", endToEnd, baseline: "model build+diff",
        model,
        target: items == small ? "≤ 2.50 ms and ≤ 2×" : "≤ 30.00 ms", met: met)
    }
  }

  // MARK: - Single-item edits end to end

  /// Each single-item edit as `list/edit` edits JSON, with the edits that undo it, on a list of
  /// one section `s0` with items `i0…i(n-1)` (``BenchContent``).
  static func editPairs(_ n: Int) -> [(String, String, String)] {
    let mid = n / 2
    return [
      (
        "append", #"{"op":"appendItems","section":"s0","items":[{"id":"new-a","text":"new"}]}"#,
        #"{"op":"deleteItems","items":["new-a"]}"#
      ),
      (
        "insert", #"{"op":"insertItems","before":"i\#(mid)","items":[{"id":"new-i","text":"new"}]}"#,
        #"{"op":"deleteItems","items":["new-i"]}"#
      ),
      (
        "delete", #"{"op":"deleteItems","items":["i\#(mid + 1)"]}"#,
        #"{"op":"insertItems","before":"i\#(mid + 2)","items":[{"id":"i\#(mid + 1)","text":"Item i\#(mid + 1)"}]}"#
      ),
      (
        "move", #"{"op":"moveItem","item":"i10","after":"i\#(n - 10)"}"#,
        #"{"op":"moveItem","item":"i10","before":"i11"}"#
      ),
      (
        "update", #"{"op":"updateItems","items":[{"id":"i\#(mid)","text":"changed"}]}"#,
        #"{"op":"updateItems","items":[{"id":"i\#(mid)","text":"Item i\#(mid)"}]}"#
      ),
    ]
  }

  static func editFrame(list: String, id: Int, _ edit: String) -> [UInt8] {
    let body =
      #"{"jsonrpc":"2.0","id":\#(id),"method":"list/edit","params":{"list":"\#(list)","edits":[\#(edit)]}}"#
    return FrameWriter().frame(Array(body.utf8))
  }

  /// Request written to answer read of one edit (its undo is sent after, untimed).
  static func timeEdit(_ connection: RawConnection, _ frame: [UInt8], undo back: [UInt8]) -> Double {
    let start = now()
    connection.write(frame)
    let answer = connection.readResponse()
    let elapsed = now() - start
    precondition(
      !String(decoding: answer, as: UTF8.self).contains(#""error""#),
      "edit failed: \(String(decoding: answer, as: UTF8.self))")
    connection.write(back)
    _ = connection.readResponse()
    return elapsed
  }

  /// A daemon holding a `big`-item list "big" and a 1,000-item list "small" (one section each).
  static func editDaemon(_ path: String, big: Int) -> ChildProcess {
    let child = try! ChildProcess(path, ["--log-level", "error"])
    let owner = child.connection
    owner.initialize(name: "bench-scale-edits")
    owner.write(BenchContent(items: big, sectionCount: 1).requestFrame("list/create", list: "big", id: 20))
    _ = owner.readResponse()
    owner.write(
      BenchContent(items: 1_000, sectionCount: 1).requestFrame("list/create", list: "small", id: 21))
    _ = owner.readResponse()
    return child
  }

  /// Single-item edits of the big list and of the 1,000-item one, interleaved run by run (each
  /// run edits the big list, then the small one, each undone untimed), so load on a shared
  /// machine falls on both alike. With `LISTD_BENCH_BASELINE=path/to/listd` a second daemon
  /// (say, a baseline build) holding the same lists takes its turn in every run too: absolute
  /// times side by side, but each daemon's 1,000,000-item edits then find the caches filled by
  /// the other's, which inflates both ratios; judge the ratio from a run without it.
  static func edits(_ path: String, _ options: BenchOptions, _ table: Table) {
    let big = options.quick ? 100_000 : 1_000_000
    var daemons = [("", editDaemon(path, big: big))]
    if let baseline = ProcessInfo.processInfo.environment["LISTD_BENCH_BASELINE"] {
      daemons.append(("baseline ", editDaemon(baseline, big: big)))
    }
    defer { for (_, child) in daemons { child.stop() } }
    let runs = max(options.runs, 15)
    let pairs = Array(zip(editPairs(big), editPairs(1_000)))
    // samples[daemon][edit] = (big, small)
    var samples = Array(
      repeating: Array(repeating: ([Double](), [Double]()), count: pairs.count), count: daemons.count)
    for run in 0..<(options.warmup + runs) {
      for (e, ((_, edit, undo), (_, smallEdit, smallUndo))) in pairs.enumerated() {
        for (d, (_, child)) in daemons.enumerated() {
          let owner = child.connection
          let large = timeEdit(
            owner, editFrame(list: "big", id: 31, edit), undo: editFrame(list: "big", id: 32, undo))
          let small = timeEdit(
            owner, editFrame(list: "small", id: 33, smallEdit),
            undo: editFrame(list: "small", id: 34, smallUndo))
          if run >= options.warmup {
            samples[d][e].0.append(large)
            samples[d][e].1.append(small)
          }
        }
      }
    }
    for (d, (label, _)) in daemons.enumerated() {
      for (e, ((name, _, _), _)) in pairs.enumerated() {
        let timing = Timing(samples: samples[d][e].0)
        let baseline = Timing(samples: samples[d][e].1)
        ScaleBenchmarks.row(
          table, "\(label)daemon: \(name) 1 item of \(big / 1000)k, end to end", timing,
          baseline: "same on 1k items", baseline.median, target: "≤ 300.00 µs", met: timing.median <= 300e-6)
      }
      let all = Timing(samples: samples[d].flatMap(\.0))
      let allSmall = Timing(samples: samples[d].flatMap(\.1))
      ScaleBenchmarks.row(
        table, "\(label)daemon: any 1 item of \(big / 1000)k, interleaved", all, baseline: "same on 1k items",
        allSmall.median, target: "≤ 1.3× 1k", met: all.median <= 1.3 * allSmall.median)
    }
  }

  // MARK: - RSS

  /// Daemon RSS per item holding 1,000,000 items, and the peak while creating them, vs the bare
  /// model in this process.
  static func memory(_ path: String, _ options: BenchOptions, _ table: Table) {
    let count = options.quick ? 200_000 : 1_000_000
    let content = BenchContent(items: count, sectionCount: 10)
    let frame = content.requestFrame("list/create", list: "big", id: 20)
    let selfBefore = residentSetSize(of: "self")
    var model: ListSnapshot? = content.snapshot()
    let selfAfter = residentSetSize(of: "self")
    blackHole(model)
    model = nil

    let child = try! ChildProcess(path, ["--log-level", "error"])
    child.connection.initialize(name: "bench-scale-rss")
    child.connection.call(
      "list/create", ["list": "warm", "content": ["sections": [["id": "s", "items": [["id": "x"]]]]]])
    usleep(100_000)
    let before = child.residentBytes
    child.connection.write(frame)
    let answer = child.connection.readResponse()
    usleep(300_000)
    let after = child.residentBytes
    let peak = peakResidentSetSize(of: "\(child.pid)")
    child.stop()
    let perItem = Double(after - before) / Double(count)
    let modelPerItem = Double(selfAfter - selfBefore) / Double(count)
    table.printRow([
      "daemon RSS per item, \(count / 1000)k items", String(format: "%.0f B", perItem), "",
      String(format: "model in-process %.0f B", modelPerItem), formatRatio(perItem / modelPerItem),
      (perItem <= 150 ? "✓ " : "✗ ") + "≤ 150 B",
    ])
    let peakRatio = Double(peak - before) / Double(after - before)
    table.printRow([
      "daemon create \(count / 1000)k: peak RSS", String(format: "%.0f MB", Double(peak) / 1e6), "",
      String(format: "settled %.0f MB", Double(after) / 1e6), formatRatio(Double(peak) / Double(after)),
      (peakRatio <= 1.5 ? "✓ " : "✗ ") + "≤ 1.5× settled",
    ])
    print(String(format: "    (create answer %.1f MB)", Double(answer.count) / 1e6))
  }
}
