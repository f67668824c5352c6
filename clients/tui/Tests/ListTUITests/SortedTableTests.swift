// A sorted table as a new user meets it: its status line, its header, its messages and a reconnect under it.
import JSON
import ListTUI
import XCTest

final class SortedTableTests: XCTestCase {
  static let columns: JSONValue = [
    ["id": "name", "title": "Name", "sortable": true], ["id": "pid", "title": "PID", "sortable": true],
  ]

  /// `rows` as the window rows of section `section` of `list`.
  static func windowRows(_ rows: [JSONValue], section: String) -> JSONValue {
    .array(
      rows.enumerated().map { index, row in
        guard case .object(var object) = row else { return row }
        object.append("section", .string(section))
        object.append("indexPath", [0, .int(Int64(index))])
        return .object(object)
      })
  }

  /// A windowed `list/subscribe` answer: `list` at `version`, one section `section` (its header).
  static func entry(
    _ list: JSONValue, version: Int, rows: [JSONValue], section: String, header: String? = nil
  ) -> JSONValue {
    var sectionObject: JSONObject = ["id": .string(section), "rows": .int(Int64(rows.count))]
    if let header { sectionObject.append("header", .string(header)) }
    return [
      "lists": [
        [
          "list": list, "version": .int(Int64(version)), "info": ["list": list, "columns": columns],
          "window": [
            "offset": 0, "totalRows": .int(Int64(rows.count)), "rows": windowRows(rows, section: section),
            "sections": [],
          ],
          "sections": [.object(sectionObject)], "selection": [],
        ]
      ]
    ]
  }

  static let rows: [JSONValue] = [["id": "a", "cells": ["name": "x", "pid": 1]]]

  /// Answers the list/subscribe requests among `effects` for the source `l` (v3, section
  /// `running` headed "Running") or a view (v5, its one section `items`); returns the others.
  func serve(_ app: inout TUIApp, _ effects: [AppEffect], now: Double = 0) -> [AppEffect] {
    var others: [AppEffect] = []
    for effect in effects {
      guard case .request(let tag, "list/subscribe", let params) = effect, let list = params["list"] else {
        others.append(effect)
        continue
      }
      let answer =
        list == "l"
        ? Self.entry(list, version: 3, rows: Self.rows, section: "running", header: "Running")
        : Self.entry(list, version: 5, rows: Self.rows, section: "items")
      others += serve(&app, app.handle(.answer(tag, .success(answer)), now: now), now: now)
    }
    return others
  }

  /// An app with the table `l` (v3) open.
  func opened() -> TUIApp {
    var app = TUIApp(width: 100, height: 12, endpoint: "test")
    _ = app.handle(.connected, now: 0)
    let info: JSONValue = [
      "list": "l", "title": "Processes", "columns": Self.columns, "version": 3, "rows": 1,
    ]
    _ = app.handle(.answer(.subscribeAll, .success(["lists": [["list": "l", "info": info]]])), now: 0)
    XCTAssertEqual(serve(&app, app.handle(.key(.enter), now: 0)), [])
    return app
  }

  /// Answers the `view/create` among `effects` and subscribes to the view; returns the others.
  func created(_ app: inout TUIApp, _ effects: [AppEffect], now: Double = 0) -> [AppEffect] {
    var others: [AppEffect] = []
    for effect in effects {
      guard case .request(let tag, "view/create", let params) = effect else {
        others.append(effect)
        continue
      }
      others += serve(
        &app, app.handle(.answer(tag, .success(["list": params["view"]!, "version": 0])), now: now))
    }
    return others
  }

  /// `l` sorted by Name ▲ (the view loaded).
  func sorted() -> TUIApp {
    var app = opened()
    _ = created(&app, app.handle(.key(.char("s")), now: 1), now: 1)
    XCTAssertNotEqual(app.view?.list, "l", "the view is shown")
    return app
  }

  func statusLine(_ app: TUIApp, time: Double = 1) -> String {
    Renderer.frame(app, time: time).last!.plainText
  }

  /// A message said on a list does not show when the list is opened again (s, q, Enter), nor
  /// does the answer of a request sent before leaving it that arrives after it was opened again.
  func testAMessageDoesNotFollowToTheSameListOpenedAgain() {
    var app = opened()
    _ = app.handle(.key(.char("t")), now: 1)
    XCTAssertNotNil(app.shownMessage(at: 1))
    _ = app.handle(.key(.char("q")), now: 1)
    _ = serve(&app, app.handle(.key(.enter), now: 1), now: 1)
    XCTAssertNil(app.shownMessage(at: 1), "said on the list before it was left")

    let delete = app.handle(.key(.char("d")), now: 2)
    guard case .request(let tag, "event/delete", _)? = delete.first else { return XCTFail("\(delete)") }
    _ = app.handle(.key(.char("q")), now: 2)
    _ = serve(&app, app.handle(.key(.enter), now: 2), now: 2)
    _ = app.handle(.answer(tag, .success([:])), now: 2)
    XCTAssertNil(app.shownMessage(at: 2), "the answer of a request sent on the list before it was left")

    var sorted = sorted()
    _ = sorted.handle(.key(.char("q")), now: 1)
    _ = serve(&sorted, sorted.handle(.key(.enter), now: 1), now: 1)
    XCTAssertFalse(statusLine(sorted).contains("sorted"), statusLine(sorted))
  }

  /// The status line of a sorted table shows the source list's version (the one the picker
  /// shows), not the view's, and a last change at the version shown does not repeat it.
  func testTheStatusLineShowsTheSourcesVersionOnce() throws {
    var app = sorted()
    var line = statusLine(app)
    XCTAssertTrue(line.contains(" l v3 "), line)
    XCTAssertFalse(line.contains("v5"), "not the view's version: \(line)")
    let view = try XCTUnwrap(app.view?.list)
    _ = app.handle(
      .notification(
        method: "list/didChange",
        params: ["list": .string(view), "version": 6, "previousVersion": 5, "changeset": ["selected": ["a"]]]),
      now: 1)
    line = statusLine(app)
    XCTAssertFalse(line.contains("v5") || line.contains("v6"), "not the view's version: \(line)")
    XCTAssertTrue(line.contains("✓1"), line)

    var plain = opened()
    _ = plain.handle(
      .notification(
        method: "list/didChange",
        params: ["list": "l", "version": 4, "previousVersion": 3, "changeset": ["selected": ["a"]]]),
      now: 1)
    line = statusLine(plain)
    XCTAssertEqual(line.components(separatedBy: "v4").count, 2, "the version once: \(line)")
    XCTAssertTrue(line.contains("✓1"), line)
  }

  /// One sort in the status line (not again as a message), `1 row`, and the view's one section
  /// keeps a header line saying what it holds, as the Neovim plugin's does.
  func testASortedTableSaysItsSortOnceAndKeepsAHeader() {
    let plain = opened()
    XCTAssertTrue(statusLine(plain).contains("· 1 row ·"), statusLine(plain))
    XCTAssertTrue(Renderer.frame(plain, time: 1).map(\.plainText).contains { $0.contains("Running") })
    var app = sorted()
    let line = statusLine(app)
    XCTAssertEqual(line.components(separatedBy: "sorted by Name ▲").count, 2, "once: \(line)")
    XCTAssertTrue(line.contains("· 1 row ·"), line)
    let frame = Renderer.frame(app, time: 1).map(\.plainText)
    XCTAssertTrue(frame.contains { $0.contains("all rows of l, sorted by Name ▲") }, "\(frame)")
    _ = app.handle(.key(.char("s")), now: 1)
    let sortedDown = Renderer.frame(app, time: 1).map(\.plainText)
    XCTAssertTrue(sortedDown.contains { $0.contains("all rows of l, sorted by Name ▼") }, "\(sortedDown)")
    for key in [Key.char("/"), .char("x"), .enter] { _ = app.handle(.key(key), now: 1) }
    let filtered = Renderer.frame(app, time: 1).map(\.plainText)
    XCTAssertTrue(filtered.contains { $0.contains("rows of l, sorted by Name ▼, filter 'x'") }, "\(filtered)")
    XCTAssertFalse(filtered.last!.contains("filter 'x'  "), "not said again as a message: \(filtered)")
  }

  /// A reconnect under a sorted table makes the view again (a new one: the daemon may have
  /// restarted, or still hold the old one, which is disposed) and says "reconnected".
  func testAReconnectMakesTheSortedViewAgain() throws {
    var app = sorted()
    let old = try XCTUnwrap(app.derived?.view)
    _ = app.handle(.disconnected("connection lost"), now: 2)
    let effects = app.handle(.connected, now: 3)
    XCTAssertTrue(
      effects.contains {
        $0 == .request(.dispose(old), method: "list/dispose", params: ["list": .string(old)])
      }, "\(effects)")
    let info: JSONValue = [
      "list": "l", "title": "Processes", "columns": Self.columns, "version": 3, "rows": 1,
    ]
    let resubscribe = app.handle(
      .answer(.subscribeAll, .success(["lists": [["list": "l", "info": info]]])), now: 3)
    let rest = created(&app, serve(&app, resubscribe, now: 3), now: 3)
    XCTAssertTrue(
      rest.allSatisfy { if case .request(_, "view/create", _) = $0 { false } else { true } }, "\(rest)")
    XCTAssertEqual(app.derived?.sort?.column, "name")
    XCTAssertEqual(app.derived?.sort?.descending, false)
    XCTAssertEqual(app.derived?.created, true)
    XCTAssertNotEqual(app.view?.list, "l", "the view is shown")
    XCTAssertNotEqual(app.view?.list, old, "a new view")
    let line = statusLine(app, time: 3)
    XCTAssertTrue(line.contains("sorted by Name ▲"), line)
    XCTAssertEqual(app.shownMessage(at: 3)?.text, "reconnected")
  }
}
