// Answers of requests sent on a screen the user has left: they stay behind with it.
import JSON
import ListTUI
import XCTest

final class LeftBehindAnswerTests: XCTestCase {
  /// The tag of the request in `effects` for `method`.
  func tag(_ effects: [AppEffect], _ method: String) -> RequestTag? {
    for case .request(let tag, method, _) in effects { return tag }
    return nil
  }

  /// An app with `l` (the fixture's, open and loaded) and `m` after it in the picker.
  func openedWithNext(_ fixture: inout ModelFixture) -> TUIApp {
    var app = TUIApp(width: 80, height: 12, endpoint: "test")
    _ = app.handle(.connected, now: 0)
    let lists: JSONValue = [
      ["list": "l", "info": ["list": "l", "title": "Todo", "rows": 3, "version": 0]],
      ["list": "m", "info": ["list": "m", "title": "Contacts", "rows": 0, "version": 0]],
    ]
    _ = app.handle(.answer(.subscribeAll, .success(["lists": lists])), now: 0)
    serve(&app, &fixture, app.handle(.key(.enter), now: 0))
    XCTAssertEqual(app.view?.list, "l")
    return app
  }

  /// `r` on a list without owner, then Tab: the refresh's failure stays with the list left, and
  /// the next list's `r` refreshes it.
  func testARefreshLeftBehindWithTabDoesNotFollowToTheNextList() throws {
    var fixture = try ModelFixture(rows: 3)
    var app = openedWithNext(&fixture)
    let refresh = try XCTUnwrap(tag(app.handle(.key(.char("r")), now: 1), "event/refresh"))
    let search = try XCTUnwrap(
      tag(
        app.handle(.key(.char("/")), now: 1) + app.handle(.key(.char("x")), now: 1)
          + app.handle(.key(.enter), now: 1), "query/search"))
    let opened = app.handle(.key(.tab), now: 1)
    XCTAssertEqual(app.view?.list, "m", "Tab opens the next list")
    XCTAssertNotNil(tag(opened, "list/subscribe"))
    XCTAssertNil(app.refreshingSince, "no refresh in flight on the list just opened")

    let noOwner = RequestFailure(code: -32016, message: "list 'l' has no owner to receive user events")
    _ = app.handle(.answer(refresh, .failure(noOwner)), now: 2)
    XCTAssertNil(app.shownMessage(at: 2), "the refresh's failure is not said on the next list")
    _ = app.handle(.answer(search, .failure(RequestFailure(code: nil, message: "late"))), now: 2)
    XCTAssertNil(app.shownMessage(at: 2), "nor any other failure of the list left")
    let status = Renderer.frame(app, time: 2).last!.plainText
    XCTAssertFalse(status.contains("no owner") || status.contains("refreshing"), status)
    XCTAssertNotNil(
      tag(app.handle(.key(.char("r")), now: 3), "event/refresh"), "r refreshes the list now shown")
  }

  /// A resync of the open list (a changeset that does not fit) while a refresh is in flight: the
  /// refresh's answer still ends the spinner, so `r` works again.
  func testARefreshOutlivesAResyncOfTheSameList() throws {
    var fixture = try ModelFixture(rows: 3)
    var app = openedWithNext(&fixture)
    let refresh = try XCTUnwrap(tag(app.handle(.key(.char("r")), now: 1), "event/refresh"))
    let gap: JSONValue = ["list": "l", "version": 9, "previousVersion": 7, "changeset": [:]]
    let resync = app.handle(.notification(method: "list/didChange", params: gap), now: 1)
    XCTAssertNotNil(tag(resync, "list/subscribe"), "a changeset that does not fit resyncs")
    serve(&app, &fixture, resync)
    _ = app.handle(.answer(refresh, .success(["version": 1])), now: 2)
    XCTAssertNil(app.refreshingSince, "the answer ended the refresh")
    XCTAssertEqual(app.shownMessage(at: 2)?.text, "refreshed (v1)")
    XCTAssertNotNil(tag(app.handle(.key(.char("r")), now: 3), "event/refresh"))
  }
}
