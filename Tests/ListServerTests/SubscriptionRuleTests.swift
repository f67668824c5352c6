// The subscription rules, against an in-process server: snapshot forms, new lists for subscribers to all, subscribing twice.
import JSON
import JSONRPC
import XCTest

final class SubscriptionRuleTests: InProcessServerTestCase {
  private let content: JSONValue = [
    "sections": [
      ["id": "s", "header": "S", "items": [["id": "a", "text": "A"], ["id": "b"]]], ["id": "t"],
    ]
  ]

  /// A subscriber to every list gets each list created later in its `list/didCreate`, at
  /// version 0, in the form its `list/subscribe` asked for, before any `list/didChange` of it.
  func testASubscriberToAllListsGetsANewListsContentInItsDidCreate() throws {
    try client.request("list/subscribe", [:])
    try client.request("list/create", ["list": "full", "content": content])
    let created = client.next("list/didCreate") { $0["list"] == "full" }
    XCTAssertEqual(created?["info"]?["version"], 0)
    XCTAssertEqual(
      created?["snapshot"],
      [
        "sections": [
          [
            "id": "s", "header": "S",
            "rows": [["id": "a", "text": "A", "level": 0], ["id": "b", "level": 0]],
          ],
          ["id": "t", "rows": []],
        ],
        "selection": [],
      ])
    try client.request("list/edit", ["list": "full", "edits": [["op": "deleteItems", "items": ["b"]]]])
    XCTAssertEqual(client.next("list/didChange") { $0["list"] == "full" }?["version"], 1)

    try client.request("list/subscribe", ["window": ["offset": 1, "limit": 5]])
    try client.request("list/create", ["list": "window", "content": content])
    let windowed = client.next("list/didCreate") { $0["list"] == "window" }
    XCTAssertNil(windowed?["snapshot"])
    XCTAssertEqual(windowed?["window"]?["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["b"])

    try client.request("list/subscribe", ["snapshot": "none"])
    try client.request("list/create", ["list": "none", "content": content])
    let bare = client.next("list/didCreate") { $0["list"] == "none" }
    XCTAssertNotNil(bare)
    XCTAssertNil(bare?["snapshot"])
    XCTAssertNil(bare?["window"])

    // A session not subscribed to all lists gets the announcement only.
    try client.request("list/unsubscribe", [:])
    try client.request("list/create", ["list": "plain", "content": content])
    let plain = client.next("list/didCreate") { $0["list"] == "plain" }
    XCTAssertNotNil(plain)
    XCTAssertNil(plain?["snapshot"])
    XCTAssertEqual(try client.request("list/info", ["list": "plain"])["subscribers"], 0)
  }

  /// `snapshot` defaults to `full`, or to `window` when a `window` is given; a `window` with
  /// another form contradicts it.
  func testSnapshotDefaultsAndTheWindowAnswer() throws {
    try client.request("list/create", ["list": "l", "content": content])
    let full = try client.request("list/subscribe", ["list": "l"])["lists"]?[0]
    XCTAssertNotNil(full?["snapshot"])
    XCTAssertNil(full?["window"])
    let window = try client.request("list/subscribe", ["list": "l", "window": ["offset": 1, "limit": 1]])[
      "lists"]?[0]
    XCTAssertNil(window?["snapshot"])
    XCTAssertEqual(
      window?["window"],
      [
        "offset": 1, "totalRows": 2,
        "rows": [["id": "b", "level": 0, "section": "s", "indexPath": [0, 1]]],
        "sections": [["id": "s", "header": "S", "index": 0, "firstRow": 0, "rows": 2]],
      ])
    // The same shape as query/window's members.
    let query = try client.request("query/window", ["list": "l", "offset": 1, "limit": 1])
    for key in ["offset", "totalRows", "rows", "sections"] {
      XCTAssertEqual(query[key], window?["window"]?[key], key)
    }
    // An empty section inside the window is described; one after it is not.
    let tail = try client.request("list/subscribe", ["list": "l", "window": ["offset": 2, "limit": 1]])[
      "lists"]?[0]
    XCTAssertEqual(tail?["window"]?["sections"], [["id": "t", "index": 1, "firstRow": 2, "rows": 0]])
    let none = try client.request("list/subscribe", ["list": "l", "snapshot": "none"])["lists"]?[0]
    XCTAssertNil(none?["snapshot"])
    XCTAssertNil(none?["window"])
    for form in ["full", "none"] {
      let error = client.error(
        "list/subscribe", ["list": "l", "snapshot": .string(form), "window": ["offset": 0, "limit": 1]])
      XCTAssertEqual(error.code, .invalidParams)
      XCTAssertEqual(error.data?["field"], "window")
    }
    XCTAssertEqual(
      client.error("list/subscribe", ["list": "l", "snapshot": "window"]).data?["field"], "window")
  }

  /// A window of limit 0 meets no row: its sections are only the empty ones at `offset`, never a
  /// non-empty section, whether it starts at `offset` or `offset` lies inside it.
  func testAWindowOfNoRowsListsOnlyTheEmptySectionsAtItsOffset() throws {
    let sections: JSONValue = [
      "sections": [
        ["id": "e0", "items": []], ["id": "s1", "items": [["id": "a"], ["id": "b"]]],
        ["id": "e1", "items": []],
        ["id": "s2", "items": [["id": "c"]]],
      ]
    ]
    try client.request("list/create", ["list": "q", "content": sections])
    let expected: [JSONValue] = [
      [["id": "e0", "index": 0, "firstRow": 0, "rows": 0]], [],
      [["id": "e1", "index": 2, "firstRow": 2, "rows": 0]],
      [],
    ]
    for (offset, sections) in expected.enumerated() {
      let window = try client.request(
        "query/window", ["list": "q", "offset": .int(Int64(offset)), "limit": 0])
      XCTAssertEqual(window["rows"], [], "offset \(offset)")
      XCTAssertEqual(window["sections"], sections, "offset \(offset)")
    }
    let subscribed = try client.request(
      "list/subscribe", ["list": "q", "window": ["offset": 1, "limit": 0]])
    XCTAssertEqual(subscribed["lists"]?[0]?["window"]?["sections"], [])
  }

  /// Subscribing again renews the subscription: a fresh answer, one subscription, every later
  /// version once.
  func testSubscribingTwiceRenewsTheSubscription() throws {
    try client.request("list/create", ["list": "l", "content": content])
    try client.request("list/subscribe", ["list": "l", "snapshot": "none"])
    try client.request("list/edit", ["list": "l", "edits": [["op": "deleteItems", "items": ["b"]]]])
    let again = try client.request("list/subscribe", ["list": "l"])["lists"]?[0]
    XCTAssertEqual(again?["version"], 1)
    XCTAssertEqual(again?["info"]?["subscribers"], 1)
    try client.request("list/subscribe", ["snapshot": "none"])  // and to all lists: still one
    try client.request("list/edit", ["list": "l", "edits": [["op": "deleteItems", "items": ["a"]]]])
    try client.request("list/edit", ["list": "l", "edits": [["op": "appendItems", "items": [["id": "z"]]]]])
    // Notifications are recorded on a queue that can lag behind answers: wait for the last one
    // (a second copy of an earlier version would come before it).
    XCTAssertNotNil(client.next("list/didChange") { $0["version"] == 3 })
    let versions = client.notifications.filter { $0.method == "list/didChange" }.compactMap {
      $0.params["version"]?.intValue
    }
    XCTAssertEqual(versions, [1, 2, 3])
    // Unsubscribing from the list ends it even while subscribed to all lists.
    try client.request("list/unsubscribe", ["list": "l"])
    XCTAssertEqual(try client.request("list/info", ["list": "l"])["subscribers"], 0)
  }

  /// Without `item` or `section`, `query/outline` answers the roots of every section in section
  /// order; every top-level node names its section.
  func testQueryOutlineNamesTheSectionOfEachTopLevelNode() throws {
    try client.request(
      "list/create",
      [
        "list": "l",
        "content": [
          "sections": [
            ["id": "s", "items": [["id": "p", "children": [["id": "c"]]], ["id": "x"]]],
            ["id": "t", "items": [["id": "y"]]],
          ]
        ],
      ])
    let all = try client.request("query/outline", ["list": "l", "depth": 0])["nodes"]?.arrayValue ?? []
    XCTAssertEqual(all.compactMap { $0["id"]?.stringValue }, ["p", "x", "y"])
    XCTAssertEqual(all.compactMap { $0["section"]?.stringValue }, ["s", "s", "t"])
    let item = try client.request("query/outline", ["list": "l", "item": "c"])["nodes"]
    XCTAssertEqual(item, [["id": "c", "section": "s", "expanded": false, "children": []]])
    let nested = try client.request("query/outline", ["list": "l", "section": "s"])["nodes"]?[0]?[
      "children"]?[0]
    XCTAssertNil(nested?["section"])
    let both = client.error("query/outline", ["list": "l", "item": "c", "section": "s"])
    XCTAssertEqual(both.data?["field"], "section")
  }
}
