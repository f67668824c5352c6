// User events against an in-process server: viewers' events reach the owner as owner/event, refresh round-trips, and bad events get clear errors.
import Foundation
import JSON
import JSONRPC
import ListServer
import Synchronization
import XCTest

final class EventTests: XCTestCase {

  /// `inbox`: `a` (toggle, swipe and context actions, movable), `b` (pop-up menu), `c` (movable);
  /// `archive`: `d`.
  private static let content: JSONValue = [
    "sections": [
      [
        "id": "inbox",
        "items": [
          [
            "id": "a", "text": "A", "accessories": [["type": "toggle", "isOn": false]],
            "leadingSwipeActions": [["id": "pin", "title": "Pin"]],
            "trailingSwipeActions": [["id": "trash", "title": "Trash", "style": "destructive"]],
            "contextMenuActions": [["id": "copy", "title": "Copy"]], "movable": true,
          ],
          [
            "id": "b", "text": "B",
            "accessories": [["type": "popUpMenu", "actions": [["id": "share", "title": "Share"]]]],
          ],
          ["id": "c", "text": "C", "movable": true],
        ],
      ],
      ["id": "archive", "items": [["id": "d", "text": "D"]]],
    ]
  ]

  private func createList(_ owner: TestClient) throws {
    try owner.request("list/create", ["list": "mail", "selectionMode": "multiple", "content": Self.content])
  }

  /// A server, an owner on its primary session (as stdio) that created `mail`, and a viewer on
  /// another session (as a socket client).
  private func start(configureOwner: (Connection) -> Void = { _ in }) throws -> (
    ListServer, owner: TestClient, viewer: TestClient, viewerSession: Int64
  ) {
    let server = TestClient.server()
    let owner = try TestClient.inProcess(of: server, primary: true, name: "owner", configure: configureOwner)
    try owner.initialize(name: "owner")
    try createList(owner)
    let viewer = try TestClient.inProcess(of: server, name: "viewer")
    let session = try XCTUnwrap(try viewer.initialize(name: "viewer")["session"]?.intValue)
    return (server, owner, viewer, session)
  }

  func testEventsReachTheOwnerWithTheirFields() throws {
    let (_, owner, viewer, session) = try start()
    // (method, params, the answer's version, the owner/event fields besides list, session and version)
    let cases: [(String, JSONValue, Int64, [String: JSONValue])] = [
      ("event/select", ["list": "mail", "item": "a"], 1, ["event": "select", "item": "a"]),
      ("event/select", ["list": "mail", "item": "c"], 2, ["event": "select", "item": "c"]),
      ("event/deselect", ["list": "mail", "item": "a"], 3, ["event": "deselect", "item": "a"]),
      (
        "event/toggle", ["list": "mail", "item": "a", "isOn": true], 3,
        ["event": "toggle", "item": "a", "isOn": true]
      ),
      (
        "event/action", ["list": "mail", "item": "a", "action": "pin"], 3,
        ["event": "action", "item": "a", "action": "pin"]
      ),
      (
        "event/action", ["list": "mail", "item": "a", "action": "trash"], 3,
        ["event": "action", "action": "trash"]
      ),
      (
        "event/action", ["list": "mail", "item": "a", "action": "copy"], 3,
        ["event": "action", "action": "copy"]
      ),
      (
        "event/action", ["list": "mail", "item": "b", "action": "share"], 3,
        ["event": "action", "item": "b", "action": "share"]
      ),
      ("event/delete", ["list": "mail", "item": "c"], 3, ["event": "delete", "item": "c"]),
      (
        "event/move", ["list": "mail", "item": "a", "after": "c"], 3,
        ["event": "move", "item": "a", "after": "c"]
      ),
      (
        "event/move", ["list": "mail", "item": "c", "before": "a"], 3,
        ["event": "move", "item": "c", "before": "a"]
      ),
      (
        "event/move", ["list": "mail", "item": "a", "section": "archive"], 3,
        ["event": "move", "section": "archive"]
      ),
    ]
    for (method, params, version, fields) in cases {
      let answer = try viewer.request(method, params)
      XCTAssertEqual(answer, ["list": "mail", "version": .int(version)], method)
      guard let event = owner.next("owner/event") else {
        XCTFail("\(method): the owner got no owner/event")
        continue
      }
      XCTAssertEqual(event["list"], "mail", method)
      XCTAssertEqual(event["session"], .int(session), "\(method): the viewer's session")
      XCTAssertEqual(event["version"], .int(version), method)
      for (key, value) in fields { XCTAssertEqual(event[key], value, "\(method) \(params): \(key)") }
      // Only the operands that were sent.
      for key in ["before", "after", "section", "action", "isOn"]
      where fields[key] == nil && params[key] == nil {
        XCTAssertNil(event[key], "\(method): unexpected \(key) in \(event)")
      }
    }
    // The daemon applied select/deselect; delete and move are the owner's decision, so nothing moved.
    let selection = try viewer.request("query/selection", ["list": "mail"])["items"]?.arrayValue?.compactMap {
      $0["id"]?.stringValue
    }
    XCTAssertEqual(selection, ["c"])
    let rows = try viewer.request("query/window", ["list": "mail", "offset": 0, "limit": 10])["rows"]?
      .arrayValue?
      .compactMap { $0["id"]?.stringValue }
    XCTAssertEqual(rows, ["a", "b", "c", "d"])
    XCTAssertEqual(owner.notifications.filter { $0.method == "owner/event" }.count, cases.count)
    XCTAssertFalse(
      viewer.notifications.contains { $0.method == "owner/event" }, "events go to the owner only")
    viewer.close()
    owner.close()
  }

  func testRefreshCompletesAfterTheOwnersAnswerAndItsEdit() throws {
    let asked = Mutex<[JSONValue]>([])
    let (_, owner, viewer, session) = try start { connection in
      connection.onRequestDeferred("owner/refresh") { request in
        let count = asked.withLock {
          $0.append(request.rawParams ?? .null)
          return $0.count
        }
        // The owner reloads its data, then answers.
        let item: JSONValue = ["id": .string("new\(count)"), "text": .string("New \(count)")]
        connection.sendRequest(
          "list/edit",
          ["list": "mail", "edits": [["op": "appendItems", "section": "inbox", "items": [item]]]]
        ) { result in
          if case .failure(let error) = result {
            request.respond(error: ResponseError(.internalError, "the edit failed: \(error)"))
          } else {
            request.respond(["refreshed": true])
          }
        }
      }
    }
    try viewer.request("list/subscribe", ["list": "mail", "snapshot": "none"])
    let answer = try viewer.request("event/refresh", ["list": "mail", "timeoutMs": 10_000])
    XCTAssertEqual(answer, ["list": "mail", "version": 1], "the answer comes after the owner's edit")
    XCTAssertEqual(asked.withLock { $0 }, [["list": "mail", "session": .int(session)]])
    XCTAssertNotNil(viewer.next("list/didChange") { $0["version"] == 1 })
    XCTAssertEqual(
      try viewer.request("query/item", ["list": "mail", "item": "new1"])["item"]?["text"], "New 1")
    // A second refresh: a second round trip, another version.
    XCTAssertEqual(try viewer.request("event/refresh", ["list": "mail"])["version"], 2)
    XCTAssertEqual(asked.withLock { $0.count }, 2)
    viewer.close()
    owner.close()
  }

  func testAnOwnerThatFailsARefreshPassesItsErrorOn() throws {
    let (_, owner, viewer, _) = try start { connection in
      connection.onRequest("owner/refresh") { _ in throw ResponseError(.invalidParams, "network unreachable")
      }
    }
    let error = viewer.error("event/refresh", ["list": "mail"])
    XCTAssertEqual(error.code, .invalidParams)
    XCTAssertTrue(
      error.message.contains("'mail'") && error.message.contains("network unreachable"), error.message)
    XCTAssertEqual(try viewer.version(of: "mail"), 0)
    viewer.close()
    owner.close()
  }

  func testAnOwnerThatNeverAnswersARefreshTimesOut() throws {
    let asked = DispatchSemaphore(value: 0)
    let held = Mutex<[IncomingRequest]>([])  // kept, never answered
    let (_, owner, viewer, _) = try start { connection in
      connection.onRequestDeferred("owner/refresh") { request in
        held.withLock { $0.append(request) }
        asked.signal()
      }
    }
    let start = Date()
    let error = viewer.error("event/refresh", ["list": "mail", "timeoutMs": 300])
    let elapsed = Date().timeIntervalSince(start)
    XCTAssertEqual(error.code, -32017)
    XCTAssertEqual(error.data?["list"], "mail")
    XCTAssertTrue(error.message.contains("'mail'") && error.message.contains("refresh"), error.message)
    XCTAssertGreaterThanOrEqual(elapsed, 0.29)
    XCTAssertLessThan(elapsed, 30, "the refresh's 300 ms timeout did not end it")
    XCTAssertEqual(asked.wait(timeout: .now() + 5), .success, "the owner was not asked")
    // Both sessions keep working.
    XCTAssertEqual(try viewer.version(of: "mail"), 0)
    try owner.request("list/edit", ["list": "mail", "edits": [["op": "deleteItems", "items": ["a"]]]])
    XCTAssertEqual(try viewer.version(of: "mail"), 1)
    viewer.close()
    owner.close()
  }

  func testBadEventsGetClearErrorsAndReachNobody() throws {
    let (_, owner, viewer, _) = try start()
    try owner.request("list/edit", ["list": "mail", "edits": [["op": "deleteItems", "items": ["c"]]]])
    // (method, params, code, a data member, words of the message)
    let cases: [(String, JSONValue, ErrorCode, (String, JSONValue)?, [String])] = [
      ("event/select", ["list": "mail", "item": "c"], -32012, ("item", "c"), ["'c'"]),
      ("event/deselect", ["list": "mail", "item": "c"], -32012, ("item", "c"), ["'c'"]),
      ("event/toggle", ["list": "mail", "item": "c", "isOn": true], -32012, ("item", "c"), ["'c'"]),
      ("event/action", ["list": "mail", "item": "c", "action": "pin"], -32012, ("item", "c"), ["'c'"]),
      ("event/delete", ["list": "mail", "item": "c"], -32012, ("item", "c"), ["'c'"]),
      ("event/move", ["list": "mail", "item": "c", "after": "a"], -32012, ("item", "c"), ["'c'"]),
      ("event/move", ["list": "mail", "item": "a", "after": "c"], -32012, ("item", "c"), ["'c'"]),
      ("event/select", ["list": "gone", "item": "a"], -32010, ("list", "gone"), ["'gone'"]),
      ("event/refresh", ["list": "gone"], -32010, ("list", "gone"), ["'gone'"]),
      (
        "event/action", ["list": "mail", "item": "a", "action": "zap"], .invalidParams, ("field", "action"),
        ["'zap'", "'a'", "'pin'", "'copy'"]
      ),
      (
        "event/action", ["list": "mail", "item": "d", "action": "pin"], .invalidParams, ("field", "action"),
        ["none"]
      ),
      (
        "event/toggle", ["list": "mail", "item": "b", "isOn": true], -32014, ("item", "b"), ["'b'", "toggle"]
      ),
      (
        "event/move", ["list": "mail", "item": "b", "after": "a"], -32014, ("item", "b"),
        ["'b'", "not movable"]
      ),
      (
        "event/move", ["list": "mail", "item": "a", "section": "spam"], -32011, ("section", "spam"),
        ["'spam'"]
      ),
      ("event/move", ["list": "mail", "item": "a", "before": "a"], -32014, nil, ["'a'", "itself"]),
      (
        "event/move", ["list": "mail", "item": "a"], .invalidParams, nil,
        ["\"before\"", "\"after\"", "\"section\""]
      ),
      (
        "event/move", ["list": "mail", "item": "a", "before": "b", "after": "b"], .invalidParams, nil,
        ["\"before\" and \"after\""]
      ),
      ("event/select", ["list": "mail"], .invalidParams, ("field", "item"), ["missing", "item"]),
      ("event/toggle", ["list": "mail", "item": "a"], .invalidParams, ("field", "isOn"), ["isOn"]),
      (
        "event/delete", ["list": "mail", "item": "a", "force": true], .invalidParams, ("field", "force"),
        ["force"]
      ),
    ]
    for (method, params, code, data, words) in cases {
      let error = viewer.error(method, params)
      XCTAssertEqual(error.code, code, "\(method) \(params): \(error.message)")
      if let (key, value) = data {
        XCTAssertEqual(error.data?[key], value, "\(method) \(params): data.\(key)")
      }
      for word in words {
        XCTAssertTrue(error.message.contains(word), "\(method) \(params): '\(error.message)' lacks \(word)")
      }
    }
    // None reached the owner or changed the list: the next event the owner gets is this one.
    XCTAssertEqual(try viewer.request("event/delete", ["list": "mail", "item": "a"])["version"], 1)
    XCTAssertEqual(owner.next("owner/event")?["event"], "delete")
    XCTAssertEqual(owner.notifications.filter { $0.method == "owner/event" }.count, 1)
    XCTAssertEqual(try viewer.version(of: "mail"), 1)
    viewer.close()
    owner.close()
  }

  func testAnOwnerThatLeavesMakesEventsFailWithNoOwnerAndWarnsSubscribers() throws {
    let server = TestClient.server()
    let stdio = try TestClient.inProcess(of: server, primary: true)
    try stdio.initialize()
    let owner = try TestClient.inProcess(of: server, name: "owner")
    try owner.initialize(name: "owner")
    try createList(owner)
    let viewer = try TestClient.inProcess(of: server, name: "viewer")
    try viewer.initialize()
    try viewer.request("list/subscribe", ["list": "mail", "snapshot": "none"])
    try stdio.request("list/subscribe", ["list": "mail", "snapshot": "none"])
    XCTAssertEqual(try viewer.request("list/info", ["list": "mail"])["owner"]?["name"], "owner")

    owner.disconnect()
    for client in [viewer, stdio] {
      let warning = client.next("window/logMessage")
      XCTAssertEqual(warning?["type"], 2)
      let message = warning?["message"]?.stringValue ?? ""
      XCTAssertTrue(message.contains("'mail'") && message.contains("owner"), message)
    }
    XCTAssertEqual(try viewer.request("list/info", ["list": "mail"])["owner"], .null)
    for (method, params) in [
      ("event/toggle", ["list": "mail", "item": "a", "isOn": true] as JSONValue),
      ("event/action", ["list": "mail", "item": "a", "action": "pin"]),
      ("event/delete", ["list": "mail", "item": "a"]),
      ("event/move", ["list": "mail", "item": "a", "after": "c"]),
      ("event/refresh", ["list": "mail"]),
    ] {
      let error = viewer.error(method, params)
      XCTAssertEqual(error.code, -32016, "\(method): \(error.message)")
      XCTAssertEqual(error.data?["list"], "mail", method)
      XCTAssertTrue(error.message.contains("'mail'") && error.message.contains("owner"), error.message)
    }
    XCTAssertEqual(try viewer.version(of: "mail"), 0)
    // Selection belongs to the daemon, so select/deselect still work (protocol.json lists no
    // -32016 for them); there is just nobody to tell.
    XCTAssertEqual(try viewer.request("event/select", ["list": "mail", "item": "a"])["version"], 1)
    XCTAssertEqual(try viewer.request("event/deselect", ["list": "mail", "item": "a"])["version"], 2)
    // The list itself lives on: anyone can still change it.
    try stdio.request("list/edit", ["list": "mail", "edits": [["op": "deleteItems", "items": ["b"]]]])
    XCTAssertNotNil(viewer.next("list/didChange") { $0["version"] == 3 })
    viewer.close()
    stdio.close()
  }

  func testAnOwnerThatLeavesDuringARefreshFailsItWithNoOwner() throws {
    let server = TestClient.server()
    let stdio = try TestClient.inProcess(of: server, primary: true)
    try stdio.initialize()
    let asked = DispatchSemaphore(value: 0)
    let held = Mutex<[IncomingRequest]>([])
    let owner = try TestClient.inProcess(of: server, name: "owner") { connection in
      connection.onRequestDeferred("owner/refresh") { request in
        held.withLock { $0.append(request) }
        asked.signal()
      }
    }
    try owner.initialize()
    try createList(owner)

    let answer = Mutex<Result<JSONValue, any Error>?>(nil)
    let answered = DispatchSemaphore(value: 0)
    stdio.connection.sendRequest("event/refresh", ["list": "mail", "timeoutMs": 30_000]) { result in
      answer.withLock { $0 = result }
      answered.signal()
    }
    XCTAssertEqual(asked.wait(timeout: .now() + 10), .success, "the owner was not asked")
    let start = Date()
    owner.disconnect()
    XCTAssertEqual(answered.wait(timeout: .now() + 10), .success)
    XCTAssertLessThan(Date().timeIntervalSince(start), 5, "the refresh waited for its timeout")
    guard case .failure(let error as ResponseError)? = answer.withLock({ $0 }) else {
      XCTFail("refresh did not fail: \(String(describing: answer.withLock { $0 }))")
      return
    }
    XCTAssertEqual(error.code, -32016)
    XCTAssertTrue(error.message.contains("'mail'"), error.message)
    XCTAssertEqual(try stdio.version(of: "mail"), 0)
    stdio.close()
  }

  func testAViewerThatLeavesDuringARefreshLeavesTheOthersServed() throws {
    let held = Mutex<[IncomingRequest]>([])
    let asked = DispatchSemaphore(value: 0)
    let (server, owner, viewer, _) = try start { connection in
      connection.onRequestDeferred("owner/refresh") { request in
        held.withLock { $0.append(request) }
        asked.signal()
      }
    }
    viewer.connection.sendRequest("event/refresh", ["list": "mail"]) { _ in }
    XCTAssertEqual(asked.wait(timeout: .now() + 10), .success)
    viewer.disconnect()
    // The owner answers after the viewer has gone; nothing breaks.
    for request in held.withLock({ $0 }) { request.respond(["refreshed": true]) }
    try owner.request("list/edit", ["list": "mail", "edits": [["op": "deleteItems", "items": ["d"]]]])
    let other = try TestClient.inProcess(of: server)
    try other.initialize()
    XCTAssertEqual(try other.version(of: "mail"), 1)
    XCTAssertEqual(try other.request("event/delete", ["list": "mail", "item": "a"])["version"], 1)
    XCTAssertEqual(owner.next("owner/event")?["item"], "a")
    other.close()
    owner.close()
  }
}
