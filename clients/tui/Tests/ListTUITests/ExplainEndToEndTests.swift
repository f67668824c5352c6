// listd-tui's `w` panel in tmux: why the cursor's row last changed, while the list keeps changing.
import Foundation
import JSON
import ListClient
import XCTest

final class ExplainEndToEndTests: XCTestCase {
  var daemon: Daemon!
  var tmux: Tmux?
  var log = ""

  override func setUp() async throws {
    log = NSTemporaryDirectory() + "listd-tui-explain-\(getpid())-\(UUID().uuidString).log"
    daemon = try Daemon()
  }

  override func tearDown() async throws {
    tmux?.kill()
    daemon?.remove()
    try? FileManager.default.removeItem(atPath: log)
  }

  func testWShowsWhyTheRowLastChangedAndRowsKeepUpdatingUnderThePanel() async throws {
    let tmux = try Tmux(daemon.tuiCommand(["--list", "notes"], log: log), width: 100, height: 24)
    self.tmux = tmux
    let client = try await daemon.client("editor")
    defer { client.close() }
    _ = try await client.create(
      "notes", title: "Notes",
      content: [
        "sections": [
          [
            "id": "s", "header": "All",
            "items": [["id": "a", "text": "Alpha"], ["id": "b", "text": "Draft", "secondaryText": "todo"]],
          ]
        ]
      ])
    tmux.wait(forText: "Notes · notes", "Alpha", "Draft")
    try tmux.send("w")
    tmux.wait(forText: "Why · Alpha", "No kept change concerns this row.")
    try tmux.send("w")
    tmux.wait(for: "the panel to close") { !$0.contains("Why · Alpha") }

    _ = try await client.edit(
      "notes", [["op": "patchItems", "items": [["id": "b", "text": "Final"]]]])
    tmux.wait(forText: "Final")
    try tmux.send("j")
    tmux.wait(for: "the cursor on Final") { _ in tmux.line(containing: "▶")?.contains("Final") == true }
    try tmux.send("w")
    let panel = tmux.wait(
      forText: "Why · Final", "v1 · list/edit by session", "(editor)", "changed (edit 0: patchItems)",
      "text: \"Draft\" → \"Final\"")
    XCTAssertFalse(panel.contains("secondaryText"), "only the fields that changed:\n\(panel)")

    // The panel stays while the list changes underneath; the rows keep updating.
    _ = try await client.edit(
      "notes", [["op": "appendItems", "section": "s", "items": [["id": "c", "text": "Gamma arrives"]]]])
    tmux.wait(forText: "Gamma arrives", "Why · Final", "text: \"Draft\" → \"Final\"", " v2")
    try tmux.send("j")  // other keys wait while the panel is open
    tmux.wait(forText: "Why · Final")
    try tmux.send("Escape")
    tmux.wait(for: "Esc to close the panel") { !$0.contains("Why · Final") && $0.contains("Notes · notes") }

    try tmux.send("?")
    tmux.wait(forText: "why: the row's last change")
  }
}
