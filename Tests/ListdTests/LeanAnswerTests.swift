// Lean answers end to end: `rows: "none"` answers a mutation's changeset without its rows; notifications keep theirs.
import Foundation
import JSON
import JSONRPC
import XCTest

final class LeanAnswerTests: XCTestCase {
  /// `list/create`, `list/edit`, `list/replace`, `outline/*` and `selection/*` with `rows: "none"`
  /// answer the changeset's structure with counts in place of rows, while a subscriber still
  /// receives the rows; `rows: "all"` is the default; another value is -32602 naming `rows`.
  func testRowsNoneAnswersTheStructureOnly() throws {
    let daemon = try DaemonProcess()
    defer { daemon.stop() }
    let client = try TestClient(daemon)
    try client.initialize()
    let content: JSONValue = [
      "sections": [
        [
          "id": "s", "header": "S",
          "items": [["id": "a", "text": "A"], ["id": "p", "children": [["id": "c"]]]],
        ],
        ["id": "t", "items": []],
      ]
    ]
    let created = try client.request(
      "list/create", ["list": "l", "selectionMode": "multiple", "content": content, "rows": "none"])
    XCTAssertEqual(
      created["changeset"],
      [
        "sectionInserts": [
          ["index": 0, "section": ["id": "s", "header": "S", "rowCount": 2]],
          ["index": 1, "section": ["id": "t", "rowCount": 0]],
        ]
      ])
    try client.request("list/subscribe", ["list": "l", "snapshot": "none"])
    let edited = try client.request(
      "list/edit",
      [
        "list": "l", "rows": "none",
        "edits": [
          ["op": "appendItems", "section": "t", "items": [["id": "x"], ["id": "y"]]],
          ["op": "updateItems", "items": [["id": "a", "text": "A2"]]],
        ],
      ])
    XCTAssertEqual(
      edited["changeset"],
      ["itemInserts": [["at": [1, 0], "count": 2]], "itemReconfigures": [["at": [0, 0], "count": 1]]])
    let notified = try XCTUnwrap(client.next("list/didChange"))
    XCTAssertEqual(
      notified["changeset"]?["itemInserts"],
      [["at": [1, 0], "rows": [["id": "x", "level": 0], ["id": "y", "level": 0]]]])
    XCTAssertEqual(
      try client.request("outline/expand", ["list": "l", "item": "p", "rows": "none"])["changeset"],
      [
        "itemInserts": [["at": [0, 2], "count": 1]], "itemReconfigures": [["at": [0, 1], "count": 1]],
        "expanded": ["p"],
      ])
    XCTAssertEqual(
      try client.request("selection/select", ["list": "l", "items": ["c"], "rows": "none"])["changeset"],
      ["selected": ["c"]])
    XCTAssertEqual(
      try client.request("list/replace", ["list": "l", "content": content, "rows": "none"])["changeset"],
      ["itemDeletes": [[1, 0, 2]], "itemReconfigures": [["at": [0, 0], "count": 1]]])
    let full = try client.request("outline/collapse", ["list": "l", "item": "p", "rows": "all"])
    XCTAssertEqual(
      full["changeset"]?["itemReconfigures"],
      [["at": [0, 1], "rows": [["id": "p", "level": 0, "hasChildren": true]]]])
    let bad = client.error("outline/expand", ["list": "l", "rows": "some"])
    XCTAssertEqual(bad.code, .invalidParams)
    XCTAssertEqual(bad.data?["field"], "rows")
    client.close()
  }
}
