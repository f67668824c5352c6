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

  /// The rows of `view` as `show` prints them, in order: the commands of the demo's processes.
  private func commands(_ daemon: ListctlDaemon, _ view: String) throws -> [String] {
    let shown = try daemon.run("show", view)
    XCTAssertEqual(shown.status, 0, shown.stderr)
    let names = ["listd --listen", "swift-build", "nvim README", "defunct"]
    return shown.stdout.split(separator: "\n").compactMap { line in names.first { line.contains($0) } }
  }

  /// The demo's memory is a number (of MB): sorting by it orders by size, not alphabetically.
  func testSortingTheDemoProcessesByMemoryOrdersBySize() throws {
    let daemon = try ListctlDaemon(["--demo"])
    defer { daemon.stop() }
    XCTAssertEqual(try daemon.run("view", "create", "by-memory", "processes", "--sort", "memory").status, 0)
    XCTAssertEqual(
      try commands(daemon, "by-memory"), ["defunct", "listd --listen", "nvim README", "swift-build"])
  }

  /// A column title with a space names its column in --where, --sort and --group, as help says.
  func testColumnTitlesWithSpacesWork() throws {
    let daemon = try ListctlDaemon(["--demo"])
    defer { daemon.stop() }
    let busy = try daemon.run(
      "view", "create", "busy", "processes", "--where", "CPU % > 1", "--sort", "CPU %:desc")
    XCTAssertEqual(busy.status, 0, busy.stderr)
    XCTAssertEqual(try commands(daemon, "busy"), ["swift-build", "listd --listen"])
    let quoted = try daemon.run("view", "create", "big", "processes", "--where", #""Memory (MB)" >= 40"#)
    XCTAssertEqual(quoted.status, 0, quoted.stderr)
    XCTAssertEqual(try commands(daemon, "big"), ["swift-build", "nvim README"])
    let grouped = try daemon.run("view", "create", "g", "processes", "--group", "memory (mb)")
    XCTAssertEqual(grouped.status, 0, grouped.stderr)
    let info = try daemon.run("--json", "view", "show", "g")
    XCTAssertTrue(info.stdout.filter { !$0.isWhitespace }.contains(#""field":"cells.memory""#), info.stdout)
    XCTAssertTrue(try daemon.run("view", "--help").stdout.contains("--where 'CPU % > 1'"))
  }

  /// `text:down` names a field with a mistyped order: the order is what is refused, not the field.
  func testAMistypedSortOrderIsNamedAsTheOrder() throws {
    let daemon = try ListctlDaemon(["--demo"])
    defer { daemon.stop() }
    let sort = try daemon.run("view", "create", "v", "contacts", "--sort", "text:down")
    XCTAssertEqual(sort.status, 2, sort.stderr)
    XCTAssertTrue(
      sort.stderr.contains("--sort: unknown order 'down' in 'text:down' (asc, desc)"), sort.stderr)
    let group = try daemon.run("view", "create", "v", "contacts", "--group", "text:initail")
    XCTAssertEqual(group.status, 2, group.stderr)
    XCTAssertTrue(
      group.stderr.contains(
        "--group: unknown grouping 'initail' in 'text:initail' (did you mean 'initial'?) (initial, value)"),
      group.stderr)
    XCTAssertFalse(try daemon.run("lists").stdout.contains("\nv "))
  }

  /// A field that names nothing of the source is refused, naming it, before anything is made:
  /// by listctl (a usage error with the nearest field), and by the daemon for a column id.
  func testMisspeltFieldsAreRefused() throws {
    let daemon = try ListctlDaemon(["--demo"])
    defer { daemon.stop() }
    let sort = try daemon.run("view", "create", "v1", "contacts", "--sort", "nonsense")
    XCTAssertEqual(sort.status, 2, sort.stderr)
    XCTAssertTrue(sort.stderr.contains("--sort: unknown field 'nonsense'"), sort.stderr)
    let filter = try daemon.run("view", "create", "v4", "processes", "--where", "CPUU > 1")
    XCTAssertEqual(filter.status, 2, filter.stderr)
    XCTAssertTrue(
      filter.stderr.contains("--where: unknown field 'CPUU' (did you mean 'cpu'?)"), filter.stderr)
    let group = try daemon.run("view", "create", "v5", "processes", "--group", "cells.nope")
    XCTAssertEqual(group.status, 2, group.stderr)
    XCTAssertTrue(group.stderr.contains("unknown field 'cells.nope'"), group.stderr)
    // Sent as is (`call`), the daemon refuses a cell field that is not a column.
    let raw = try daemon.run(
      "call", "view/create", #"{"view": "v6", "source": "processes", "sort": [{"field": "cells.cpuu"}]}"#)
    XCTAssertEqual(raw.status, 1, raw.stderr)
    XCTAssertTrue(raw.stderr.contains(#""sort[0].field""#) && raw.stderr.contains("cells.cpuu"), raw.stderr)
    XCTAssertEqual(try daemon.run("lists", "--ids").stdout.split(separator: "\n").count, 6)
  }
}
