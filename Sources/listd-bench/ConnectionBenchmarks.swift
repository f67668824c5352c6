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
    let crowded = ProcessCounts(pid: pid)
    let crowdedTiming = DaemonBenchmarks.roundTrips(owner, frame: frame, perRun: perRun, options, echo: false)

    for fd in idle { Glibc.close(fd) }
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
      formatRatio(Double(crowded.threads) / Double(alone.threads)), DaemonBenchmarks.check(crowded.threads < 64, "< 64"))
    table.row(
      "descriptors with \(sessions) idle sessions", "\(crowded.descriptors)", "", "", "1 session: \(alone.descriptors)",
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
      "  baseline: query/counts, 1 session", formatDuration(aloneTiming.median), formatDuration(aloneTiming.p90),
      formatDuration(aloneTiming.percentile(0.99)), "", "", "")
    print(
      String(
        format: "    (%d sessions connected and initialized in %@; after they all closed: %d threads, %d fds, RSS %.1f MB)",
        sessions, formatDuration(connectTime), after.threads, after.descriptors, Double(after.resident) / 1e6))
  }

  /// What /proc says about a process: threads, open descriptors, resident bytes.
  struct ProcessCounts {
    var threads: Int
    var descriptors: Int
    var resident: Int

    init(pid: String) {
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
      threads = line.flatMap { $0.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } } ?? 0
      descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
      resident = residentSetSize(of: pid)
    }
  }

  // MARK: - Many lists

  /// Creating `lists` lists of 100 items (pipelined) vs one list of as many items in all, in
  /// fresh daemons: total time, and RSS per list beyond what the items cost. Then `list/all`
  /// with that many lists, whole and one page, vs `query/counts`.
  static func manyLists(_ path: String, _ options: BenchOptions) {
    let lists = options.quick ? 2_000 : 10_000
    let itemsPerList = 100
    let runs = options.quick ? 1 : 3
    let content = BenchContent(items: itemsPerList, sectionCount: 1)
    let frames = (0..<lists).map { content.requestFrame("list/create", list: "l\($0)", id: 100 + $0) }
    let whole = BenchContent(items: lists * itemsPerList, sectionCount: lists / 100)
    let wholeFrame = whole.requestFrame("list/create", list: "whole", id: 50)

    var manyTimes: [Double] = []
    var manyGrowth: [Double] = []
    var oneTimes: [Double] = []
    var oneGrowth: [Double] = []
    var allTiming: Timing?
    var pageTiming: Timing?
    var countsTiming: Timing?
    for run in 0..<runs {
      do {
        let child = try! ChildProcess(path, ["--log-level", "error"])
        child.connection.initialize(name: "bench-one-list")
        usleep(100_000)
        let before = child.residentBytes
        let start = now()
        child.connection.write(wholeFrame)
        _ = child.connection.readResponse()
        oneTimes.append(now() - start)
        usleep(300_000)
        oneGrowth.append(Double(child.residentBytes - before))
        child.stop()
      }
      let child = try! ChildProcess(path, ["--log-level", "error"])
      let owner = child.connection
      owner.initialize(name: "bench-many-lists")
      usleep(100_000)
      let before = child.residentBytes
      let start = now()
      let writer = Thread { for frame in frames { owner.write(frame) } }
      writer.start()
      for _ in 0..<lists {
        let body = owner.readResponse()
        if body.count < 200, String(decoding: body, as: UTF8.self).contains("\"error\"") {
          fatalError("listd-bench: list/create failed: \(String(decoding: body, as: UTF8.self))")
        }
      }
      manyTimes.append(now() - start)
      usleep(300_000)
      manyGrowth.append(Double(child.residentBytes - before))
      if run == runs - 1 {
        let queryRuns = options.quick ? 5 : 20
        countsTiming = DaemonBenchmarks.roundTrips(
          owner, frame: requestFrame("query/counts", ["list": "l0"], id: 7), perRun: 200, options, echo: false)
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
    let oneTime = Timing(samples: oneTimes).median
    let perList = (Timing(samples: manyGrowth).median - Timing(samples: oneGrowth).median) / Double(lists)
    table.row(
      "create \(lists / 1000)k lists of \(itemsPerList) items", formatDuration(manyTime),
      formatDuration(Timing(samples: manyTimes).p90), "",
      "1 list of \(lists * itemsPerList / 1000)k " + formatDuration(oneTime), formatRatio(manyTime / oneTime),
      DaemonBenchmarks.check(manyTime < 2, "< 2 s"))
    table.row(
      "RSS per list beyond its items", String(format: "%.0f B", perList), "", "",
      String(format: "1 list: %.0f B/item", Timing(samples: oneGrowth).median / Double(lists * itemsPerList)),
      "", DaemonBenchmarks.check(perList < 2048, "< 2 KB"))
    if let allTiming, let countsTiming {
      table.row(
        "list/all, \(lists / 1000)k lists, all of them", formatDuration(allTiming.median),
        formatDuration(allTiming.p90), formatDuration(allTiming.percentile(0.99)),
        "query/counts " + formatDuration(countsTiming.median), formatRatio(allTiming.median / countsTiming.median),
        "")
      if let pageTiming {
        table.row(
          "list/all, \(lists / 1000)k lists, page of 100", formatDuration(pageTiming.median),
          formatDuration(pageTiming.p90), formatDuration(pageTiming.percentile(0.99)),
          "query/counts " + formatDuration(countsTiming.median),
          formatRatio(pageTiming.median / countsTiming.median), DaemonBenchmarks.check(pageTiming.median < 1e-3, "< 1 ms"))
      } else {
        table.row("list/all, page of 100", "-", "", "", "(no offset/limit paging in this daemon)", "", "")
      }
    }
    print(
      String(
        format: "    (RSS growth: %d lists %.1f MB, one list of %d items %.1f MB; medians of %d runs)", lists,
        Timing(samples: manyGrowth).median / 1e6, lists * itemsPerList, Timing(samples: oneGrowth).median / 1e6,
        runs))
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
