// End-to-end tests of the edit rules Protocol/README.md states: what each edit replaces, keeps or reports.
import JSON
import JSONRPC
import XCTest

final class EditRuleTests: XCTestCase {
  private var daemon: DaemonProcess!
  private var client: TestClient!

  override func setUpWithError() throws {
    daemon = try DaemonProcess()
    client = try TestClient(daemon)
    try client.initialize()
  }

  override func tearDown() {
    client.close()
    daemon.stop()
  }

  private func create(_ list: String, _ sections: JSONValue, mode: String = "multiple") throws {
    try client.request(
      "list/create",
      ["list": .string(list), "selectionMode": .string(mode), "content": ["sections": sections]])
  }

  @discardableResult
  private func edit(_ list: String, _ edits: JSONValue) throws -> JSONValue {
    try client.request("list/edit", ["list": .string(list), "edits": edits])
  }

  private func rows(_ list: String, _ section: String) throws -> [JSONValue] {
    try client.request("query/items", ["list": .string(list), "section": .string(section)])["rows"]?
      .arrayValue ?? []
  }

  func testDeleteAllItemsAlsoDeletesEverySection() throws {
    try create("l", [["id": "s", "items": [["id": "a"]]], ["id": "t", "items": [["id": "b"]]]])
    let answer = try edit("l", [["op": "deleteAllItems"]])
    XCTAssertEqual(answer["changeset"], ["sectionDeletes": [[0, 2]]])
    XCTAssertEqual(try client.request("query/sections", ["list": "l"])["sections"], [])
    // With no section left, appending items fails until a section is added.
    let error = client.error(
      "list/edit", ["list": "l", "edits": [["op": "appendItems", "items": [["id": "c"]]]]])
    XCTAssertEqual(error.code.rawValue, -32014)
  }

  func testUpdateItemsReplacesTheWholePayload() throws {
    let full: JSONValue = [
      "id": "a", "text": "A", "secondaryText": "more", "image": "star", "data": ["k": 1],
      "accessories": [["type": "checkmark"]], "contextMenuActions": [["id": "x", "title": "X"]],
      "selectable": false, "movable": true,
    ]
    try create("l", [["id": "s", "items": [full]]])
    let answer = try edit("l", [["op": "updateItems", "items": [["id": "a", "text": "B"]]]])
    // Every field not given is back to its default: the row carries only id, text and level.
    XCTAssertEqual(
      answer["changeset"]?["itemReconfigures"]?[0]?["rows"], [["id": "a", "text": "B", "level": 0]])
    XCTAssertEqual(try rows("l", "s"), [["id": "a", "text": "B", "level": 0]])
  }

  /// `expanded` left out of `list/replace` and `replaceItems` content keeps the item's state;
  /// a new item starts collapsed; a given `expanded` wins.
  func testExpandedLeftOutOfReplacedContentKeepsTheCurrentState() throws {
    let tree: JSONValue = [
      ["id": "open", "expanded": true, "children": [["id": "x"]]], ["id": "shut", "children": [["id": "y"]]],
    ]
    try create("l", [["id": "s", "items": tree]])
    let again: JSONValue = [
      ["id": "open", "children": [["id": "x"]]], ["id": "shut", "children": [["id": "y"]]],
      ["id": "new", "children": [["id": "z"]]],
    ]
    try client.request(
      "list/replace", ["list": "l", "content": ["sections": [["id": "s", "items": again]]]])
    XCTAssertEqual(try rows("l", "s").compactMap { $0["id"]?.stringValue }, ["open", "x", "shut", "new"])
    try edit("l", [["op": "replaceItems", "section": "s", "items": again]])
    XCTAssertEqual(try rows("l", "s").compactMap { $0["id"]?.stringValue }, ["open", "x", "shut", "new"])
    let given: JSONValue = [
      ["id": "open", "expanded": false, "children": [["id": "x"]]],
      ["id": "shut", "children": [["id": "y"]]],
    ]
    try client.request(
      "list/replace", ["list": "l", "content": ["sections": [["id": "s", "items": given]]]])
    XCTAssertEqual(try rows("l", "s").compactMap { $0["id"]?.stringValue }, ["open", "shut"])
  }

  /// `data` is compared as a JSON value: member order and number spelling are no change —
  /// no reconfigure, no version — and rows carry it in its canonical form.
  func testDataIsComparedAsAJSONValue() throws {
    try create(
      "l", [["id": "s", "items": [["id": "a", "data": ["b": 1.0, "a": [2.50, ["d": 1, "c": 0]]]]]]])
    let canonical: JSONValue = ["a": [2.5, ["c": 0, "d": 1]], "b": 1]
    XCTAssertEqual(try rows("l", "s").first?["data"], canonical)
    for data: JSONValue in [
      ["a": [2.5, ["c": 0, "d": 1]], "b": 1], ["b": 1, "a": [2.5, ["d": 1.0, "c": -0.0]]],
    ] {
      let answer = try edit("l", [["op": "updateItems", "items": [["id": "a", "data": data]]]])
      XCTAssertEqual(answer["version"], 0, "\(data)")
      XCTAssertEqual(answer["changeset"], [:], "\(data)")
      let replaced = try client.request(
        "list/replace",
        ["list": "l", "content": ["sections": [["id": "s", "items": [["id": "a", "data": data]]]]]])
      XCTAssertEqual(replaced["version"], 0, "\(data)")
    }
    // A different value is a change.
    let changed = try edit("l", [["op": "updateItems", "items": [["id": "a", "data": ["b": 1.5]]]]])
    XCTAssertEqual(changed["changeset"]?["itemReconfigures"]?[0]?["rows"]?[0]?["data"], ["b": 1.5])
  }

  /// A change the rows do not show (the payload of a hidden item) still makes a version, with
  /// an empty changeset; an equal payload makes none.
  func testAHiddenChangeMakesAVersionWithAnEmptyChangeset() throws {
    try create("l", [["id": "s", "items": [["id": "p", "children": [["id": "c"]]]]]])
    try client.request("list/subscribe", ["list": "l", "snapshot": "none"])
    let answer = try edit("l", [["op": "updateItems", "items": [["id": "c", "text": "hidden"]]]])
    XCTAssertEqual(answer["version"], 1)
    XCTAssertEqual(answer["changeset"], [:])
    let change = client.next("list/didChange") { $0["version"] == 1 }
    XCTAssertEqual(change?["changeset"], [:])
    XCTAssertEqual(
      try edit("l", [["op": "updateItems", "items": [["id": "c", "text": "hidden"]]]])["version"], 1)
  }

  /// A reload (or reconfigure) asked for earlier in a batch: a later delete of the item leaves
  /// only the delete; an item that stays (moved, updated, replaced by `replaceItems`) is reloaded.
  func testALaterEditOfAReloadedItemInOneBatch() throws {
    try create(
      "l", [["id": "s", "items": [["id": "a"], ["id": "b"], ["id": "c"], ["id": "d"], ["id": "e"]]]])
    let deleted = try edit(
      "l", [["op": "reloadItems", "items": ["a", "b"]], ["op": "deleteItems", "items": ["a"]]])
    XCTAssertEqual(
      deleted["changeset"],
      ["itemDeletes": [[0, 0, 1]], "itemReloads": [["at": [0, 1], "rows": [["id": "b", "level": 0]]]]])
    let reconfigured = try edit(
      "l", [["op": "reconfigureItems", "items": ["b"]], ["op": "deleteItems", "items": ["b"]]])
    XCTAssertEqual(reconfigured["changeset"], ["itemDeletes": [[0, 0, 1]]])
    let updated = try edit(
      "l",
      [["op": "reloadItems", "items": ["c"]], ["op": "updateItems", "items": [["id": "c", "text": "C"]]]])
    XCTAssertEqual(
      updated["changeset"],
      ["itemReloads": [["at": [0, 0], "rows": [["id": "c", "text": "C", "level": 0]]]]])
    let replaced = try edit(
      "l",
      [
        ["op": "reloadItems", "items": ["c"]],
        [
          "op": "replaceItems", "section": "s",
          "items": [["id": "c", "text": "C"], ["id": "d"], ["id": "e"]],
        ],
      ])
    XCTAssertEqual(
      replaced["changeset"],
      ["itemReloads": [["at": [0, 0], "rows": [["id": "c", "text": "C", "level": 0]]]]])
    // A reloaded item that moves is a delete and an insert (UIKit cannot move and reload one).
    let moved = try edit(
      "l", [["op": "reloadItems", "items": ["c"]], ["op": "moveItem", "item": "c", "after": "e"]])
    XCTAssertEqual(
      moved["changeset"],
      [
        "itemDeletes": [[0, 0, 1]],
        "itemInserts": [["at": [0, 2], "rows": [["id": "c", "text": "C", "level": 0]]]],
      ])
  }
}
