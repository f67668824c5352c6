// The daemon suite's connection and many-lists groups: 2,000 idle connections (threads, latency) and 10,000 small lists (time, RSS, list/all).
import Dispatch
import JSONRPC
import ListModel

enum ConnectionBenchmarks {
  static var table: LazyTable { DaemonBenchmarks.table }

  // MARK: - Connections

  /// Threads, descriptors and RSS of the daemon with `sessions` idle socket sessions vs with only
  /// its stdio session, and the stdio session's `query/counts` round trip in both states.
  static func connections(_ path: String, _ options: BenchOptions) {
    let sessions = options.quick ? 500 : 2_000
    let perRun = options.quick ? 500 : 1_000
    let directory = NSTemporaryDirectory() + "/listd-bench-scale-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o700)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let socket = directory + "/listd.sock"
    let child = try! ChildProcess(path, ["--log-level", "error", "--listen", socket])
    defer { child.stop() }
    let owner = child.connection
    owner.initialize(name: "bench-connections")
    owner.call("list/create", ["list": "q", "content": BenchContentJSON.small(items: 100)])
    while !FileManager.default.fileExists(atPath: socket) { usleep(1_000) }
    let pid = "\(child.pid)"
    let frame = requestFrame("query/counts", ["list": "q"], id: 7)

    usleep(200_000)
    let alone = ProcessCounts(pid: pid)
    let aloneTiming = DaemonBenchmarks.roundTrips(owner, frame: frame, perRun: perRun, options, echo: false)

    var idle: [Int32] = []
    let connectStart = now()
    for index in 0..<sessions {
      let fd = try! UnixSocket.connect(to: socket)
      RawConnection(reading: fd, writing: fd).initialize(name: "idle-\(index)")
      idle.append(fd)
    }
    let connectTime = now() - connectStart
    usleep(300_000)
    // Right after the burst, dispatch workers that ran the sessions' `initialized` handlers are
    // still about; idle, they retire within seconds. Idle means once they have.
    let burst = ProcessCounts(pid: pid)
    var crowded = burst
    var settledSince = now()
    let settleDeadline = now() + 30
    while now() - settledSince < 3 && now() < settleDeadline {
      usleep(500_000)
      let counts = ProcessCounts(pid: pid)
      if counts.threads != crowded.threads { settledSince = now() }
      crowded = counts
    }
    let crowdedTiming = DaemonBenchmarks.roundTrips(owner, frame: frame, perRun: perRun, options, echo: false)

    for fd in idle { Platform.close(fd) }
    // Wait (bounded) for the daemon to notice every close.
    let deadline = now() + 10
    var after = ProcessCounts(pid: pid)
    while after.descriptors > alone.descriptors && now() < deadline {
      usleep(50_000)
      after = ProcessCounts(pid: pid)
    }
    usleep(300_000)
    after = ProcessCounts(pid: pid)

    table.row(
      "threads with \(sessions) idle sessions", "\(crowded.threads)", "", "", "1 session: \(alone.threads)",
      formatRatio(Double(crowded.threads) / Double(alone.threads)),
      DaemonBenchmarks.check(crowded.threads < 64, "< 64"))
    table.row(
      "descriptors with \(sessions) idle sessions", "\(crowded.descriptors)", "", "",
      "1 session: \(alone.descriptors)",
      formatRatio(Double(crowded.descriptors) / Double(alone.descriptors)), "")
    let perSession = Double(crowded.resident - alone.resident) / Double(sessions)
    table.row(
      "RSS per idle session", String(format: "%.1f KB", perSession / 1024), "", "",
      String(format: "1 session: RSS %.1f MB", Double(alone.resident) / 1e6), "", "")
    table.row(
      "query/counts with \(sessions) idle sessions", formatDuration(crowdedTiming.median),
      formatDuration(crowdedTiming.p90), formatDuration(crowdedTiming.percentile(0.99)),
      "1 session " + formatDuration(aloneTiming.median),
      formatRatio(crowdedTiming.median / aloneTiming.median),
      DaemonBenchmarks.check(crowdedTiming.median <= aloneTiming.median * 1.1, "≤ 1.1×"))
    table.row(
      "  baseline: query/counts, 1 session", formatDuration(aloneTiming.median),
      formatDuration(aloneTiming.p90),
      formatDuration(aloneTiming.percentile(0.99)), "", "", "")
    print(
      String(
        format:
          "    (%d sessions connected and initialized in %@; %d threads right after, %d once idle; "
          + "after they all closed: %d threads, %d fds, RSS %.1f MB)",
        sessions, formatDuration(connectTime), burst.threads, crowded.threads, after.threads,
        after.descriptors,
        Double(after.resident) / 1e6))
  }

  /// What the OS says about a process: threads, open descriptors, resident bytes.
  struct ProcessCounts {
    var threads: Int
    var descriptors: Int
    var resident: Int

    init(pid: String) {
      threads = threadCount(of: pid)
      descriptors = descriptorCount(of: pid)
      resident = residentSetSize(of: pid)
    }
  }

  // MARK: - Many lists

  /// Creating `lists` lists of 100 items vs 100 lists of as many items in all (both pipelined,
  /// in fresh daemons, below the size that trims memory): total time, and RSS per list beyond
  /// what the items cost — the difference of the two growths over the difference of the list
  /// counts. Then `list/all` with that many lists, whole and one page, vs `query/counts`.
  static func manyLists(_ path: String, _ options: BenchOptions) {
    let lists = options.quick ? 2_000 : 10_000
    let itemsPerList = 100
    let fewLists = 100
    let runs = options.quick ? 1 : 3
    let many = createFrames(lists: lists, items: itemsPerList)
    let few = createFrames(lists: fewLists, items: lists * itemsPerList / fewLists)

    var manyTimes: [Double] = []
    var manyGrowth: [Double] = []
    var fewTimes: [Double] = []
    var fewGrowth: [Double] = []
    var allTiming: Timing?
    var pageTiming: Timing?
    var countsTiming: Timing?
    for run in 0..<runs {
      do {
        let child = try! ChildProcess(path, ["--log-level", "error"])
        let (time, growth) = create(few, in: child)
        fewTimes.append(time)
        fewGrowth.append(growth)
        child.stop()
      }
      let child = try! ChildProcess(path, ["--log-level", "error"])
      let owner = child.connection
      let (time, growth) = create(many, in: child)
      manyTimes.append(time)
      manyGrowth.append(growth)
      if run == runs - 1 {
        let queryRuns = options.quick ? 5 : 20
        countsTiming = DaemonBenchmarks.roundTrips(
          owner, frame: requestFrame("query/counts", ["list": "l0"], id: 7), perRun: 200, options, echo: false
        )
        allTiming = requestTimes(owner, requestFrame("list/all", [:], id: 8), runs: queryRuns)
        let page = requestFrame("list/all", ["offset": .int(Int64(lists / 2)), "limit": 100], id: 9)
        owner.write(page)
        let answer = owner.readResponse()
        if !String(decoding: answer.prefix(200), as: UTF8.self).contains("\"error\"") {
          pageTiming = requestTimes(owner, page, runs: queryRuns * 10)
        }
      }
      child.stop()
    }
    let manyTime = Timing(samples: manyTimes).median
    let fewTime = Timing(samples: fewTimes).median
    let perList =
      (Timing(samples: manyGrowth).median - Timing(samples: fewGrowth).median) / Double(lists - fewLists)
    table.row(
      "create \(lists / 1000)k lists of \(itemsPerList) items", formatDuration(manyTime),
      formatDuration(Timing(samples: manyTimes).p90), "",
      "\(fewLists) lists of \(lists * itemsPerList / fewLists / 1000)k " + formatDuration(fewTime),
      formatRatio(manyTime / fewTime), DaemonBenchmarks.check(manyTime < 2, "< 2 s"))
    table.row(
      "RSS per list beyond its items", String(format: "%.0f B", perList), "", "",
      String(
        format: "%d lists: %.0f B/item", fewLists,
        Timing(samples: fewGrowth).median / Double(lists * itemsPerList)),
      "", DaemonBenchmarks.check(perList < 2048, "< 2 KB"))
    if let allTiming, let countsTiming {
      table.row(
        "list/all, \(lists / 1000)k lists, all of them", formatDuration(allTiming.median),
        formatDuration(allTiming.p90), formatDuration(allTiming.percentile(0.99)),
        "query/counts " + formatDuration(countsTiming.median),
        formatRatio(allTiming.median / countsTiming.median),
        "")
      if let pageTiming {
        table.row(
          "list/all, \(lists / 1000)k lists, page of 100", formatDuration(pageTiming.median),
          formatDuration(pageTiming.p90), formatDuration(pageTiming.percentile(0.99)),
          "query/counts " + formatDuration(countsTiming.median),
          formatRatio(pageTiming.median / countsTiming.median),
          DaemonBenchmarks.check(pageTiming.median < 1e-3, "< 1 ms"))
      } else {
        table.row("list/all, page of 100", "-", "", "", "(no offset/limit paging in this daemon)", "", "")
      }
    }
    print(
      String(
        format: "    (RSS growth: %d lists %.1f MB, %d lists of the same items %.1f MB; medians of %d runs)",
        lists,
        Timing(samples: manyGrowth).median / 1e6, fewLists, Timing(samples: fewGrowth).median / 1e6, runs))
  }

  /// `list/create` frames of `lists` lists `l0`, `l1`, … of `items` items each, in one section.
  static func createFrames(lists: Int, items: Int) -> [[UInt8]] {
    let content = BenchContent(items: items, sectionCount: 1)
    return (0..<lists).map { content.requestFrame("list/create", list: "l\($0)", id: 100 + $0) }
  }

  /// Sends `frames` pipelined (from another thread) to a fresh daemon and reads every answer:
  /// the time until the last answer, and how much the daemon's RSS grew.
  static func create(_ frames: [[UInt8]], in child: ChildProcess) -> (time: Double, growth: Double) {
    let owner = child.connection
    owner.initialize(name: "bench-lists")
    usleep(100_000)
    let before = child.residentBytes
    let start = now()
    let writer = Thread { for frame in frames { owner.write(frame) } }
    writer.start()
    for _ in 0..<frames.count {
      let body = owner.readResponse()
      if body.count < 200, String(decoding: body, as: UTF8.self).contains("\"error\"") {
        fatalError("listd-bench: list/create failed: \(String(decoding: body, as: UTF8.self))")
      }
    }
    let time = now() - start
    usleep(300_000)
    return (time, Double(child.residentBytes - before))
  }

  /// Sequential round-trip times of one request frame.
  static func requestTimes(_ connection: RawConnection, _ frame: [UInt8], runs: Int) -> Timing {
    var samples: [Double] = []
    for _ in 0..<runs {
      let start = now()
      connection.write(frame)
      _ = connection.readResponse()
      samples.append(now() - start)
    }
    return Timing(samples: samples)
  }
}
