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

  func testATableIsDrawnInColumnsAndSortedAndFilteredByALiveView() async throws {
    daemon = try Daemon()
    let tmux = try Tmux(daemon.tuiCommand(["--list", "files"], log: log), width: 100, height: 20)
    self.tmux = tmux
    let owner = try await daemon.client("owner")
    defer { owner.close() }
    func file(_ id: String, _ name: String, _ size: Int, _ type: String, kind: String? = nil) -> JSONValue {
      var object: JSONObject = [
        "id": .string(id), "text": .string(name),
        "cells": ["name": .string(name), "size": .int(Int64(size)), "type": .string(type)],
      ]
      if let kind { object.append("kind", .string(kind)) }
      return .object(object)
    }
    let long = "A file name far too long for any column of this table to show whole.txt"
    _ = try await owner.create(
      "files", title: "Files",
      columns: [
        ["id": "name", "title": "Name", "sortable": true],
        ["id": "size", "title": "Size", "alignment": "trailing", "sortable": true],
        ["id": "type", "title": "Type", "width": 8],
      ],
      content: [
        "sections": [
          [
            "id": "all",
            "items": [
              file("c", "Cargo.toml", 900, "toml"), file("r", "README.md", 12_000, "markdown"),
              file("a", "app.swift", 300, "swift source"), file("l", long, 5, "text"),
              file("s", "Sources", 4_096, "folder", kind: "directory"),
            ],
          ]
        ]
      ])
    var screen = tmux.wait(forText: "Files · files", "Name", "Size", "Type", "Cargo.toml", "README.md")
    // The header row, then aligned cells: sizes right-aligned under "Size", a cell cut with "…"
    // to its width hint, a long name cut to the widest automatic column.
    let header = try XCTUnwrap(lines(screen).first { $0.contains("Name") && $0.contains("Size") })
    let readme = try XCTUnwrap(lines(screen).first { $0.contains("README.md") })
    let cargo = try XCTUnwrap(lines(screen).first { $0.contains("Cargo.toml") })
    let sizeEnd = try XCTUnwrap(header.range(of: "Size")).upperBound
    XCTAssertEqual(
      readme[
        ..<readme.index(readme.startIndex, offsetBy: header.distance(from: header.startIndex, to: sizeEnd))
      ]
      .hasSuffix("12000"), true, "sizes end under the Size title:\n\(screen)")
    XCTAssertTrue(
      cargo[..<cargo.index(cargo.startIndex, offsetBy: header.distance(from: header.startIndex, to: sizeEnd))]
        .hasSuffix("900"), "sizes end under the Size title:\n\(screen)")
    XCTAssertEqual(
      header.distance(from: header.startIndex, to: try XCTUnwrap(header.range(of: "Name")).lowerBound),
      cargo.distance(from: cargo.startIndex, to: try XCTUnwrap(cargo.range(of: "Cargo.toml")).lowerBound),
      "names start under the Name title")
    XCTAssertTrue(screen.contains("swift s…"), "a cell cut to its column's width of 8:\n\(screen)")
    XCTAssertTrue(screen.contains("A file name far too long") && screen.contains("…"), screen)
    XCTAssertFalse(screen.contains("show whole.txt"), screen)
    XCTAssertTrue(screen.contains("‹directory›"), "the kind is shown:\n\(screen)")
    let names = ["Cargo.toml", "README.md", "app.swift", "A file name", "Sources"]
    XCTAssertEqual(order(names, on: screen), names, "the source's order")

    // s: sorted by the daemon through a live view, ▲ then ▼ on the sort column.
    try tmux.send("s")
    screen = tmux.wait(forText: "Name ▲", "sorted by Name ▲")
    tmux.wait(for: "rows in name order") { screen in
      self.order(names, on: screen) == ["A file name", "app.swift", "Cargo.toml", "README.md", "Sources"]
    }
    try tmux.send("s")
    tmux.wait(for: "rows in reverse name order") { screen in
      screen.contains("Name ▼")
        && self.order(names, on: screen) == [
          "Sources", "README.md", "Cargo.toml", "app.swift", "A file name",
        ]
    }
    try tmux.send("s")
    tmux.wait(for: "rows by size") { screen in
      screen.contains("Size ▲") && !screen.contains("Name ▼")
        && self.order(names, on: screen) == [
          "A file name", "app.swift", "Cargo.toml", "Sources", "README.md",
        ]
    }
    // The view stays live: a change of the source moves its row.
    _ = try await owner.edit(
      "files", [["op": "patchItems", "items": [["id": "a", "cells": ["size": 99_999]]]]])
    tmux.wait(for: "app.swift moved to the end") { screen in
      self.order(names, on: screen) == ["A file name", "Cargo.toml", "Sources", "README.md", "app.swift"]
    }

    // /: filtered by the view; a filter that matches nothing shows the search empty state.
    try tmux.send("/", "r", "e", "a", "d", "Enter")
    tmux.wait(for: "only README.md") { screen in
      screen.contains("filter 'read'") && screen.contains("README.md") && !screen.contains("Cargo.toml")
    }
    try tmux.send("/", "z", "z", "z", "Enter")
    screen = tmux.wait(forText: "No Results for “zzz”", "Check the spelling or try a new search.")
    let empty = try XCTUnwrap(lines(screen).first { $0.contains("No Results") })
    let indent = empty.prefix { $0 == " " }.count
    let trailing = 100 - indent - "No Results for “zzz”".count
    XCTAssertLessThanOrEqual(abs(indent - trailing), 1, "centred:\n\(screen)")
    try tmux.send("/", "Enter")
    tmux.wait(for: "every row again, still by size") { screen in
      self.order(names, on: screen) == ["A file name", "Cargo.toml", "Sources", "README.md", "app.swift"]
    }

    // The daemon did the work: one view created, then updated; disposed when the list is closed.
    try tmux.send("q")
    tmux.wait(forText: "listd · lists (1)")
    let sent = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(sent.filter { $0.contains("→ view/create") }.count, 1)
    XCTAssertEqual(sent.filter { $0.contains("→ view/update") }.count, 5, sent.joined(separator: "\n"))
    XCTAssertFalse(sent.contains { $0.contains("→ query/search") }, "a table filters, it does not search")
    let view = try XCTUnwrap(
      sent.first { $0.contains("→ view/create") }?.split(separator: "\"view\":\"").last?.split(
        separator: "\""
      )
      .first)
    tmux.wait(for: "the view disposed") { _ in
      (try? String(contentsOfFile: self.log, encoding: .utf8))?.contains(
        "→ list/dispose {\"list\":\"\(view)\"}")
        == true
    }
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
