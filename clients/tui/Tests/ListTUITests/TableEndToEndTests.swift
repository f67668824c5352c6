// listd-tui draws a table (columns, header, ▲/▼, …) and sorts and filters it through a live view, end to end.
import Foundation
import JSON
import ListClient
import XCTest

final class TableEndToEndTests: XCTestCase {
  var daemon: Daemon!
  var tmux: Tmux?
  var log = ""

  override func setUp() async throws {
    log = NSTemporaryDirectory() + "listd-tui-table-\(getpid())-\(UUID().uuidString).log"
  }

  override func tearDown() async throws {
    tmux?.kill()
    daemon?.remove()
    try? FileManager.default.removeItem(atPath: log)
  }

  /// The screen lines, top to bottom.
  func lines(_ screen: String) -> [String] {
    screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The order in which `names` appear on `screen` (each the first line containing it).
  func order(_ names: [String], on screen: String) -> [String] {
    let all = lines(screen)
    return names.compactMap { name in all.firstIndex { $0.contains(name) }.map { (name, $0) } }
      .sorted { $0.1 < $1.1 }.map(\.0)
  }

  func testAnEmptyListShowsItsEmptyStateAndTheEditingFlag() async throws {
    daemon = try Daemon()
    let tmux = try Tmux(daemon.tuiCommand(["--list", "inbox"], log: log), width: 80, height: 20)
    self.tmux = tmux
    let owner = try await daemon.client("owner")
    defer { owner.close() }
    _ = try await owner.call(
      "list/create",
      [
        "list": "inbox", "title": "Inbox",
        "emptyState": ["title": "No Mail", "image": "tray", "description": "New messages show here."],
      ])
    var screen = tmux.wait(forText: "Inbox · inbox", "No Mail", "◌ tray", "New messages show here.")
    let line = try XCTUnwrap(lines(screen).first { $0.contains("No Mail") })
    XCTAssertEqual(line.prefix { $0 == " " }.count, (80 - "No Mail".count) / 2, "centred:\n\(screen)")
    let row = try XCTUnwrap(lines(screen).firstIndex { $0.contains("No Mail") })
    XCTAssertGreaterThan(row, 5, "centred down the screen:\n\(screen)")
    _ = try await owner.edit(
      "inbox",
      [
        ["op": "appendSections", "sections": [["id": "s"]]],
        ["op": "appendItems", "section": "s", "items": [["id": "m", "text": "Hello"]]],
      ])
    screen = tmux.wait(forText: "Hello")
    XCTAssertFalse(screen.contains("No Mail"), screen)
    _ = try await owner.edit(
      "inbox", [["op": "setEditing", "editing": true], ["op": "deleteItems", "items": ["m"]]])
    tmux.wait(forText: "· editing", "No Mail")
    _ = try await owner.edit("inbox", [["op": "setEmptyState", "emptyState": ["title": "Inbox Zero"]]])
    screen = tmux.wait(forText: "Inbox Zero")
    XCTAssertFalse(screen.contains("No Mail"), screen)
  }
}
