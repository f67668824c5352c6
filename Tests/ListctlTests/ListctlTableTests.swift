// End-to-end: `listctl show` of a table (columns aligned, truncated with …) and of an empty list.
import Foundation
import XCTest

final class ListctlTableTests: XCTestCase {
  private func show(_ list: String) throws -> String {
    let run = try runListctl(["--spawn", "--demo", "--", "show", list])
    XCTAssertEqual(run.status, 0, run.stderr)
    return run.stdout
  }

  /// The demo's `processes` table: a header row of titles; cells aligned as their columns say
  /// (PID, CPU and memory trailing, OK centred; memory a number of MB, its unit in the title), each column as wide as its width hint, longer
  /// values cut with `…`; Booleans as ✓ / ✗, null cells empty.
  func testShowPrintsATableWithAlignedTruncatedColumns() throws {
    XCTAssertEqual(
      try show("processes"),
      """
      processes 'Processes' v0 · plain · selection multiple
        Command                PID   CPU %  Memory (MB)  Kind      Started           OK
      § running — Running
        listd --listen --…    4121     2.5         18.2  daemon    2026-11-23 04:00   ✓
        swift-build --bui…    5310   187.4       1433.6  tool      2026-11-23 04:12   ✓
        nvim README.md        6002     0.3         42.5  app       2026-11-23 03:58   ✓
        defunct               6110       0               app                          ✗

      """)
  }

  /// An empty list shows its empty state.
  func testShowPrintsTheEmptyStateOfAnEmptyList() throws {
    XCTAssertEqual(
      try show("inbox"),
      """
      inbox 'Inbox' v0 · insetGrouped · selection single
        ∅ No Mail  [tray]
          New messages appear here.
      § messages — Messages

      """)
  }

  /// `listctl edit` names list-attribute changes on its change line, and `--explain` gives each
  /// its cause.
  func testEditPrintsColumnsEmptyStateAndEditingChanges() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    func ok(_ arguments: String...) throws -> String {
      let run = try runListctl(["--socket", daemon.socket] + arguments)
      XCTAssertEqual(run.status, 0, run.stderr)
      return run.stdout
    }
    _ = try ok("create", "t")
    let edits = #"""
      [{"op": "setColumns", "columns": [{"id": "name", "title": "Name"}, {"id": "size", "title": "Size"}]},
       {"op": "setEmptyState", "emptyState": {"title": "Nothing"}}, {"op": "setEditing", "editing": true}]
      """#
    XCTAssertEqual(try ok("edit", "t", edits), "v1  columns name, size · empty state 'Nothing' · editing\n")
    let explained = try ok(
      "edit", "t", #"[{"op": "setEmptyState", "emptyState": null}, {"op": "setEditing", "editing": false}]"#,
      "--explain")
    XCTAssertTrue(explained.hasPrefix("v2  no empty state · not editing\n"), explained)
    XCTAssertTrue(explained.contains("empty state"), explained)
    XCTAssertTrue(explained.contains("editing"), explained)
  }
}
