// Lean answers, against an in-process server: `rows: "none"` answers a mutation's changeset without its rows; notifications keep theirs.
import Foundation
import JSON
import JSONRPC
import XCTest

final class LeanAnswerTests: XCTestCase {
  /// `list/create`, `list/edit`, `list/replace`, `outline/*` and `selection/*` with `rows: "none"`
  /// answer the changeset's structure with counts in place of rows, while a subscriber still
  /// receives the rows; `rows: "all"` is the default (but for `list/create`); another value is
  /// -32602 naming `rows`.
  func testRowsNoneAnswersTheStructureOnly() throws {
    let client = try TestClient.inProcess()
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

  /// `list/create` does not echo its content unless it says `rows: "all"`; its subscribers'
  /// `list/didCreate` and a later subscribe are as before.
  func testCreateAnswersWithoutItsRowsUnlessAsked() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    let content: JSONValue = [
      "sections": [["id": "s", "header": "S", "items": [["id": "a", "text": "A"], ["id": "b"]]]]
    ]
    let lean = try client.request("list/create", ["list": "l", "content": content])
    XCTAssertEqual(
      lean,
      [
        "list": "l", "version": 0,
        "changeset": [
          "sectionInserts": [["index": 0, "section": ["id": "s", "header": "S", "rowCount": 2]]]
        ],
      ])
    let full = try client.request("list/create", ["list": "m", "content": content, "rows": "all"])
    XCTAssertEqual(
      full["changeset"]?["sectionInserts"]?[0]?["section"]?["rows"],
      [["id": "a", "text": "A", "level": 0], ["id": "b", "level": 0]])
    let subscribed = try client.request("list/subscribe", ["list": "l"])
    XCTAssertEqual(
      subscribed["lists"]?[0]?["snapshot"]?["sections"]?[0]?["rows"],
      full["changeset"]?["sectionInserts"]?[0]?["section"]?["rows"])
    let bad = client.error("list/create", ["list": "n", "rows": "some"])
    XCTAssertEqual(bad.code, .invalidParams)
    XCTAssertEqual(bad.data?["field"], "rows")
    client.close()
  }

  /// An inserted section keeps its `kind` and `headerMode` in a lean answer and in a windowed
  /// subscriber's notification, where its rows are counted.
  func testCountedSectionsKeepTheirKindAndHeaderMode() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    try client.request("list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    try client.request(
      "list/subscribe", ["list": "l", "snapshot": "window", "window": ["offset": 0, "limit": 1]])
    let answer = try client.request(
      "list/edit",
      [
        "list": "l", "rows": "none",
        "edits": [
          [
            "op": "appendSections",
            "sections": [
              [
                "id": "t", "kind": "files", "headerMode": "firstItemInSection",
                "items": [["id": "a"], ["id": "b"]],
              ]
            ],
          ]
        ],
      ])
    let counted: JSONValue = ["id": "t", "kind": "files", "headerMode": "firstItemInSection", "rowCount": 2]
    XCTAssertEqual(answer["changeset"], ["sectionInserts": [["index": 1, "section": counted]]])
    let notified = try XCTUnwrap(client.next("list/didChange"))
    XCTAssertEqual(
      notified["changeset"]?["sectionInserts"],
      [["index": 1, "section": counted.setting("rowsAt", 0).setting("rows", [["id": "a", "level": 0]])]])
    client.close()
  }
}
