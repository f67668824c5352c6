// The `w` panel without a terminal: its request, its answer, failures, and answers that come too late.
import JSON
import ListTUI
import XCTest

final class ExplainPanelTests: XCTestCase {
  func testWAsksListExplainForTheCursorRowAndShowsTheAnswerInWords() throws {
    var fixture = try ModelFixture(rows: 3)
    var app = opened(&fixture, width: 80, height: 14)
    let effects = app.handle(.key(.char("w")), now: 0)
    XCTAssertEqual(
      effects,
      [
        .request(
          .explain(list: "l", item: "i0"), method: "list/explain", params: ["list": "l", "item": "i0"])
      ])
    XCTAssertTrue(text(app).contains("asking list/explain…"))
    let answer: JSONValue = [
      "list": "l", "version": 4, "item": "i0",
      "explain": [
        "source": ["method": "list/edit", "by": ["session": 2, "name": "ed"]],
        "causes": [
          [
            "change": "itemReconfigures", "entry": 0, "offset": 0, "count": 1, "item": "i0",
            "reason": "changed",
            "fields": [["field": "text", "old": "Item 0", "new": "Item zero"]],
            "edit": ["index": 1, "op": "patchItems"],
          ]
        ],
      ],
    ]
    _ = app.handle(.answer(.explain(list: "l", item: "i0"), .success(answer)), now: 0)
    let shown = text(app)
    for line in [
      "Why · ", "v4 · list/edit by session 2 (ed)", "changed (edit 1: patchItems)",
      "text: \"Item 0\" → \"Item zero\"",
    ] {
      XCTAssertTrue(shown.contains(line), "\(line) in:\n\(shown)")
    }
    XCTAssertTrue(app.handle(.key(.char("j")), now: 0).isEmpty, "other keys wait while the panel is open")
    XCTAssertEqual(app.view?.cursorID, "i0")
    _ = app.handle(.key(.char("q")), now: 0)
    XCTAssertNil(app.overlay, "q closes the panel, not the list")
    XCTAssertEqual(app.screen, .list)
  }

  func testAFailureShowsInThePanelAndALateAnswerIsDropped() throws {
    var fixture = try ModelFixture(rows: 3)
    var app = opened(&fixture, width: 80, height: 14)
    _ = app.handle(.key(.char("w")), now: 0)
    _ = app.handle(
      .answer(
        .explain(list: "l", item: "i0"), .failure(RequestFailure(code: -32601, message: "unknown method"))),
      now: 0)
    XCTAssertTrue(text(app).contains("list/explain: unknown method (-32601)"))
    _ = app.handle(.key(.escape), now: 0)
    _ = app.handle(.answer(.explain(list: "l", item: "i0"), .success(["version": nil])), now: 0)
    XCTAssertNil(app.overlay, "an answer after the panel closed opens nothing")
    _ = app.handle(.key(.char("j")), now: 0)
    _ = app.handle(.key(.char("w")), now: 0)
    _ = app.handle(.answer(.explain(list: "l", item: "i0"), .success(["version": nil])), now: 0)
    XCTAssertTrue(text(app).contains("asking list/explain…"), "an answer for another row is dropped")
    _ = app.handle(.answer(.explain(list: "l", item: "i1"), .success(["version": nil])), now: 0)
    XCTAssertTrue(text(app).contains("No kept change concerns this row."))
  }

  func text(_ app: TUIApp) -> String { Renderer.frame(app, time: 0).map(\.plainText).joined(separator: "\n") }
}
