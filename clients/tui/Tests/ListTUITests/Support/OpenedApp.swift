// An app with a list open, its requests answered from a ModelFixture: the controller and renderer without a daemon.
import JSON
import ListTUI
import XCTest

extension XCTestCase {
  /// An app connected to a daemon holding `fixture`, with the list open and its window loaded.
  func opened(_ fixture: inout ModelFixture, width: Int = 80, height: Int = 12) -> TUIApp {
    var app = TUIApp(width: width, height: height, endpoint: "test")
    var effects = app.handle(.connected, now: 0)
    XCTAssertEqual(
      effects,
      [.request(.subscribeAll, method: "list/subscribe", params: ["window": ["offset": 0, "limit": 0]])])
    let info: JSONValue = ["list": .string(fixture.list), "title": "T", "rows": 1, "version": 0]
    effects = app.handle(
      .answer(.subscribeAll, .success(["lists": [["list": .string(fixture.list), "info": info]]])), now: 0)
    effects = app.handle(.key(.enter), now: 0)
    serve(&app, &fixture, effects)
    return app
  }

  /// Answers the requests in `effects` (and those they lead to) from `fixture`.
  func serve(_ app: inout TUIApp, _ fixture: inout ModelFixture, _ effects: [AppEffect]) {
    var queue = effects
    while !queue.isEmpty {
      guard case .request(let tag, let method, let params) = queue.removeFirst() else { continue }
      let answer: JSONValue
      switch method {
      case "list/subscribe" where params["list"] != nil:
        let window = params["window"]!
        answer = fixture.subscribeAnswer(
          offset: Int(window["offset"]!.intValue!), limit: Int(window["limit"]!.intValue!))
      case "list/setWindow" where params["list"]?.stringValue == fixture.list && params["limit"] != 0:
        answer = fixture.windowedAnswer(
          offset: Int(params["offset"]!.intValue!), limit: Int(params["limit"]!.intValue!))
      default: continue
      }
      queue += app.handle(.answer(tag, .success(answer)), now: 0)
    }
  }
}
