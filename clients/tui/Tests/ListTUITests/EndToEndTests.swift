// listd-tui in a tmux pane against a real daemon: keys in, screen text out, changes from another client.
import Foundation
import JSON
import ListClient
import XCTest

final class EndToEndTests: XCTestCase {
  var daemon: Daemon!
  var tmux: Tmux?
  var log = ""

  override func setUp() async throws {
    log = NSTemporaryDirectory() + "listd-tui-e2e-\(getpid())-\(UUID().uuidString).log"
  }

  override func tearDown() async throws {
    tmux?.kill()
    daemon?.remove()
    try? FileManager.default.removeItem(atPath: log)
  }

  /// Starts a daemon (with `daemonArguments`) and listd-tui against it.
  func start(
    daemon daemonArguments: [String] = [], tui arguments: [String] = [], width: Int = 100, height: Int = 30
  )
    throws -> Tmux
  {
    daemon = try Daemon(daemonArguments)
    let tmux = try Tmux(daemon.tuiCommand(arguments, log: log), width: width, height: height)
    self.tmux = tmux
    return tmux
  }

  /// The line with the cursor mark.
  func cursorLine(_ tmux: Tmux) -> String { tmux.line(containing: "▶") ?? "" }

  func testPickerOpenMoveSelectActionsHelpAndQuitRestoringTheTerminal() throws {
    let tmux = try start(daemon: ["--demo"])
    tmux.wait(forText: "Contacts", "Settings", "Files", "Build Queue", "18 rows", "● connected")
    try tmux.send("Enter")
    tmux.wait(forText: "Contacts · contacts", "Ada Lovelace", "row 1 of 18")
    try tmux.send("j", "j")
    tmux.wait(for: "the cursor on Barbara") { _ in self.cursorLine(tmux).contains("Barbara Liskov") }
    try tmux.send("Space")
    tmux.wait(for: "Barbara selected") { screen in
      screen.contains("1 selected") && (tmux.line(containing: "Barbara")?.hasPrefix("▶●") ?? false)
    }
    try tmux.send("k")
    tmux.wait(for: "the cursor on Alan") { _ in self.cursorLine(tmux).contains("Alan Turing") }
    try tmux.send("Space")
    tmux.wait(forText: "2 selected", "select Alan Turing")
    try tmux.send("a")
    tmux.wait(forText: "Actions · Alan Turing", "Favorite", "Archive", "Copy Email", "Call")
    try tmux.send("j", "Enter")
    tmux.wait(forText: "Archive on Alan Turing")
    XCTAssertFalse(tmux.screen().contains("Actions ·"), "the popup closed")
    try tmux.send("?")
    tmux.wait(forText: "Keys", "expand all / collapse all")
    try tmux.send("Escape")
    tmux.wait(for: "the help to close") { !$0.contains("expand all / collapse all") }
    try tmux.send("Tab")
    tmux.wait(forText: "Settings · settings", "Airplane Mode", "[off]")
    tmux.wait(for: "the cursor on Airplane Mode") { _ in self.cursorLine(tmux).contains("Airplane Mode") }
    try tmux.send("t")
    tmux.wait(forText: "toggle Airplane Mode on")
    try tmux.send("q")
    tmux.wait(forText: "listd · lists (6)")
    try tmux.send("q")
    let after = tmux.wait(forText: "listd-tui exited 0")
    XCTAssertFalse(after.contains("listd · lists"), "the alternate screen is gone:\n\(after)")
    XCTAssertTrue(tmux.wait(forText: "listd-tui exited 0").contains("listd-tui exited 0"))
  }

  func testOutlineExpandAndCollapse() throws {
    let tmux = try start(daemon: ["--demo"], tui: ["--list", "files"])
    tmux.wait(forText: "Files · files", "▾ Sources", "▸ ListModel", "▸ Tests")
    try tmux.send("j", "l")
    tmux.wait(forText: "▾ ListModel", "Snapshot.swift", "Changeset.swift")
    try tmux.send("j", "h")
    tmux.wait(for: "h on a child goes to its parent") { _ in self.cursorLine(tmux).contains("▾ ListModel") }
    try tmux.send("h")
    tmux.wait(for: "ListModel collapsed") { screen in
      screen.contains("▸ ListModel") && !screen.contains("Snapshot.swift")
    }
    try tmux.send("E")
    tmux.wait(for: "everything collapsed") { screen in
      screen.contains("▸ Sources") && screen.contains("▸ Tests") && !screen.contains("ListModel")
    }
    try tmux.send("e")
    tmux.wait(forText: "▾ Tests", "▾ ListModelTests", "MirrorPropertyTests.swift", "▾ examples")
    try tmux.send("g")
    tmux.wait(forText: "▾ Sources", "▾ ListModel", "Snapshot.swift")
    try tmux.send("/", "w", "r", "i", "t", "e", "r", "Enter")
    tmux.wait(for: "search jumps to the match") { _ in self.cursorLine(tmux).contains("FrameWriter.swift") }
  }

  func testLiveChangesKeepTheCursorOnItsItem() async throws {
    let tmux = try start(tui: ["--list", "people"])
    let client = try await daemon.client()
    defer { client.close() }
    let items: [JSONValue] = (0..<40).map { ["id": .string("p\($0)"), "text": .string("Person \($0)")] }
    _ = try await client.create(
      "people", title: "People",
      content: ["sections": [["id": "s", "header": "Everyone", "items": .array(items)]]])
    tmux.wait(forText: "People · people", "Person 0", "row 1 of 40")
    for _ in 0..<5 { try tmux.send("j") }
    tmux.wait(for: "the cursor on Person 5") { _ in
      self.cursorLine(tmux).contains("Person 5 ") || self.cursorLine(tmux).hasSuffix("Person 5")
    }

    _ = try await client.edit(
      "people",
      [
        [
          "op": "insertItems", "before": "p0",
          "items": [
            ["id": "n0", "text": "Newcomer 0"], ["id": "n1", "text": "Newcomer 1"],
            ["id": "n2", "text": "Newcomer 2"],
          ],
        ]
      ])
    // The cursor's item keeps its place on screen: the rows inserted above it push the top up.
    tmux.wait(forText: "Newcomer 2", "row 9 of 43")
    XCTAssertTrue(cursorLine(tmux).contains("Person 5"), "the cursor stayed on its item: \(cursorLine(tmux))")

    _ = try await client.edit("people", [["op": "deleteItems", "items": ["p5"]]])
    tmux.wait(for: "the cursor on the deleted item's neighbour") { screen in
      !screen.contains("Person 5 ") && self.cursorLine(tmux).contains("Person 6")
    }
    tmux.wait(forText: "row 9 of 42")

    _ = try await client.edit("people", [["op": "moveItem", "item": "p6", "after": "p30"]])
    tmux.wait(for: "the cursor follows its item") { _ in
      self.cursorLine(tmux).contains("Person 6") && tmux.screen().contains("row 33 of 42")
    }
    _ = try await client.select("people", ["p6"])
    tmux.wait(for: "a selection made elsewhere") { _ in self.cursorLine(tmux).hasPrefix("▶●") }
    tmux.wait(forText: "1 selected")
  }

  /// A long test (Tests/long-tests.txt: `script/test --long` runs it): a million rows built here
  /// and created in the debug daemon.
  func testAMillionRowsScrollByMovingTheWindow() async throws {
    let tmux = try start(tui: ["--list", "big"])
    let client = try await daemon.client()
    defer { client.close() }
    let items: [JSONValue] = (0..<1_000_000).map { ["id": .string("b\($0)"), "text": .string("Item \($0)")] }
    _ = try await client.create("big", content: ["sections": [["id": "all", "items": .array(items)]]])
    tmux.wait(forText: "row 1 of 1,000,000", "Item 0", "Item 20", timeout: 60)
    try tmux.send("G")
    tmux.wait(forText: "row 1,000,000 of 1,000,000", "Item 999999", "Item 999980")
    try tmux.send("g")
    tmux.wait(forText: "row 1 of 1,000,000", "Item 0")
    try tmux.send("PageDown")
    tmux.wait(forText: "row 28 of 1,000,000", "Item 27", "Item 54")
    try tmux.send("PageDown", "PageDown")
    tmux.wait(forText: "row 82 of 1,000,000", "Item 81")
    try tmux.send("PageUp")
    tmux.wait(forText: "row 55 of 1,000,000")
    try tmux.send("G", "k", "k")
    tmux.wait(forText: "row 999,998 of 1,000,000")

    // Every window was the screen plus a margin on each side, never the list.
    let requests = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
      .filter { $0.contains("→ list/setWindow") }
    XCTAssertFalse(requests.isEmpty)
    let listHeight = 30 - 2
    for request in requests {
      let limit = Int(request.split(separator: "\"limit\":").last?.prefix { $0.isNumber } ?? "") ?? .max
      XCTAssertLessThanOrEqual(limit, listHeight + 2 * listHeight, String(request))
    }
    XCTAssertLessThan(requests.count, 20, "one fetch per jump, not per row")
    let info = try await client.info("big")
    XCTAssertEqual(info["rows"], 1_000_000)
  }

  func testALostDaemonShowsDisconnectedAndTheTUIReconnects() async throws {
    let tmux = try start(daemon: ["--demo"], tui: ["--list", "contacts"])
    tmux.wait(forText: "Contacts · contacts", "Ada Lovelace", "● connected")
    daemon.crash()
    tmux.wait(forText: "disconnected — retrying")
    XCTAssertFalse(tmux.screen().contains("listd-tui exited"), "it did not exit")
    try daemon.start(["--demo"])
    tmux.wait(forText: "● connected", "Ada Lovelace", timeout: 15)
    try tmux.send("j")
    tmux.wait(for: "keys work after reconnecting") { _ in self.cursorLine(tmux).contains("Alan Turing") }
    let client = try await daemon.client()
    defer { client.close() }
    _ = try await client.edit("contacts", [["op": "deleteItems", "items": ["alan"]]])
    tmux.wait(for: "changes flow after reconnecting") { screen in
      !screen.contains("Alan Turing") && self.cursorLine(tmux).contains("Barbara Liskov")
    }
  }

  func testRefreshShowsASpinnerUntilTheOwnerAnswersAndUserEventsReachTheOwner() async throws {
    let tmux = try start(tui: ["--list", "inbox"])
    let owner = try await daemon.client("owner")
    defer { owner.close() }
    let gate = Gate()
    owner.onRefresh { list in
      // Answer only when the test has seen the spinner.
      while !gate.isOpen { try await Task.sleep(for: .milliseconds(20)) }
      _ = try await owner.edit(
        list, [["op": "appendItems", "items": [["id": "fresh", "text": "Fresh mail"]]]])
    }
    let items: [JSONValue] = [
      ["id": "m1", "text": "Hello", "accessories": [["type": "toggle", "isOn": false]]],
      ["id": "m2", "text": "Invoice", "trailingSwipeActions": [["id": "archive", "title": "Archive"]]],
    ]
    _ = try await owner.create(
      "inbox", title: "Inbox", content: ["sections": [["id": "s", "items": .array(items)]]])
    tmux.wait(forText: "Inbox · inbox", "Hello", "Invoice")
    try tmux.send("r")
    tmux.wait(forText: "refreshing…")
    XCTAssertFalse(tmux.screen().contains("Fresh mail"))
    gate.open()
    tmux.wait(forText: "Fresh mail", "refreshed (v1)")
    XCTAssertFalse(tmux.screen().contains("refreshing…"), "the spinner stops when the owner answers")

    try tmux.send("t")
    tmux.wait(forText: "toggle Hello on")
    try tmux.send("j", "a")
    tmux.wait(forText: "Actions · Invoice", "Archive")
    try tmux.send("1")
    tmux.wait(forText: "Archive on Invoice")
    try tmux.send("d")
    tmux.wait(forText: "delete Invoice")
    var events: [String] = []
    for await notification in owner.notifications where notification.method == "owner/event" {
      let params = notification.params
      events.append(
        [params["event"], params["item"], params["action"], params["isOn"]].compactMap {
          $0?.stringValue ?? $0.map { "\($0)" }
        }
        .joined(separator: " "))
      if events.count == 3 { break }
    }
    XCTAssertEqual(events, ["toggle m1 bool(true)", "action m2 archive", "delete m2"])
  }

  func testDemoSpawnsAPrivateDaemonAndResizesWithTheTerminal() throws {
    let tui = buildDirectory.appendingPathComponent("listd-tui").path
    let tmux = try Tmux(
      "'\(tui)' --demo --log '\(log)'; echo \"listd-tui exited $?\"; sleep 600", width: 120, height: 40)
    self.tmux = tmux
    tmux.wait(forText: "listd · lists (6)", "Contacts", "Build Queue", "● connected")
    let socket = try XCTUnwrap(
      try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").first {
        $0.contains("started: ")
      }?
      .split(separator: " ").first { $0.hasPrefix("/") }.map { String($0.dropLast()) })
    XCTAssertTrue(FileManager.default.fileExists(atPath: socket), socket)
    try tmux.send("Enter")
    tmux.wait(forText: "Contacts · contacts", "Whitfield Diffie")
    try tmux.resize(width: 80, height: 24)
    tmux.wait(for: "a redraw at 80×24") { screen in
      let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
      return lines.count >= 24 && lines[23].contains("connected") && !screen.contains("Whitfield Diffie")
        && lines[0].contains("row 1 of 18")
    }
    try tmux.send("G")
    tmux.wait(forText: "Whitfield Diffie", "row 18 of 18")
    try tmux.send("q", "q")
    tmux.wait(forText: "listd-tui exited 0")
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: socket), "the spawned daemon is gone with its socket")
  }

  func testCtrlCRestoresTheTerminal() throws {
    let tmux = try start(daemon: ["--demo"])
    tmux.wait(forText: "listd · lists (6)")
    try tmux.send("C-c")
    let after = tmux.wait(forText: "listd-tui exited 130")
    XCTAssertFalse(after.contains("listd · lists"), "the alternate screen is gone:\n\(after)")
  }
}

/// A flag one task opens and another polls.
final class Gate: @unchecked Sendable {
  // `@unchecked Sendable`: guarded by `lock`.
  private let lock = NSLock()
  private var opened = false
  var isOpen: Bool { lock.withLock { opened } }
  func open() { lock.withLock { opened = true } }
}
