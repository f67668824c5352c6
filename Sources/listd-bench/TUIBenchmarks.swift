// The terminal UI's keystroke-to-frame time on a 1,000,000-row list against a 1,000-row one.
import Foundation
import JSON
import JSONRPC
import ListTUI

/// `listd-bench tui`: drives the real `TUIApp` controller against the release daemon — each key
/// is handled, the requests it asks for go to the daemon and their answers come back, then the
/// frame is rendered and diffed against the previous one, as `listd-tui` does. The same key
/// script on a 1,000-row list is the baseline: scrolling stays instant if the ratio stays near 1.
enum TUIBenchmarks {
  static func run(_ options: BenchOptions) {
    guard let daemon = locateDaemon() else {
      FileHandle.standardError.write(Data("listd-bench tui: build the release listd first\n".utf8))
      exit(1)
    }
    printHeading("tui — keystroke to frame, listd-tui's controller and renderer against \(daemon)", options)
    let child = try! ChildProcess(daemon, ["--log-level", "error"])
    defer { child.stop() }
    let connection = child.connection
    connection.initialize(name: "bench-tui")
    let large = options.quick ? 100_000 : 1_000_000
    for (list, items) in [("small", 1_000), ("large", large)] {
      connection.write(
        BenchContent(items: items, sectionCount: 10).requestFrame("list/create", list: list, id: 2))
      _ = connection.readResponse()
    }

    let table = Table([
      ("keys on a 100×40 screen", 30), ("p50", 10), ("p90", 10), ("max", 10), ("rows fetched/key", 16),
      ("vs 1,000 rows (p50)", 20), ("exp", 12),
    ])
    var baseline: Timing?
    for (list, label) in [
      ("small", "1,000 rows"), ("large", large == 1_000_000 ? "1,000,000 rows" : "100,000 rows"),
    ] {
      let driver = Driver(connection: connection, list: list)
      var keys: [Double] = []
      for _ in 0..<(options.warmup + options.runs) {
        keys += driver.script()
      }
      let timing = Timing(samples: keys)
      let fetched = Double(driver.rowsFetched) / Double(max(1, driver.keys))
      let ratio = baseline.map { timing.median / $0.median }
      table.printRow([
        label, formatDuration(timing.median), formatDuration(timing.p90),
        formatDuration(timing.percentile(1)),
        String(format: "%.0f", fetched), ratio.map(formatRatio) ?? "baseline",
        (timing.p90 < 0.016 ? "✓" : "✗") + " p90 < 16 ms",
      ])
      if baseline == nil { baseline = timing }
    }
  }

  /// One TUI session on one list, its requests answered by the daemon synchronously.
  final class Driver {
    private let connection: RawConnection
    private var app: TUIApp
    private var screen = ScreenDiff()
    private var nextID = 100
    private var clock = 0.0
    /// Rows asked for by `query/window` requests, and keys handled, over the driver's life.
    private(set) var rowsFetched = 0
    private(set) var keys = 0

    init(connection: RawConnection, list: String) {
      self.connection = connection
      app = TUIApp(width: 100, height: 40, endpoint: "bench", open: list)
      settle(app.handle(.connected, now: clock))
      draw()
    }

    /// PgDn ×30, G, PgUp ×30, g, then j ×60: the time of each key, until its frame is drawn.
    func script() -> [Double] {
      let script: [Key] =
        Array(repeating: .pageDown, count: 30) + [.char("G")] + Array(repeating: .pageUp, count: 30)
        + [.char("g")] + Array(repeating: .down, count: 60)
      var samples: [Double] = []
      for key in script {
        let start = now()
        clock += 0.05
        settle(app.handle(.key(key), now: clock))
        draw()
        samples.append(now() - start)
        keys += 1
      }
      return samples
    }

    private func draw() {
      let lines = Renderer.render(Renderer.frame(app, time: clock), width: app.width, colors: true)
      blackHole(screen.update(lines, width: app.width))
    }

    /// Performs the effects' requests, feeding each answer back, until none is left.
    private func settle(_ effects: [AppEffect]) {
      var pending = effects
      while !pending.isEmpty {
        guard case .request(let tag, let method, let params) = pending.removeFirst() else { continue }
        if method == "query/window", let limit = params["limit"]?.intValue { rowsFetched += Int(limit) }
        nextID += 1
        connection.write(requestFrame(method, params, id: nextID))
        let answer = try! JSONValue(parsing: connection.readResponse())
        let result: Result<JSONValue, RequestFailure>
        if let error = answer["error"] {
          result = .failure(
            RequestFailure(
              code: error["code"]?.intValue.map { Int($0) }, message: error["message"]?.stringValue ?? "?"))
        } else {
          result = .success(answer["result"] ?? .null)
        }
        pending += app.handle(.answer(tag, result), now: clock)
      }
    }
  }
}
