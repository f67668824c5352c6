// End-to-end tests of `listd --demo`: the demo lists load, answer events, and the live one changes.
import JSON
import JSONRPC
import XCTest

final class DemoTests: XCTestCase {
  func testDemoListsLoadAndTheLiveListChangesEverySecond() throws {
    let daemon = try DaemonProcess(["--demo"])
    let client = try TestClient(daemon)
    try client.initialize()
    let lists = try client.request("list/all")["lists"]?.arrayValue ?? []
    XCTAssertEqual(
      lists.compactMap { $0["list"]?.stringValue },
      ["contacts", "settings", "files", "processes", "inbox", "live"])
    // The table and the empty list.
    let processes = try XCTUnwrap(lists.first { $0["list"] == "processes" })
    XCTAssertEqual(processes["columns"]?.arrayValue?.count, 7)
    let inbox = try XCTUnwrap(lists.first { $0["list"] == "inbox" })
    XCTAssertEqual(inbox["rows"], 0)
    XCTAssertEqual(inbox["emptyState"]?["title"], "No Mail")
    for list in lists { XCTAssertEqual(list["owner"]?["name"], "listd demo") }
    XCTAssertGreaterThan(lists.first?["items"]?.intValue ?? 0, 10)

    let subscribed = try client.request("list/subscribe", ["list": "live"])
    let start = subscribed["lists"]?[0]?["version"]?.intValue ?? -1
    let change = client.next("list/didChange", timeout: 5) { $0["list"] == "live" }
    XCTAssertEqual(change?["previousVersion"]?.intValue, start)
    XCTAssertNotEqual(change?["changeset"], [:])
    client.close()
  }

  func testTheDemoOwnerAnswersEvents() throws {
    let daemon = try DaemonProcess(["--demo"])
    let client = try TestClient(daemon)
    try client.initialize()
    try client.request("list/subscribe", ["list": "settings"])
    try client.request("event/toggle", ["list": "settings", "item": "airplane", "isOn": true])
    let change = client.next("list/didChange") { $0["list"] == "settings" }
    let row = change?["changeset"]?["itemReconfigures"]?[0]?["rows"]?[0]
    XCTAssertEqual(row?["id"], "airplane")
    XCTAssertEqual(row?["accessories"]?[0], ["type": "toggle", "isOn": true])

    try client.request("event/action", ["list": "contacts", "item": "ada", "action": "delete"])
    XCTAssertEqual(
      client.error("event/refresh", ["list": "nope"]).code, ErrorCode(rawValue: -32010))
    let refreshed = try client.request("event/refresh", ["list": "live"])
    XCTAssertNotNil(refreshed["version"])
    // The delete went through the owner: ada is gone.
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline, (try? client.request("query/item", ["list": "contacts", "item": "ada"])) != nil {
      usleep(20_000)
    }
    XCTAssertEqual(
      client.error("query/item", ["list": "contacts", "item": "ada"]).code, ErrorCode(rawValue: -32012))
    client.close()
  }
}
