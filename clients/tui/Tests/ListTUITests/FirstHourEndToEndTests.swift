// What a newcomer met in the TUI (issue 23): why it cannot connect, a list gone with a restart, a stale status line, a view's id, a kind twice.
import Foundation
import JSON
import ListClient
import XCTest

final class FirstHourEndToEndTests: XCTestCase {
  var daemon: Daemon?
  var tmux: Tmux?
  var log = ""

  override func setUp() async throws {
    log = NSTemporaryDirectory() + "listd-tui-first-hour-\(getpid())-\(UUID().uuidString).log"
  }

  override func tearDown() async throws {
    tmux?.kill()
    daemon?.remove()
    try? FileManager.default.removeItem(atPath: log)
  }

  /// The screen's lines, trimmed and joined by spaces: text wrapped over lines reads whole.
  func joined(_ screen: String) -> String {
    screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
  }

  /// With nothing at the socket, the picker says so (as listctl does) and how to start a daemon,
  /// wrapped to the terminal's width.
  func testWithoutADaemonThePickerSaysWhyAndHowToStartOne() throws {
    // A short path: one a line can hold whole.
    var template = Array("/tmp/tui-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    let directory = String(cString: try XCTUnwrap(made))
    addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
    let socket = directory + "/nope.sock"
    let tui = buildDirectory.appendingPathComponent("listd-tui").path
    let tmux = try Tmux(
      "'\(tui)' --socket '\(socket)' --log '\(log)'; echo \"listd-tui exited $?\"; sleep 600", width: 60,
      height: 16)
    self.tmux = tmux
    let screen = tmux.wait(for: "the reason and the advice") { screen in
      self.joined(screen).contains(
        "cannot connect to \(socket): No such file or directory — start a daemon with "
          + "'listd --listen \(socket) --stay', or run 'listd-tui --demo' for a private one")
    }
    XCTAssertTrue(screen.contains("disconnected — retrying"), screen)
    XCTAssertFalse(screen.contains("…"), "nothing is cut:\n\(screen)")
  }

  /// A list open with --list that a restarted daemon no longer has: the error is wrapped, not
  /// cut at the terminal's width, and the list opens again when it is created again.
  func testAListGoneWithARestartOpensAgainWhenCreatedAgain() async throws {
    let daemon = try Daemon()
    self.daemon = daemon
    let tmux = try Tmux(daemon.tuiCommand(["--list", "ab"], log: log), width: 80, height: 16)
    self.tmux = tmux
    var client = try await daemon.client()
    _ = try await client.create(
      "ab", title: "AB", content: ["sections": [["id": "s", "items": [["id": "a", "text": "Alpha"]]]]])
    tmux.wait(forText: "AB · ab", "Alpha", "● connected")
    client.close()
    daemon.stop()
    try daemon.start()
    let screen = tmux.wait(for: "the whole message") { screen in
      self.joined(screen).contains("it opens again when it is created") && screen.contains("● connected")
    }
    XCTAssertTrue(joined(screen).contains("'ab' is gone (unknown list 'ab'"), screen)
    XCTAssertFalse(screen.contains("…"), "nothing is cut:\n\(screen)")
    client = try await daemon.client()
    defer { client.close() }
    _ = try await client.create(
      "ab", title: "AB", content: ["sections": [["id": "s", "items": [["id": "b", "text": "Beta"]]]]])
    tmux.wait(forText: "AB · ab", "Beta")
  }

  /// The status line names the list the user opened (not the id of the view sorting it) with
  /// the sort; a message stays with the list it is about; a Kind column's value is not repeated.
  func testTheStatusLineNamesTheListKeepsMessagesToItAndAKindShowsOnce() throws {
    let daemon = try Daemon(["--demo"])
    self.daemon = daemon
    let tmux = try Tmux(daemon.tuiCommand(["--list", "processes"], log: log), width: 120, height: 16)
    self.tmux = tmux
    var screen = tmux.wait(forText: "processes", "swift-build", "● connected")
    XCTAssertTrue(screen.contains("daemon"), screen)
    XCTAssertFalse(screen.contains("‹daemon›"), "the Kind column shows the kind already:\n\(screen)")
    try tmux.send("s")
    screen = tmux.wait(forText: "sorted by Command ▲")
    let status = try XCTUnwrap(tmux.line(containing: "rows ·"))
    XCTAssertTrue(status.contains("processes v0 (sorted by Command ▲)"), status)
    XCTAssertEqual(status.components(separatedBy: "sorted by").count, 2, "said once: \(status)")
    XCTAssertFalse(screen.contains("tui-"), "no view id:\n\(screen)")
    try tmux.send("q")
    screen = tmux.wait(forText: "listd · lists")
    XCTAssertFalse(screen.contains("sorted by"), "the message stayed with its list:\n\(screen)")
  }

  /// A sorted table whose daemon restarts comes back sorted: the TUI makes its view again (a
  /// second view/create, under a new id) and shows it, its header naming the sort.
  func testASortedTableIsSortedAgainAfterARestart() throws {
    let daemon = try Daemon(["--demo"])
    self.daemon = daemon
    let tmux = try Tmux(daemon.tuiCommand(["--list", "processes"], log: log), width: 120, height: 16)
    self.tmux = tmux
    tmux.wait(forText: "swift-build", "● connected")
    try tmux.send("s")
    tmux.wait(forText: "all rows of processes, sorted by Command ▲")
    daemon.stop()
    try daemon.start(["--demo"])
    let log = self.log
    let screen = tmux.wait(for: "the view made again and shown") { screen in
      let creates =
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        .components(separatedBy: "→ view/create").count - 1
      return creates == 2 && screen.contains("all rows of processes, sorted by Command ▲")
        && screen.contains("● connected") && screen.contains("swift-build")
    }
    XCTAssertTrue(try XCTUnwrap(tmux.line(containing: "rows ·")).contains("(sorted by Command ▲)"), screen)
  }
}
