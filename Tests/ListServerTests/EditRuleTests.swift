// The edit rules Protocol/README.md states, against an in-process server: what each edit replaces, keeps or reports.
import JSON
import JSONRPC
import XCTest

final class EditRuleTests: InProcessServerTestCase {
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

  /// A batch with `patchItems` (applied edit by edit, each patch on the payload the edits before
  /// it left) keeps a reload through a later `replaceItems` as any batch does.
  func testAReloadHoldsThroughReplaceItemsFollowedByAPatch() throws {
    try create("l", [["id": "s", "items": [["id": "a"], ["id": "b"]]]])
    let answer = try edit(
      "l",
      [
        ["op": "reloadItems", "items": ["a"]],
        ["op": "replaceItems", "section": "s", "items": [["id": "a"], ["id": "b"]]],
        ["op": "patchItems", "items": [["id": "b", "text": "t"]]],
      ])
    XCTAssertEqual(
      answer["changeset"],
      [
        "itemReloads": [["at": [0, 0], "rows": [["id": "a", "level": 0]]]],
        "itemReconfigures": [["at": [0, 1], "rows": [["id": "b", "text": "t", "level": 0]]]],
      ])
  }

  /// Reloads are a change in themselves: of a visible item or any section they make a version
  /// although nothing else changed; of a hidden item they make none.
  func testWhenReloadsMakeAVersion() throws {
    try create(
      "l", [["id": "s", "items": [["id": "p", "children": [["id": "c"]]], ["id": "x"], ["id": "y"]]]])
    for op in ["reloadItems", "reconfigureItems"] {
      let hidden = try edit("l", [["op": .string(op), "items": ["c"]]])
      XCTAssertEqual(hidden["version"], 0, op)
      XCTAssertEqual(hidden["changeset"], [:], op)
    }
    XCTAssertEqual(
      try edit("l", [["op": "reloadItems", "items": ["x"]]]),
      [
        "list": "l", "version": 1,
        "changeset": ["itemReloads": [["at": [0, 1], "rows": [["id": "x", "level": 0]]]]],
      ])
    XCTAssertEqual(
      try edit("l", [["op": "reconfigureItems", "items": ["x"]]]),
      [
        "list": "l", "version": 2,
        "changeset": ["itemReconfigures": [["at": [0, 1], "rows": [["id": "x", "level": 0]]]]],
      ])
    XCTAssertEqual(
      try edit("l", [["op": "reloadSections", "sections": ["s"]]]),
      ["list": "l", "version": 3, "changeset": ["sectionReloads": [["id": "s", "index": 0]]]])
    // Deleted and added again in the same place: a reload, and a version.
    XCTAssertEqual(
      try edit(
        "l",
        [
          ["op": "reloadItems", "items": ["x"]], ["op": "deleteItems", "items": ["x"]],
          ["op": "insertItems", "before": "y", "items": [["id": "x"]]],
        ]),
      [
        "list": "l", "version": 4,
        "changeset": ["itemReloads": [["at": [0, 1], "rows": [["id": "x", "level": 0]]]]],
      ])
  }

  /// What rows leave out and keep: defaults out (`style: "normal"`, empty arrays, `data: null`),
  /// `text: ""` and `data: {}` kept; a progress value comes back as a floating-point number.
  func testRowCanonicalForms() throws {
    let item: JSONValue = [
      "id": "a", "text": "", "data": nil, "accessories": [], "leadingSwipeActions": [],
      "contextMenuActions": [["id": "c", "title": "C", "style": "normal"]],
      "trailingSwipeActions": [["id": "d", "title": "D", "style": "destructive"]], "selectable": true,
      "movable": false,
    ]
    try create(
      "l",
      [
        [
          "id": "s",
          "items": [item, ["id": "b", "data": [:], "accessories": [["type": "progress", "value": 1]]]],
        ]
      ])
    let rows = try rows("l", "s")
    XCTAssertEqual(
      rows[0],
      [
        "id": "a", "text": "", "trailingSwipeActions": [["id": "d", "title": "D", "style": "destructive"]],
        "contextMenuActions": [["id": "c", "title": "C"]], "level": 0,
      ])
    XCTAssertEqual(rows[1]["data"], [:])
    XCTAssertEqual(rows[1]["accessories"]?[0]?["value"], .double(1))
  }

  /// A section's header and footer: `updateSection` keeps a field it leaves out and clears one
  /// given `null`; a `sectionReloads` entry carries both, so one left out is cleared.
  func testUpdateSectionKeepsWhatItLeavesOut() throws {
    try client.request(
      "list/create", ["list": "l", "content": ["sections": [["id": "s", "header": "H", "footer": "F"]]]])
    XCTAssertEqual(
      try edit("l", [["op": "updateSection", "section": "s", "header": "H2"]])["changeset"],
      ["sectionReloads": [["id": "s", "header": "H2", "footer": "F", "index": 0]]])
    XCTAssertEqual(
      try edit("l", [["op": "updateSection", "section": "s", "footer": nil]])["changeset"],
      ["sectionReloads": [["id": "s", "header": "H2", "index": 0]]])
  }

  /// `deleteItems` takes an item with its descendant and a repeated id; an empty list changes
  /// nothing. Section and item ids are separate namespaces. A list created without content
  /// answers `{}`.
  func testSmallRules() throws {
    try create(
      "l", [["id": "s", "items": [["id": "a"], ["id": "p", "children": [["id": "c"]]], ["id": "x"]]]])
    XCTAssertEqual(
      try edit("l", [["op": "deleteItems", "items": ["p", "c", "a", "a"]]]),
      ["list": "l", "version": 1, "changeset": ["itemDeletes": [[0, 0, 2]]]])
    XCTAssertEqual(try edit("l", [["op": "deleteItems", "items": []]])["version"], 1)
    let named = try edit(
      "l", [["op": "appendSections", "sections": [["id": "x", "items": [["id": "s"]]]]]])
    XCTAssertEqual(named["version"], 2)
    XCTAssertEqual(
      try client.request("list/create", ["list": "empty"]), ["list": "empty", "version": 0, "changeset": [:]])
  }
}
