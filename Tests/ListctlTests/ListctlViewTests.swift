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
}
