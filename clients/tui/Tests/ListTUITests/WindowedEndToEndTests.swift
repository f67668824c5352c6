// listd-tui's windowed subscription end to end: a 100,000-row list scrolled while another session edits it.
import Foundation
import JSON
import ListClient
import XCTest

final class WindowedEndToEndTests: XCTestCase {
  var daemon: Daemon!
  var tmux: Tmux?
  var log = ""

  override func setUp() async throws {
    log = NSTemporaryDirectory() + "listd-tui-windowed-\(getpid())-\(UUID().uuidString).log"
  }

  override func tearDown() async throws {
    tmux?.kill()
    daemon?.remove()
    try? FileManager.default.removeItem(atPath: log)
  }

  /// The list area's height of a 30-line pane (title and status lines aside).
  let listHeight = 28

  /// Waits until listd-tui shows version `version` with every row of its screen held (no `⋯`
  /// placeholder), then checks each row line against `query/window` of the same rows: the row
  /// under the cursor mark is the title's `row N`, the others follow line by line.
  func assertScreenMatchesTheDaemon(
    _ tmux: Tmux, _ client: ListClient, version: Int, context: String, line: UInt = #line
  ) async throws {
    // A capture can catch a frame half written (the status line new, rows still old): the screen
    // must match once it settles, so a mismatch is looked at again for up to 5 s before it fails.
    let deadline = Date().addingTimeInterval(5)
    while true {
      let problems = try await screenProblems(tmux, client, version: version, context: context, line: line)
      if problems.isEmpty { return }
      if Date() > deadline {
        for problem in problems { XCTFail(problem, line: line) }
        return
      }
      usleep(100_000)
    }
  }

  /// What differs between the screen and the daemon's window at `version`; empty when they agree.
  private func screenProblems(
    _ tmux: Tmux, _ client: ListClient, version: Int, context: String, line: UInt
  ) async throws -> [String] {
    let screen = tmux.wait(for: "v\(version) on screen, every row held", line: line) { screen in
      screen.contains(" v\(Self.format(version)) ") && !screen.contains("⋯") && screen.contains("▶")
    }
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let cursorLine = lines.firstIndex(where: { $0.hasPrefix("▶") }),
      let rowText = lines.first?.split(separator: "row ").last?.split(separator: " ").first,
      let cursorRow = Int(rowText.replacingOccurrences(of: ",", with: ""))
    else { return ["no cursor or row number on the screen:\n\(screen)"] }
    let firstRow = cursorRow - 1 - (cursorLine - 1)
    let window = try await client.window("big", offset: firstRow, limit: listHeight)
    var problems: [String] = []
    let answered = Int(window["version"]?.intValue ?? -1)
    if answered != version { problems.append("\(context): the window is at v\(answered), not v\(version)") }
    let rows = window["rows"]?.arrayValue ?? []
    if rows.isEmpty { problems.append("\(context): the window has no rows") }
    for (offset, row) in rows.enumerated() {
      let shown = lines[1 + offset]
      let text = row["text"]?.stringValue ?? ""
      // `▶` or a blank, the selection column, a blank, then the text (no outline here).
      let drawn = String(shown.dropFirst(5).prefix(24))
      if !(shown.dropFirst(5).hasPrefix(text + " ") || shown.dropFirst(5) == text) {
        problems.append(
          "\(context): row \(firstRow + offset) is '\(text)' at v\(version), the screen shows '\(drawn)…':\n\(screen)"
        )
      }
    }
    return problems
  }

  static func format(_ number: Int) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.groupingSeparator = ","
    formatter.usesGroupingSeparator = true
    return formatter.string(from: NSNumber(value: number)) ?? "\(number)"
  }

  func testAHundredThousandRowsScrolledWhileAnotherSessionEditsStayExact() async throws {
    daemon = try Daemon()
    let tmux = try Tmux(daemon.tuiCommand(["--list", "big"], log: log), width: 100, height: 30)
    self.tmux = tmux
    let client = try await daemon.client("editor")
    defer { client.close() }
    let count = 100_000
    let items: [JSONValue] = (0..<count).map { ["id": .string("b\($0)"), "text": .string("Item \($0)")] }
    _ = try await client.create("big", content: ["sections": [["id": "all", "items": .array(items)]]])
    tmux.wait(forText: "row 1 of 100,000", "Item 0", "Item 27", timeout: 60)

    // Edits around wherever the screen may be: above it (rows shift in and out), inside it and
    // below it; inserts, deletes, moves and payload changes.
    let editor = Task { () throws -> Int in
      var version = 0
      var next = 0
      for step in 0..<120 {
        let target = (step * 7_919) % 90_000
        let ops: [JSONValue]
        switch step % 4 {
        case 0:
          ops = [
            [
              "op": "insertItems", "before": .string("b\(target)"),
              "items": [["id": .string("n\(next)"), "text": .string("New \(next)")]],
            ]
          ]
          next += 1
        case 1:
          ops = [["op": "deleteItems", "items": [.string("b\(target + 1)"), .string("b\(target + 2)")]]]
        case 2:
          ops = [["op": "moveItem", "item": .string("b\(target + 3)"), "after": .string("b\(target + 500)")]]
        default:
          ops = [
            [
              "op": "patchItems",
              "items": [["id": .string("b\(target + 4)"), "text": .string("Edited \(step)")]],
            ]
          ]
        }
        let answer = try await client.edit("big", ops)
        version = answer.version
        try await Task.sleep(for: .milliseconds(15))
      }
      return version
    }
    for key in ["PageDown", "PageDown", "PageDown", "G", "PageUp", "k", "k", "g", "PageDown", "End"] {
      try tmux.send(key)
      usleep(80_000)
    }
    let version = try await editor.value
    try await assertScreenMatchesTheDaemon(
      tmux, client, version: version, context: "after scrolling through edits")

    // Edits right above and inside the screen at the end, then scrolling back through them.
    var last = version
    for step in 0..<10 {
      let answer = try await client.edit(
        "big",
        [
          ["op": "deleteItems", "items": [.string("b\(99_900 + step)")]],
          [
            "op": "patchItems",
            "items": [["id": .string("b\(99_990 + step)"), "text": .string("Late \(step)")]],
          ],
        ])
      last = answer.version
    }
    try await assertScreenMatchesTheDaemon(tmux, client, version: last, context: "edits at the screen")
    for _ in 0..<3 { try tmux.send("PageUp") }
    try await assertScreenMatchesTheDaemon(tmux, client, version: last, context: "scrolled back up")
    try tmux.send("g")
    try await assertScreenMatchesTheDaemon(tmux, client, version: last, context: "at the top")

    // It subscribed with a window and moved it; it never asked for a window by query, and every
    // window was the screen plus a margin.
    let requests = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    XCTAssertFalse(requests.contains { $0.contains("→ query/window") }, "no query/window")
    XCTAssertTrue(requests.contains { $0.contains("→ list/subscribe") && $0.contains("\"window\"") })
    let moves = requests.filter { $0.contains("→ list/setWindow") && $0.contains("\"big\"") }
    XCTAssertFalse(moves.isEmpty, "the window moved as it scrolled")
    for move in moves {
      let limit = Int(move.split(separator: "\"limit\":").last?.prefix { $0.isNumber } ?? "") ?? .max
      XCTAssertLessThanOrEqual(limit, 3 * listHeight, String(move))
    }
  }
}
