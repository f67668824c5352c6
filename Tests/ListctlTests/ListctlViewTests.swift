// listctl view create|update|show end to end: a live view of a demo list, changed and shown.
import Foundation
import XCTest

final class ListctlViewTests: XCTestCase {
  func testViewCreateUpdateShow() throws {
    let daemon = try ListctlDaemon(["--demo"])
    defer { daemon.stop() }
    let created = try daemon.run(
      "view", "create", "people", "contacts", "--sort", "text:desc", "--where", "text != \"nobody\"")
    XCTAssertEqual(created.status, 0, created.stderr)
    let shown = try daemon.run("view", "show", "people")
    XCTAssertEqual(shown.status, 0, shown.stderr)
    XCTAssertTrue(shown.stdout.hasPrefix("view people of contacts  v0"), shown.stdout)
    XCTAssertTrue(shown.stdout.contains(#"sort [{"field":"text","descending":true}]"#), shown.stdout)
    let updated = try daemon.run("view", "update", "people", "--no-sort", "--group", "text:initial")
    XCTAssertEqual(updated.status, 0, updated.stderr)
    let info = try daemon.run("--json", "view", "show", "people")
    let compact = info.stdout.filter { !$0.isWhitespace }
    XCTAssertTrue(compact.contains(#""by":"initial""#), info.stdout)
    XCTAssertTrue(compact.contains(#""version":1"#), info.stdout)
    let refused = try daemon.run("edit", "people", #"{"op": "deleteSections", "sections": ["x"]}"#)
    XCTAssertEqual(refused.status, 1)
    XCTAssertTrue(refused.stderr.contains("'people' is a view of 'contacts'"), refused.stderr)
    let bad = try daemon.run("view", "frobnicate", "people")
    XCTAssertEqual(bad.status, 2)
    XCTAssertTrue(bad.stderr.contains("unknown view action 'frobnicate'"), bad.stderr)
  }

  /// `view show` prints only what the view has: no `filter null` or `group null` lines.
  func testViewShowLeavesOutWhatIsNotSet() throws {
    let daemon = try ListctlDaemon(["--demo"])
    defer { daemon.stop() }
    XCTAssertEqual(try daemon.run("view", "create", "sorted", "contacts", "--sort", "text").status, 0)
    let shown = try daemon.run("view", "show", "sorted")
    XCTAssertEqual(shown.status, 0, shown.stderr)
    let header = shown.stdout.split(separator: "\n").prefix(3).joined(separator: "\n")
    XCTAssertTrue(header.contains(#"sort [{"field":"text","descending":false}]"#), shown.stdout)
    XCTAssertFalse(shown.stdout.contains("null"), shown.stdout)
    XCTAssertFalse(shown.stdout.contains("\nfilter "), shown.stdout)
    XCTAssertFalse(shown.stdout.contains("\ngroup "), shown.stdout)
    XCTAssertEqual(try daemon.run("view", "update", "sorted", "--no-sort").status, 0)
    XCTAssertFalse(try daemon.run("view", "show", "sorted").stdout.contains("\nsort "))
  }
}
