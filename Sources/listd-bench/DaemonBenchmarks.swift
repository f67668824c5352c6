// The `daemon` suite: the release listd measured end to end over pipes and sockets, each figure against a same-run baseline.
import Dispatch
import JSONRPC
import ListModel

enum DaemonBenchmarks {
  /// Rows of the summary, printed as each case finishes.
  static let table = LazyTable()

  static func run(_ options: BenchOptions) {
    guard let daemon = locateDaemon() else {
      let message = """
        listd-bench daemon: no release listd next to this executable.
        Build it first:  swift build -c release   (then: swift run -c release listd-bench daemon)

        """
      FileHandle.standardError.write(Data(message.utf8))
      exit(1)
    }
    signal(SIGPIPE, SIG_IGN)
    printHeading("daemon — \(daemon)", options)
    print(
      """
      Latencies: p50/p90/p99 of every sample; throughput: median and p90 (slower) of runs.
      ratio = figure ÷ baseline (both measured in this run); 'exp' says whether the expectation holds.

      """)
    // LISTD_BENCH_ONLY=memory|queries|replace|expand|state|connections|lists runs one group (for a profiler).
    let only = ProcessInfo.processInfo.environment["LISTD_BENCH_ONLY"]
    if only == nil || only == "memory" { memory(daemon, options) }
    if only == nil || only == "queries" { smallQueries(daemon, options) }
    if only == nil || only == "replace" { replaces(daemon, options) }
    if only == nil || only == "expand" { expandBytes(daemon, options) }
    if only == nil || only == "state" { durability(daemon, options) }
    if only == nil || only == "connections" { ConnectionBenchmarks.connections(daemon, options) }
    if only == nil || only == "lists" { ConnectionBenchmarks.manyLists(daemon, options) }
  }

  // MARK: - RSS

  /// Daemon RSS holding 1,000,000 items (one list/create) vs the bare model in this process.
  static func memory(_ path: String, _ options: BenchOptions) {
    let count = options.quick ? 200_000 : 1_000_000
    let content = BenchContent(items: count, sectionCount: 10)
    let frame = content.requestFrame("list/create", list: "big", id: 20)

    let selfBefore = residentSetSize(of: "self")
    var model: ListSnapshot? = content.snapshot()
    let selfAfter = residentSetSize(of: "self")
    blackHole(model)
    model = nil

    let child = try! ChildProcess(path, ["--log-level", "error"])
    child.connection.initialize(name: "bench-rss")
    child.connection.call(
      "list/create", ["list": "warm", "content": ["sections": [["id": "s", "items": [["id": "x"]]]]]])
    usleep(100_000)
    let before = child.residentBytes
    let start = now()
    child.connection.write(frame)
    _ = child.connection.readResponse()
    let load = now() - start
    usleep(300_000)
    let after = child.residentBytes
    child.stop()

    let perItem = Double(after - before) / Double(count)
    let modelPerItem = Double(selfAfter - selfBefore) / Double(count)
    table.header()
    table.row(
      "daemon RSS per item, \(count / 1000)k items", String(format: "%.0f B", perItem), "", "",
      String(format: "model in-process %.0f B", modelPerItem), formatRatio(perItem / modelPerItem),
      check(perItem <= 150, "≤ 150 B"))
    print(
      String(
        format: "    (daemon RSS %.0f MB → %.0f MB; list/create of %d items took %@ end to end)",
        Double(before) / 1e6, Double(after) / 1e6, count, formatDuration(load)))
  }

  // MARK: - Small queries

  /// Sequential round trips and pipelined throughput of `query/counts` on a 100-item list, vs the
  /// same frames echoed by `cat` over the same kind of pipes.
  static func smallQueries(_ path: String, _ options: BenchOptions) {
    let perRun = options.quick ? 1_000 : 2_000
    let frame = requestFrame("query/counts", ["list": "q"], id: 7)

    let echo = try! ChildProcess("/bin/cat")
    let echoTiming = roundTrips(echo.connection, frame: frame, perRun: perRun, options, echo: true)

    let child = try! ChildProcess(path, ["--log-level", "error"])
    let owner = child.connection
    owner.initialize(name: "bench-queries")
    owner.call(
      "list/create",
      ["list": "q", "content": BenchContentJSON.small(items: 100)])
    let answer = owner.call("query/counts", ["list": "q"])
    precondition(answer["rows"] == 100, "unexpected query/counts answer \(answer)")
    let timing = roundTrips(owner, frame: frame, perRun: perRun, options, echo: false)

    table.row(
      "small query round trip (query/counts)", formatDuration(timing.median), formatDuration(timing.p90),
      formatDuration(timing.percentile(0.99)), "pipe echo (cat) " + formatDuration(echoTiming.median),
      formatRatio(timing.median / echoTiming.median), check(timing.median < 20e-6, "< 20 µs"))
    table.row(
      "  baseline: pipe echo round trip (cat)", formatDuration(echoTiming.median),
      formatDuration(echoTiming.p90),
      formatDuration(echoTiming.percentile(0.99)), "", "", "")

    let count = options.quick ? 20_000 : 100_000
    let runs = options.quick ? 3 : 7
    let echoRate = pipelined(echo.connection, count: count, runs: runs, echo: true)
    let rate = pipelined(owner, count: count, runs: runs, echo: false)
    table.row(
      "pipelined small queries (\(count / 1000)k per run)", formatRate(rate.median), formatRate(rate.p90), "",
      "pipe echo (cat) " + formatRate(echoRate.median), formatRatio(rate.median / echoRate.median),
      check(rate.median >= 100_000, "≥ 100k/s"))
    echo.stop()
    child.stop()
  }

  /// Per-request round-trip samples over `options.runs` runs of `perRun` requests.
  static func roundTrips(
    _ connection: RawConnection, frame: [UInt8], perRun: Int, _ options: BenchOptions, echo: Bool
  ) -> Timing {
    var samples: [Double] = []
    samples.reserveCapacity(options.runs * perRun)
    for run in 0..<(options.warmup + options.runs) {
      for _ in 0..<perRun {
        let start = now()
        connection.write(frame)
        _ = echo ? connection.readFrame() : connection.readResponse()
        let elapsed = now() - start
        if run >= options.warmup { samples.append(elapsed) }
      }
    }
    return Timing(samples: samples)
  }

  /// Requests per second, writing `count` distinct requests from another thread while reading
  /// the answers; median and p90 (the slower runs) of `runs` runs after one warm-up.
  static func pipelined(_ connection: RawConnection, count: Int, runs: Int, echo: Bool) -> (
    median: Double, p90: Double
  ) {
    var chunks: [[UInt8]] = []
    var chunk: [UInt8] = []
    for id in 0..<count {
      chunk += requestFrame("query/counts", ["list": "q"], id: 1000 + id)
      if chunk.count > 1 << 16 {
        chunks.append(chunk)
        chunk = []
      }
    }
    if !chunk.isEmpty { chunks.append(chunk) }
    let payload = chunks
    var times: [Double] = []
    for run in 0...runs {
      let start = now()
      let writer = Thread { for chunk in payload { connection.write(chunk) } }
      writer.start()
      for _ in 0..<count { _ = echo ? connection.readFrame() : connection.readResponse() }
      if run > 0 { times.append(now() - start) }
    }
    let timing = Timing(samples: times)
    return (Double(count) / timing.median, Double(count) / timing.p90)
  }

  // MARK: - Replace with churn

  /// `list/replace` of a 10k and a 100k list with 20% churn: end to end at the owner, until a
  /// subscriber has the notification, and fan-out to 8 subscribers — vs the model's build+diff.
  static func replaces(_ path: String, _ options: BenchOptions) {
    let directory = NSTemporaryDirectory() + "/listd-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o700)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let socket = directory + "/listd.sock"
    let child = try! ChildProcess(path, ["--log-level", "error", "--listen", socket])
    defer { child.stop() }
    child.connection.initialize(name: "bench-owner")
    while !FileManager.default.fileExists(atPath: socket) { usleep(1_000) }

    let small = options.quick ? 2_000 : 10_000
    let large = options.quick ? 20_000 : 100_000
    let runs = max(options.runs, options.quick ? 5 : 30)
    var tenK: ReplaceResult?
    var cases = [(small, 1, 5e-3), (large, 1, 60e-3), (small, 8, 5e-3), (small, 64, 5e-3)]
    // LISTD_BENCH_REPLACE=N: only the single-subscriber case of N items (for a profiler).
    if let n = ProcessInfo.processInfo.environment["LISTD_BENCH_REPLACE"].flatMap(Int.init) {
      cases = [(n, 1, .nan)]
    }
    for (items, subscribers, expectation) in cases {
      let result = replaceCase(
        items: items, subscribers: subscribers, owner: child.connection, daemonPID: "\(child.pid)",
        socket: socket,
        runs: items == large ? options.runs : runs, warmup: options.warmup, options)
      let label = "\(items / 1000)k"
      if subscribers == 1 {
        if items == small {
          tenK = result
          let preview = previewCase(items: items, owner: child.connection, runs: runs, warmup: options.warmup)
          table.row(
            "diff/preview \(label), 20% churn (nothing committed)", formatDuration(preview.median),
            formatDuration(preview.p90), formatDuration(preview.percentile(0.99)),
            "list/replace " + formatDuration(result.endToEnd.median),
            formatRatio(preview.median / result.endToEnd.median),
            check(preview.median <= result.endToEnd.median, "≤ 1.0× replace"))
        }
        table.row(
          "replace \(label), 20% churn: end to end", formatDuration(result.endToEnd.median),
          formatDuration(result.endToEnd.p90), formatDuration(result.endToEnd.percentile(0.99)),
          "model build+diff " + formatDuration(result.model.median),
          formatRatio(result.endToEnd.median / result.model.median),
          check(result.endToEnd.median < expectation, "< " + formatDuration(expectation)))
        table.row(
          "replace \(label): daemon CPU per replace", formatDuration(result.daemonCPU), "", "",
          "model build+diff " + formatDuration(result.model.median),
          formatRatio(result.daemonCPU / result.model.median), "")
        table.row(
          "replace \(label): 2nd client has didChange", formatDuration(result.firstNotified.median),
          formatDuration(result.firstNotified.p90), formatDuration(result.firstNotified.percentile(0.99)),
          "model build+diff " + formatDuration(result.model.median),
          formatRatio(result.firstNotified.median / result.model.median), "")
      } else {
        let single = tenK?.firstNotified.median ?? .nan
        table.row(
          "fan-out \(label) to \(subscribers) subscribers: last has it",
          formatDuration(result.lastNotified.median),
          formatDuration(result.lastNotified.p90), formatDuration(result.lastNotified.percentile(0.99)),
          "1 subscriber " + formatDuration(single), formatRatio(result.lastNotified.median / single), "")
        let ownerRatio = result.endToEnd.median / (tenK?.endToEnd.median ?? .nan)
        table.row(
          "fan-out \(label) to \(subscribers): owner's end to end", formatDuration(result.endToEnd.median),
          formatDuration(result.endToEnd.p90), formatDuration(result.endToEnd.percentile(0.99)),
          "1 subscriber " + formatDuration(tenK?.endToEnd.median ?? .nan), formatRatio(ownerRatio),
          subscribers >= 64 ? check(ownerRatio <= 1.5, "≤ 1.5× 1 sub") : "")
      }
    }
  }

  /// `diff/preview` of the same 20%-churn content as the replace case: the preview decodes,
  /// builds and diffs like `list/replace` but commits and notifies nothing (target ≤ 1.0×).
  static func previewCase(items: Int, owner: RawConnection, runs: Int, warmup: Int) -> Timing {
    let list = "preview\(items)"
    let original = BenchContent(items: items, sectionCount: 10)
    let churned = original.churned(0.2, seed: UInt64(items))
    owner.write(original.requestFrame("list/create", list: list, id: 20))
    _ = owner.readResponse()
    let frame = churned.requestFrame("diff/preview", list: list, id: 21)
    var samples: [Double] = []
    for run in 0..<(warmup + runs) {
      let start = now()
      owner.write(frame)
      _ = owner.readResponse()
      if run >= warmup { samples.append(now() - start) }
    }
    owner.call("list/dispose", ["list": .string(list)], id: 22)
    return Timing(samples: samples)
  }

  struct ReplaceResult {
    var endToEnd: Timing
    var firstNotified: Timing
    var lastNotified: Timing
    var model: Timing
    /// Daemon CPU time per replace (all its threads), from the OS (see cpuSeconds).
    var daemonCPU: Double
  }

  /// Replaces alternately with a churned copy and the original (each step 20% churn).
  static func replaceCase(
    items: Int, subscribers count: Int, owner: RawConnection, daemonPID: String, socket: String, runs: Int,
    warmup: Int, _ options: BenchOptions
  ) -> ReplaceResult {
    let list = "r\(items)-\(count)"
    let original = BenchContent(items: items, sectionCount: 10)
    let churned = original.churned(0.2, seed: UInt64(items))
    owner.write(original.requestFrame("list/create", list: list, id: 10))
    _ = owner.readResponse()
    let subscribers = (0..<count).map { try! Subscriber(socket: socket, list: list, name: "bench-sub-\($0)") }
    for subscriber in subscribers { subscriber.start() }
    let frames = [
      churned.requestFrame("list/replace", list: list, id: 11),
      original.requestFrame("list/replace", list: list, id: 12),
    ]
    var endToEnd: [Double] = []
    var first: [Double] = []
    var last: [Double] = []
    var cpuStart = 0.0
    for run in 0..<(warmup + runs) {
      if run == warmup { cpuStart = cpuSeconds(of: daemonPID) }
      let start = now()
      owner.write(frames[run % 2])
      _ = owner.readResponse()
      let end = now()
      let arrivals = subscribers.map { $0.arrival(run + 1) }
      if run >= warmup {
        endToEnd.append(end - start)
        first.append(arrivals[0] - start)
        last.append(arrivals.max()! - start)
      }
    }
    let cpu = (cpuSeconds(of: daemonPID) - cpuStart) / Double(runs)
    for subscriber in subscribers { subscriber.close() }
    owner.call("list/dispose", ["list": .string(list)], id: 13)

    let old = original.snapshot()
    let model = measure(options) { diff(old, churned.snapshot(sharingWith: old)) }
    return ReplaceResult(
      endToEnd: Timing(samples: endToEnd), firstNotified: Timing(samples: first),
      lastNotified: Timing(samples: last),
      model: model, daemonCPU: cpu)
  }

  // MARK: - Formatting

  static func formatRate(_ perSecond: Double) -> String {
    perSecond >= 1e6 ? String(format: "%.2fM/s", perSecond / 1e6) : String(format: "%.0fk/s", perSecond / 1e3)
  }

  static func check(_ holds: Bool, _ expectation: String) -> String {
    (holds ? "✓ " : "✗ ") + expectation
  }
}

/// The summary table, created when the first row is printed.
final class LazyTable: @unchecked Sendable {
  // `@unchecked Sendable`: used from the main thread only.
  private var table: Table?

  func header() {
    if table == nil {
      table = Table([
        ("case", 44), ("p50", 10), ("p90", 10), ("p99", 10), ("baseline (same run)", 30), ("ratio", 8),
        ("exp", 12),
      ])
    }
  }

  func row(_ cells: String...) {
    header()
    table!.printRow(cells)
  }
}

/// Small wire contents built as JSONValue.
enum BenchContentJSON {
  static func small(items: Int) -> JSONValue {
    [
      "sections": [
        [
          "id": "s",
          "items": .array((0..<items).map { ["id": .string("q\($0)"), "text": .string("Item \($0)")] }),
        ]
      ]
    ]
  }
}
