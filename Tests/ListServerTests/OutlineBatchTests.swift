// Outline edits inside batches, against an in-process server: each edit sees the result of the edits before it.
import JSON
import XCTest

final class OutlineBatchTests: InProcessServerTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    let content: JSONValue = [
      "sections": [
        [
          "id": "s",
          "items": [
            ["id": "h", "expanded": true, "children": [["id": "h1"]]],
            ["id": "leaf", "expanded": true],
          ],
        ]
      ]
    ]
    try client.request("list/create", ["list": "l", "content": content])
  }

  private func edit(_ edits: JSONValue) throws -> JSONValue {
    try client.request("list/edit", ["list": "l", "edits": edits])
  }

  private func item(_ id: String) throws -> JSONValue {
    try XCTUnwrap(try client.request("query/item", ["list": "l", "item": .string(id)])["item"])
  }

  func testReplaceItemsWithEqualOutlineContentChangesNothingAndKeepsTheSelection() throws {
    XCTAssertEqual(try client.request("selection/select", ["list": "l", "items": ["h1"]])["version"], 1)
    let answer = try edit([
      [
        "op": "replaceItems", "section": "s",
        "items": [["id": "h", "children": [["id": "h1"]]], ["id": "leaf"]],
      ]
    ])
    XCTAssertEqual(answer["version"], 1)
    XCTAssertEqual(answer["changeset"], [:])
    XCTAssertEqual(try item("h1")["selected"], true)
  }

  func testReplaceItemsTakesExpansionFromTheEditsBeforeIt() throws {
    let answer = try edit([
      ["op": "collapse", "item": "h"],
      [
        "op": "replaceItems", "section": "s",
        "items": [["id": "h", "children": [["id": "h1"]]], ["id": "leaf"]],
      ],
    ])
    XCTAssertEqual(answer["version"], 1)
    XCTAssertEqual(answer["changeset"]?["collapsed"], ["h"])
    XCTAssertEqual(answer["changeset"]?["itemDeletes"], [[0, 1, 1]])
    XCTAssertNil(try item("h")["expanded"])
    XCTAssertEqual(try item("h1")["visible"], false)
  }

  func testItemsAddedExpandedEarlierInTheBatchStayExpandedThroughReplaceItems() throws {
    let answer = try edit([
      [
        "op": "appendItems", "section": "s",
        "items": [["id": "y", "expanded": true, "children": [["id": "y1"]]]],
      ],
      [
        "op": "replaceItems", "section": "s",
        "items": [
          ["id": "h", "children": [["id": "h1"]]], ["id": "leaf"], ["id": "y", "children": [["id": "y1"]]],
        ],
      ],
    ])
    XCTAssertEqual(answer["version"], 1)
    XCTAssertEqual(try item("y")["expanded"], true)
    XCTAssertEqual(try item("y1")["visible"], true)
    XCTAssertEqual(try item("h")["expanded"], true)
  }

  func testReplaceItemsSaysExpandedExplicitlyOverridesTheCurrentState() throws {
    _ = try edit([
      [
        "op": "replaceItems", "section": "s",
        "items": [["id": "h", "expanded": false, "children": [["id": "h1"]]], ["id": "leaf"]],
      ]
    ])
    XCTAssertNil(try item("h")["expanded"])
  }

  func testExpandToLevelZeroCollapsesExpandedLeavesToo() throws {
    let answer = try client.request("outline/expandToLevel", ["list": "l", "level": 0])
    XCTAssertEqual(answer["changeset"]?["collapsed"], ["h", "leaf"])
    XCTAssertNil(try item("leaf")["expanded"])
    // Expanding to a level skips leaves: the leaf stays collapsed.
    let again = try client.request("outline/expandToLevel", ["list": "l", "level": 5])
    XCTAssertEqual(again["changeset"]?["expanded"], ["h"])
    XCTAssertNil(try item("leaf")["expanded"])
  }
}
