// The controller without a terminal: keys become the right requests, errors and disconnects show.
import JSON
import ListModel
import ListTUI
import XCTest

final class AppTests: XCTestCase {
  func request(_ effects: [AppEffect]) -> (method: String, params: JSONValue)? {
    for case .request(_, let method, let params) in effects { return (method, params) }
    return nil
  }

  func testToggleSendsTheNegatedStateAndSelectFollowsTheSelection() throws {
    var snapshot = ListSnapshot(selectionMode: .multiple)
    try snapshot.appendSections(["s"])
    try snapshot.appendItems([
      ListItem(
        "on", payload: ItemPayload(content: ItemContent(text: "On"), accessories: [.toggle(isOn: true)])),
      ListItem("plain", payload: ItemPayload(text: "Plain")),
    ])
    var fixture = ModelFixture(snapshot)
    var app = opened(&fixture)
    let toggle = try XCTUnwrap(request(app.handle(.key(.char("t")), now: 0)))
    XCTAssertEqual(toggle.method, "event/toggle")
    XCTAssertEqual(toggle.params, ["list": "l", "item": "on", "isOn": false])
    let select = try XCTUnwrap(request(app.handle(.key(.char(" ")), now: 0)))
    XCTAssertEqual(select.method, "event/select")
    _ = app.handle(
      .notification(method: "list/didChange", params: try fixture.change { try $0.select(["on"]) }), now: 0)
    XCTAssertEqual(request(app.handle(.key(.enter), now: 0))?.method, "event/deselect")
    _ = app.handle(.key(.char("j")), now: 0)
    XCTAssertNil(request(app.handle(.key(.char("t")), now: 0)), "no toggle, no request")
    XCTAssertEqual(app.message?.text, "Plain has no toggle")
    _ = app.handle(
      .notification(method: "list/didChange", params: try fixture.change { $0.setSelectionMode(.none) }),
      now: 0)
    XCTAssertNil(request(app.handle(.key(.enter), now: 0)), "no selection in mode none")
    XCTAssertEqual(app.message?.text, "this list does not select (selection mode none)")
  }

  func testActionsPopupSendsTheChosenAction() throws {
    var snapshot = ListSnapshot(selectionMode: .single)
    try snapshot.appendSections(["s"])
    try snapshot.appendItems([
      ListItem(
        "m",
        payload: ItemPayload(
          content: ItemContent(text: "Mail"),
          accessories: [.popUpMenu([ListAction(id: "small", title: "Small")])],
          leadingSwipeActions: [ListAction(id: "pin", title: "Pin")],
          trailingSwipeActions: [ListAction(id: "delete", title: "Delete", style: .destructive)],
          contextMenuActions: [
            ListAction(id: "copy", title: "Copy"), ListAction(id: "delete", title: "Delete"),
          ]))
    ])
    var fixture = ModelFixture(snapshot)
    var app = opened(&fixture)
    _ = app.handle(.key(.char("a")), now: 0)
    guard case .actions(let menu) = app.overlay else { return XCTFail("no popup") }
    XCTAssertEqual(menu.actions.map(\.id), ["pin", "delete", "copy", "small"], "each action once")
    XCTAssertEqual(menu.actions.map(\.destructive), [false, true, false, false])
    XCTAssertTrue(Renderer.frame(app, time: 0).map(\.plainText).joined().contains("Actions · Mail"))
    _ = app.handle(.key(.down), now: 0)
    _ = app.handle(.key(.down), now: 0)
    let action = try XCTUnwrap(request(app.handle(.key(.enter), now: 0)))
    XCTAssertEqual(action.method, "event/action")
    XCTAssertEqual(action.params, ["list": "l", "item": "m", "action": "copy"])
    XCTAssertNil(app.overlay)
    _ = app.handle(.key(.char("a")), now: 0)
    XCTAssertEqual(request(app.handle(.key(.char("4")), now: 0))?.params["action"], "small")
  }

  func testOutlineKeys() throws {
    var snapshot = ListSnapshot(selectionMode: .single)
    try snapshot.appendSections(["s"])
    try snapshot.appendTrees([
      OutlineNode(ListItem("a"), children: [OutlineNode(ListItem("a1"))], isExpanded: true),
      OutlineNode(ListItem("b"), children: [OutlineNode(ListItem("b1"))]),
    ])
    var fixture = ModelFixture(snapshot)
    var app = opened(&fixture)
    XCTAssertEqual(request(app.handle(.key(.char("h")), now: 0))?.method, "outline/collapse")
    XCTAssertNil(
      request(app.handle(.key(.char("l")), now: 0)), "l on an expanded row goes to its first child")
    XCTAssertEqual(app.view?.cursorID, "a1")
    XCTAssertNil(request(app.handle(.key(.left), now: 0)), "h on a leaf goes to its parent")
    XCTAssertEqual(app.view?.cursorID, "a")
    _ = app.handle(.key(.char("G")), now: 0)
    // The view follows the notifications: its outline requests ask for lean answers.
    XCTAssertEqual(
      request(app.handle(.key(.right), now: 0))?.params, ["list": "l", "item": "b", "rows": "none"])
    XCTAssertEqual(request(app.handle(.key(.char("e")), now: 0))?.params, ["list": "l", "rows": "none"])
    XCTAssertEqual(request(app.handle(.key(.char("E")), now: 0))?.method, "outline/collapse")
  }

  func testErrorsShowInTheStatusLineAndDisconnectsDoNotCrash() throws {
    var fixture = try ModelFixture(rows: 3)
    var app = opened(&fixture)
    _ = app.handle(.key(.char("d")), now: 1)
    _ = app.handle(
      .answer(.userEvent(what: "delete item 0"), .failure(RequestFailure(code: -32016, message: "no owner"))),
      now: 1)
    XCTAssertEqual(app.message?.error, true)
    XCTAssertTrue(Renderer.frame(app, time: 1).last!.plainText.contains("delete item 0: no owner (-32016)"))
    _ = app.handle(.tick, now: 100)
    XCTAssertNil(app.message, "messages expire")
    _ = app.handle(.disconnected("connection lost"), now: 100)
    XCTAssertTrue(Renderer.frame(app, time: 100).last!.plainText.contains("disconnected — retrying"))
    XCTAssertTrue(app.handle(.key(.char("j")), now: 100).isEmpty, "no fetch while disconnected")
    let effects = app.handle(.connected, now: 101)
    XCTAssertEqual(effects.compactMap { self.request([$0])?.method }, ["list/subscribe"])
    let info: JSONValue = ["list": .string(fixture.list), "title": "T", "rows": 3, "version": 0]
    let resubscribe = app.handle(
      .answer(.subscribeAll, .success(["lists": [["list": .string(fixture.list), "info": info]]])), now: 101)
    XCTAssertEqual(
      resubscribe.compactMap { self.request([$0])?.params["window"] == nil ? nil : "windowed" }, ["windowed"],
      "the open list is subscribed again with its window, after the subscription to every list")
    serve(&app, &fixture, resubscribe)
    XCTAssertEqual(app.view?.cursorID, "i1", "the cursor kept its item across the reconnect")
  }

  /// `--list` naming a list created just after the TUI asked for it: the daemon does not know it
  /// yet, but its list/didCreate has come before that answer. The TUI asks again (once), rather
  /// than staying on the picker.
  func testAListCreatedWhileItsSubscribeWasInFlightOpensAfterAll() throws {
    var app = TUIApp(width: 80, height: 20, endpoint: "test", open: "inbox")
    _ = app.handle(.connected, now: 0)
    let info: JSONValue = ["list": "inbox", "title": "Inbox", "rows": 2, "version": 0]
    // Listed by the subscription to every list: opened.
    let opening = app.handle(
      .answer(.subscribeAll, .success(["lists": [["list": "inbox", "info": info]]])), now: 0)
    XCTAssertEqual(opening.compactMap { self.request([$0])?.params["list"]?.stringValue }, ["inbox"])
    struct NoSubscribe: Error {}
    func tag(_ effects: [AppEffect]) throws -> RequestTag {
      for case .request(let tag, let method, let params) in effects
      where method == "list/subscribe" && params["list"] != nil {
        return tag
      }
      throw NoSubscribe()
    }
    _ = app.handle(.notification(method: "list/didCreate", params: ["list": "inbox", "info": info]), now: 0)
    let failure = RequestFailure(code: -32010, message: "unknown list 'inbox'")
    let again = app.handle(.answer(try tag(opening), .failure(failure)), now: 0)
    XCTAssertEqual(
      again.compactMap { self.request([$0])?.params["list"]?.stringValue }, ["inbox"], "asked again")
    // A second refusal: waited for, not asked again (a stale picker cannot loop).
    let waited = app.handle(.answer(try tag(again), .failure(failure)), now: 0)
    XCTAssertNil(try? tag(waited), "not asked again")
    let screen = Renderer.frame(app, time: 0).map(\.plainText).joined(separator: " ")
    XCTAssertTrue(screen.contains("opens again when it is"), screen)
  }

  /// A message belongs to the screen it is about: an answer that arrives after the user left its
  /// list is not said, and a message said on a list does not follow to the picker. One too long
  /// for the status line is wrapped above it, whole.
  func testAMessageStaysWithItsScreenAndALongOneIsWrapped() throws {
    var fixture = try ModelFixture(rows: 3)
    var app = opened(&fixture, width: 40, height: 12)
    let delete = app.handle(.key(.char("d")), now: 1)
    guard case .request(let tag, _, _)? = delete.first else { return XCTFail("no request: \(delete)") }
    _ = app.handle(.key(.char("q")), now: 1)
    _ = app.handle(.answer(tag, .success([:])), now: 1)
    XCTAssertNil(app.shownMessage(at: 1), "the answer came after the user left the list")
    XCTAssertFalse(Renderer.frame(app, time: 1).last!.plainText.contains("delete item 0"))

    serve(&app, &fixture, app.handle(.key(.enter), now: 2))
    _ = app.handle(.key(.char("t")), now: 2)
    XCTAssertTrue(Renderer.frame(app, time: 2).map(\.plainText).joined().contains("item 0 has no toggle"))
    _ = app.handle(.key(.char("q")), now: 2)
    XCTAssertFalse(
      Renderer.frame(app, time: 2).map(\.plainText).joined().contains("has no toggle"), "not on the picker")

    serve(&app, &fixture, app.handle(.key(.enter), now: 3))
    let long = "toggle item 0 on: a reason far longer than the forty columns of this terminal (-32014)"
    _ = app.handle(
      .answer(
        .userEvent(what: "toggle item 0 on", list: "l"),
        .failure(
          RequestFailure(code: -32014, message: "a reason far longer than the forty columns of this terminal")
        )),
      now: 3)
    let frame = Renderer.frame(app, time: 3).map(\.plainText)
    XCTAssertEqual(frame.count, 12)
    let text = frame.dropLast().map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    XCTAssertTrue(text.hasSuffix(long), "wrapped above the status line: \(frame)")
    XCTAssertFalse(frame.joined().contains("…"), "nothing cut: \(frame)")
  }

  func testPickerStaysLiveAndQuitGoesBackThenQuits() throws {
    var fixture = try ModelFixture(rows: 3)
    var app = opened(&fixture)
    _ = app.handle(
      .notification(
        method: "list/didCreate",
        params: ["list": "z", "info": ["list": "z", "title": "Zed", "rows": 7, "version": 2]]), now: 0)
    XCTAssertEqual(
      app.handle(.key(.char("q")), now: 0),
      [.request(.release("l"), method: "list/setWindow", params: ["list": "l", "offset": 0, "limit": 0])],
      "a closed list goes back to an empty window")
    XCTAssertEqual(app.screen, .picker)
    let text = Renderer.frame(app, time: 0).map(\.plainText)
    XCTAssertTrue(
      text.contains { $0.contains("Zed") && $0.contains("7 rows") && $0.contains("v2") }, "\(text)")
    let effects = app.handle(
      .notification(
        method: "list/didChange", params: ["list": "z", "version": 3, "previousVersion": 2, "changeset": [:]]),
      now: 0)
    XCTAssertEqual(request(effects)?.method, "list/info", "a changed list's row count is refetched")
    _ = app.handle(.notification(method: "list/didDispose", params: ["list": "z", "version": 3]), now: 0)
    XCTAssertFalse(Renderer.frame(app, time: 0).map(\.plainText).joined().contains("Zed"))
    XCTAssertEqual(app.handle(.key(.char("q")), now: 0), [.quit])
  }
}
