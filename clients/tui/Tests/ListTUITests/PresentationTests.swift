// Empty states, editing-only accessories and the sort/filter keys of a table, without a daemon.
import JSON
import ListTUI
import XCTest

final class PresentationTests: XCTestCase {
  /// An app with list `l` open, loaded from a windowed subscribe answer with `info` and `rows`.
  func app(info: JSONValue, rows: [JSONValue], width: Int = 60, height: Int = 12) -> TUIApp {
    var app = TUIApp(width: width, height: height, endpoint: "test")
    _ = app.handle(.connected, now: 0)
    _ = app.handle(.answer(.subscribeAll, .success(["lists": [["list": "l", "info": info]]])), now: 0)
    var subscribe: RequestTag?
    for case .request(let tag, "list/subscribe", _) in app.handle(.key(.enter), now: 0) { subscribe = tag }
    let entry: JSONValue = [
      "list": "l", "version": 0, "info": info,
      "window": [
        "offset": 0, "totalRows": .int(Int64(rows.count)),
        "rows": .array(
          rows.enumerated().map { index, row in
            guard case .object(var object) = row else { return row }
            object.append("section", "s")
            object.append("indexPath", [0, .int(Int64(index))])
            return .object(object)
          }),
        "sections": [],
      ],
      "sections": [["id": "s", "rows": .int(Int64(rows.count))]], "selection": [],
    ]
    _ = app.handle(.answer(subscribe!, .success(["lists": [entry]])), now: 0)
    return app
  }

  func text(_ app: TUIApp) -> [String] { Renderer.frame(app, time: 0).map(\.plainText) }

  func testAnEmptyListShowsItsEmptyStateCentred() {
    let app = app(
      info: [
        "list": "l", "title": "Inbox",
        "emptyState": [
          "title": "No Mail", "image": "tray", "description": "Messages you receive show here.",
        ],
      ], rows: [])
    let lines = text(app)
    let title = lines.firstIndex { $0.contains("No Mail") }
    XCTAssertNotNil(title, "\(lines)")
    let line = lines[title!]
    let indent = line.prefix { $0 == " " }.count
    XCTAssertEqual(indent, (60 - "No Mail".count) / 2, "centred across: \(lines)")
    XCTAssertTrue(lines.contains { $0.contains("◌ tray") }, "\(lines)")
    XCTAssertTrue(lines.contains { $0.contains("Messages you receive show here.") }, "\(lines)")
    XCTAssertGreaterThan(title!, 3, "centred down the screen: \(lines)")
    let bare = self.app(info: ["list": "l", "title": "Inbox"], rows: [])
    XCTAssertTrue(text(bare).contains { $0.contains("No Items") }, "\(text(bare))")
  }

  func testAccessoriesShownWhileEditingFollowIsEditing() throws {
    let row: JSONValue = [
      "id": "a", "text": "Alpha",
      "accessories": [
        ["type": "delete", "displayed": "whenEditing", "placement": "leading"],
        ["type": "disclosureIndicator", "displayed": "whenNotEditing"],
        ["type": "badge", "text": "7"],
      ],
    ]
    var app = app(info: ["list": "l", "title": "T"], rows: [row])
    var line = try XCTUnwrap(text(app).first { $0.contains("Alpha") })
    XCTAssertTrue(line.contains("›") && line.contains("7"), line)
    XCTAssertFalse(line.contains("⊖"), line)
    _ = app.handle(
      .notification(
        method: "list/didChange",
        params: ["list": "l", "version": 1, "previousVersion": 0, "changeset": ["editing": true]]), now: 0)
    XCTAssertEqual(app.view?.isEditing, true)
    line = try XCTUnwrap(text(app).first { $0.contains("Alpha") })
    XCTAssertTrue(line.contains("⊖ ") && line.contains("7"), line)
    XCTAssertLessThan(
      try XCTUnwrap(line.range(of: "⊖")).lowerBound, try XCTUnwrap(line.range(of: "Alpha")).lowerBound,
      "a leading accessory comes before the text: \(line)")
    XCTAssertFalse(line.contains("›"), line)
  }

  func testSKeyCyclesTheSortOfATableThroughAView() throws {
    let columns: JSONValue = [
      ["id": "name", "title": "Name", "sortable": true], ["id": "size", "title": "Size", "sortable": true],
      ["id": "note", "title": "Note"],
    ]
    var app = app(
      info: ["list": "l", "title": "T", "columns": columns],
      rows: [["id": "a", "cells": ["name": "x", "size": 1, "note": "n"]]])
    var effects = app.handle(.key(.char("s")), now: 0)
    guard case .request(let tag, "view/create", let params)? = effects.first else {
      return XCTFail("\(effects)")
    }
    XCTAssertEqual(params["source"], "l")
    XCTAssertEqual(params["sort"], [["field": "name", "descending": false]])
    XCTAssertTrue(app.handle(.key(.char("s")), now: 0).isEmpty, "one view at a time")
    effects = app.handle(.answer(tag, .success(["list": params["view"]!, "version": 0])), now: 0)
    XCTAssertEqual(
      effects.compactMap { effect -> String? in
        guard case .request(_, let method, _) = effect else { return nil }
        return method
      }.sorted(), ["list/setWindow", "list/subscribe"], "the view subscribed, the source's window released")
    var sorts: [JSONValue] = []
    for _ in 0..<4 {
      for case .request(_, "view/update", let update) in app.handle(.key(.char("s")), now: 0) {
        sorts.append(update["sort"] ?? "missing")
      }
    }
    XCTAssertEqual(
      sorts,
      [
        [["field": "name", "descending": true]], [["field": "size", "descending": false]],
        [["field": "size", "descending": true]], .null,
      ], "▲, ▼, the next sortable column, then the list's own order (Note is not sortable)")
    XCTAssertTrue(text(app)[0].contains("T · l ·"), "the title names the list, not its view: \(text(app))")
    _ = app.handle(.key(.char("q")), now: 0)
    XCTAssertNil(app.derived)
  }
}
