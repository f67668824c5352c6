// Subscriptions, list notifications, progress and trace, against an in-process server.
import JSON
import JSONRPC
import ListServer
import XCTest

final class SubscriptionTests: XCTestCase {
  func testSubscribingToAllCoversListsCreatedLaterAndEndsOnUnsubscribe() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    try client.request("list/create", ["list": "first", "content": ["sections": [["id": "s"]]]])
    let answer = try client.request("list/subscribe", ["snapshot": "none"])
    XCTAssertEqual(answer["lists"]?.arrayValue?.compactMap { $0["list"]?.stringValue }, ["first"])

    try client.request("list/create", ["list": "second", "content": ["sections": [["id": "s"]]]])
    XCTAssertNotNil(client.next("list/didCreate") { $0["list"] == "second" })
    try client.request(
      "list/edit", ["list": "second", "edits": [["op": "appendItems", "items": [["id": "a"]]]]])
    let change = client.next("list/didChange") { $0["list"] == "second" }
    XCTAssertEqual(change?["version"], 1)
    XCTAssertEqual(change?["previousVersion"], 0)

    try client.request("list/unsubscribe", [:])
    try client.request(
      "list/edit", ["list": "first", "edits": [["op": "appendItems", "items": [["id": "b"]]]]])
    try client.request(
      "list/edit", ["list": "second", "edits": [["op": "appendItems", "items": [["id": "c"]]]]])
    try client.request("query/counts", ["list": "second"])  // a round trip after the edits
    XCTAssertNil(client.next("list/didChange", timeout: 0.2) { _ in true })
    client.close()
  }

  func testWindowSubscriptionAnswersOnlyTheWindow() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    let items: [JSONValue] = (0..<100).map { ["id": .string("i\($0)"), "text": .string("Item \($0)")] }
    try client.request(
      "list/create",
      ["list": "big", "content": ["sections": [["id": "a", "items": .array(items)], ["id": "b"]]]])
    let answer = try client.request(
      "list/subscribe", ["list": "big", "snapshot": "window", "window": ["offset": 95, "limit": 10]])
    let window = answer["lists"]?[0]?["window"]
    XCTAssertEqual(window?["totalRows"], 100)
    XCTAssertEqual(
      window?["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["i95", "i96", "i97", "i98", "i99"])
    XCTAssertEqual(window?["sections"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["a", "b"])
    XCTAssertNil(answer["lists"]?[0]?["snapshot"])
    XCTAssertEqual(
      client.error("list/subscribe", ["list": "big", "snapshot": "window"]).code, .invalidParams)
    client.close()
  }

  func testDisposeNotifiesEverySessionAndLaterRequestsGetUnknownList() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    try client.request("list/create", ["list": "gone"])
    try client.request("list/subscribe", ["list": "gone"])
    XCTAssertEqual(try client.request("list/dispose", ["list": "gone"])["version"], 0)
    XCTAssertNotNil(client.next("list/didDispose") { $0["list"] == "gone" })
    XCTAssertEqual(client.error("list/edit", ["list": "gone", "edits": []]).code.rawValue, -32010)
    XCTAssertEqual(client.error("list/dispose", ["list": "gone"]).code.rawValue, -32010)
    // The id can be reused.
    try client.request("list/create", ["list": "gone"])
    client.close()
  }

  func testLargeLoadsReportProgressForAWorkDoneToken() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    let items: [JSONValue] = (0..<12_000).map { ["id": .string("i\($0)")] }
    let content: JSONValue = ["sections": [["id": "s", "items": .array(items)]]]
    try client.request("list/create", ["list": "big", "content": content, "workDoneToken": "load-1"])
    XCTAssertEqual(client.next("$/progress")?["value"]?["kind"], "begin")
    XCTAssertEqual(client.next("$/progress")?["value"]?["kind"], "end")
    try client.request(
      "list/create", ["list": "small", "content": ["sections": [["id": "s"]]], "workDoneToken": "load-2"])
    try client.request("list/replace", ["list": "big", "content": content, "workDoneToken": 7])
    let begin = client.next("$/progress")
    XCTAssertEqual(begin?["token"], 7)  // the small list reported nothing
    client.close()
  }

  func testTraceReportsRequestsOnceTurnedOn() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    try client.request("list/all")
    client.notify("$/setTrace", ["value": "messages"])
    _ = client.error("query/counts", ["list": "x"])
    let trace = client.next("$/logTrace")
    XCTAssertTrue(
      trace?["message"]?.stringValue?.contains("query/counts") ?? false, "\(String(describing: trace))")
    XCTAssertEqual(client.notifications.filter { $0.method == "$/logTrace" }.count, 1)  // list/all was before
    client.close()
  }

  func testChangesSinceServesTheHistoryAndAsksOlderClientsToResync() throws {
    var options = ServerOptions()
    options.historyLimit = 3  // --history 3
    let client = try TestClient.inProcess(options)
    try client.initialize()
    try client.request("list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    for index in 0..<5 {
      try client.request(
        "list/edit",
        ["list": "l", "edits": [["op": "appendItems", "items": [["id": .string("i\(index)")]]]]])
    }
    let recent = try client.request("list/changesSince", ["list": "l", "version": 2])
    XCTAssertEqual(recent["changes"]?.arrayValue?.compactMap { $0["version"]?.intValue }, [3, 4, 5])
    XCTAssertEqual(try client.request("list/changesSince", ["list": "l", "version": 5])["changes"], [])
    let old = client.error("list/changesSince", ["list": "l", "version": 1])
    XCTAssertEqual(old.code.rawValue, -32015)
    XCTAssertEqual(old.data?["oldestVersion"], 2)
    XCTAssertTrue(old.message.contains("resubscribe"), old.message)
    XCTAssertEqual(client.error("list/changesSince", ["list": "l", "version": 9]).code, .invalidParams)
    client.close()
  }
}
