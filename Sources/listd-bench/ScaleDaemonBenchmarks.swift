// The `scale` suite's end-to-end figures: the release listd replacing, editing and holding big lists.
import JSONRPC
import ListModel

enum ScaleDaemonBenchmarks {
  /// `rssOnly`: the RSS rows alone (the create's peak and settled figures, without the minutes
  /// of replaces and edits before them).
  static func run(_ options: BenchOptions, _ table: Table, rssOnly: Bool = false) {
    guard let daemon = locateDaemon() else {
      print("    (no release listd next to this executable: swift build -c release; daemon rows skipped)")
      return
    }
    signal(SIGPIPE, SIG_IGN)
    if !rssOnly {
      replaces(daemon, options, table)
      edits(daemon, options, table)
    }
    memory(daemon, options, table)
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

  /// Request written to answer read of each edit (the undo is sent after, untimed).
  static func editTiming(
    _ connection: RawConnection, list: String, _ edit: String, _ undo: String, runs: Int, warmup: Int
  )
    -> Timing
  {
    let frame = editFrame(list: list, id: 31, edit)
    let back = editFrame(list: list, id: 32, undo)
    var samples: [Double] = []
    for run in 0..<(warmup + runs) {
      let start = now()
      connection.write(frame)
      let answer = connection.readResponse()
      let elapsed = now() - start
      precondition(
        !String(decoding: answer, as: UTF8.self).contains(#""error""#),
        "edit failed: \(String(decoding: answer, as: UTF8.self))")
      connection.write(back)
      _ = connection.readResponse()
      if run >= warmup { samples.append(elapsed) }
    }
    return Timing(samples: samples)
  }

  static func edits(_ path: String, _ options: BenchOptions, _ table: Table) {
    let big = options.quick ? 100_000 : 1_000_000
    let child = try! ChildProcess(path, ["--log-level", "error"])
    defer { child.stop() }
    let owner = child.connection
    owner.initialize(name: "bench-scale-edits")
    owner.write(BenchContent(items: big, sectionCount: 1).requestFrame("list/create", list: "big", id: 20))
    _ = owner.readResponse()
    owner.write(
      BenchContent(items: 1_000, sectionCount: 1).requestFrame("list/create", list: "small", id: 21))
    _ = owner.readResponse()
    let runs = max(options.runs, 15)
    for ((name, edit, undo), (_, smallEdit, smallUndo)) in zip(editPairs(big), editPairs(1_000)) {
      let timing = editTiming(owner, list: "big", edit, undo, runs: runs, warmup: options.warmup)
      let baseline = editTiming(
        owner, list: "small", smallEdit, smallUndo, runs: runs, warmup: options.warmup)
      ScaleBenchmarks.row(
        table, "daemon: \(name) 1 item of \(big / 1000)k, end to end", timing, baseline: "same on 1k items",
        baseline.median, target: "≤ 300.00 µs", met: timing.median <= 300e-6)
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
