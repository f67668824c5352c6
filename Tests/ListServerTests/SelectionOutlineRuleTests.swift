// The selection and outline rules Protocol/README.md states, against an in-process server.
import JSON
import JSONRPC
import XCTest

final class SelectionOutlineRuleTests: InProcessServerTestCase {
  private func create(_ list: String, mode: String, _ items: JSONValue) throws {
    try client.request(
      "list/create",
      [
        "list": .string(list), "selectionMode": .string(mode),
        "content": ["sections": [["id": "s", "items": items]]],
      ])
  }

  private func changeset(_ method: String, _ params: JSONValue) throws -> JSONValue? {
    try client.request(method, params)["changeset"]
  }

  private func selection(_ list: String) throws -> [String] {
    try client.request("query/selection", ["list": .string(list)])["items"]?.arrayValue?.compactMap {
      $0["id"]?.stringValue
    } ?? []
  }

  func testSingleSelectionReplacesAndRefusesSeveral() throws {
    try create("l", mode: "single", [["id": "a"], ["id": "b"]])
    XCTAssertEqual(try changeset("selection/select", ["list": "l", "items": ["a"]]), ["selected": ["a"]])
    XCTAssertEqual(
      try changeset("selection/select", ["list": "l", "items": ["b"]]),
      ["selected": ["b"], "deselected": ["a"]])
    XCTAssertEqual(try changeset("event/select", ["list": "l", "item": "a"]), nil)  // events answer {list, version}
    XCTAssertEqual(try selection("l"), ["a"])
    // Several distinct ids fail; one id given twice is one item.
    XCTAssertEqual(
      client.error("selection/select", ["list": "l", "items": ["a", "b"]]).code.rawValue, -32014)
    XCTAssertEqual(
      try changeset("selection/select", ["list": "l", "items": ["b", "b"]]),
      ["selected": ["b"], "deselected": ["a"]])
    // selectAll fails in single mode, even when there is one item to select.
    try create("one", mode: "single", [["id": "only"]])
    XCTAssertEqual(client.error("selection/selectAll", ["list": "one"]).code.rawValue, -32014)
    XCTAssertEqual(
      client.error("list/edit", ["list": "one", "edits": [["op": "selectAll"]]]).code.rawValue, -32014)
    // An empty select is no change.
    let empty = try client.request("selection/select", ["list": "l", "items": []])
    XCTAssertEqual(empty["changeset"], [:])
  }

  func testModeNoneRefusesEverySelection() throws {
    try create("l", mode: "none", [["id": "a"]])
    XCTAssertEqual(client.error("selection/select", ["list": "l", "items": ["a"]]).code.rawValue, -32014)
    XCTAssertEqual(client.error("selection/selectAll", ["list": "l"]).code.rawValue, -32014)
    XCTAssertEqual(client.error("event/select", ["list": "l", "item": "a"]).code.rawValue, -32014)
    XCTAssertEqual(try changeset("selection/deselectAll", ["list": "l"]), [:])
    // Mode none comes first: an empty or unknown selection is refused for it too.
    for items: JSONValue in [[], ["nope"]] {
      for (method, params) in [
        ("selection/select", ["list": "l", "items": items] as JSONValue),
        ("list/edit", ["list": "l", "edits": [["op": "select", "items": items]]]),
      ] {
        let error = client.error(method, params)
        XCTAssertEqual(error.code.rawValue, -32014, "\(method) \(items)")
        XCTAssertTrue(error.message.contains("selection mode is none"), error.message)
      }
    }
  }

  /// A select's ids are checked in the order given, the first failing one deciding the error,
  /// and only then, in single mode, their number.
  func testSelectErrorsComeInItemOrderBeforeTheSingleModeCount() throws {
    try create("l", mode: "single", [["id": "a"], ["id": "b", "selectable": false], ["id": "c"]])
    let cases: [(JSONValue, Int, String)] = [
      (["b", "nope"], -32014, "item 'b' is not selectable"), (["nope", "b"], -32012, "unknown item 'nope'"),
      (["a", "c", "nope"], -32012, "unknown item 'nope'"),
      (["a", "c", "b"], -32014, "item 'b' is not selectable"),
      (["a", "c"], -32014, "more than one item"),
    ]
    for (items, code, message) in cases {
      for (method, params) in [
        ("selection/select", ["list": "l", "items": items] as JSONValue),
        ("list/edit", ["list": "l", "edits": [["op": "select", "items": items]]]),
      ] {
        let error = client.error(method, params)
        XCTAssertEqual(error.code.rawValue, code, "\(method) \(items): \(error.message)")
        XCTAssertTrue(error.message.contains(message), "\(method) \(items): \(error.message)")
      }
    }
  }

  /// Only visible, selectable items are ever selected: selecting a hidden or `selectable: false`
  /// one fails, `selectAll` skips them, and an item that becomes hidden or non-selectable leaves
  /// the selection, listed in `deselected`.
  func testHiddenAndUnselectableItemsAreNeverSelected() throws {
    try create(
      "l", mode: "multiple",
      [["id": "a"], ["id": "n", "selectable": false], ["id": "p", "children": [["id": "c"]]], ["id": "b"]])
    XCTAssertEqual(client.error("selection/select", ["list": "l", "items": ["c"]]).code.rawValue, -32014)
    XCTAssertEqual(client.error("selection/select", ["list": "l", "items": ["n"]]).code.rawValue, -32014)
    XCTAssertEqual(try changeset("selection/selectAll", ["list": "l"]), ["selected": ["a", "p", "b"]])
    let update = try changeset(
      "list/edit",
      ["list": "l", "edits": [["op": "updateItems", "items": [["id": "a", "selectable": false]]]]])
    XCTAssertEqual(update?["deselected"], ["a"])
    try client.request("outline/expand", ["list": "l", "item": "p"])
    try client.request("selection/select", ["list": "l", "items": ["c"]])
    XCTAssertEqual(try changeset("outline/collapse", ["list": "l", "item": "p"])?["deselected"], ["c"])
    try client.request("outline/expand", ["list": "l", "item": "p"])  // does not reselect
    XCTAssertEqual(try selection("l"), ["p", "b"])
  }

  /// Selections are listed in index-path order everywhere: snapshots, `query/selection` and the
  /// changeset's `selected` / `deselected` (old index paths for `deselected`).
  func testSelectionIsListedInIndexPathOrder() throws {
    // Ids created c, a, b; then rows c, b, a: neither creation nor alphabetical order.
    try create(
      "l", mode: "multiple",
      [["id": "c"], ["id": "a"], ["id": "b"], ["id": "p", "children": [["id": "r"], ["id": "q"]]]])
    try client.request(
      "list/edit",
      [
        "list": "l",
        "edits": [
          ["op": "moveItem", "item": "a", "after": "b"], ["op": "moveItem", "item": "q", "before": "r"],
          ["op": "expand", "item": "p"],
        ],
      ])
    XCTAssertEqual(
      try changeset("selection/selectAll", ["list": "l"])?["selected"], ["c", "b", "a", "p", "q", "r"])
    XCTAssertEqual(try selection("l"), ["c", "b", "a", "p", "q", "r"])
    let answer = try client.request("list/subscribe", ["list": "l"])
    XCTAssertEqual(answer["lists"]?[0]?["snapshot"]?["selection"], ["c", "b", "a", "p", "q", "r"])
    XCTAssertEqual(try changeset("outline/collapse", ["list": "l", "item": "p"])?["deselected"], ["q", "r"])
    XCTAssertEqual(
      try changeset("selection/deselectAll", ["list": "l"])?["deselected"], ["c", "b", "a", "p"])
  }

  /// Expanding everything (no `item`) and expanding recursively skip leaves; collapsing
  /// everything and collapsing recursively include them. A leaf's own state matters once it gets
  /// children: they show if it is expanded.
  func testWhichOutlineOperationsIncludeLeaves() throws {
    try create(
      "l", mode: "single",
      [["id": "p", "children": [["id": "c"], ["id": "q", "children": [["id": "d"]]]]], ["id": "leaf"]])
    XCTAssertEqual(try changeset("outline/expand", ["list": "l"])?["expanded"], ["p", "q"])
    XCTAssertEqual(try changeset("outline/expand", ["list": "l", "item": "leaf"])?["expanded"], ["leaf"])
    XCTAssertEqual(try changeset("outline/collapse", ["list": "l"])?["collapsed"], ["p", "q", "leaf"])
    XCTAssertEqual(
      try changeset("outline/expand", ["list": "l", "item": "p", "recursive": true])?["expanded"], ["p", "q"])
    // c stayed collapsed: a child given to it is hidden.
    try client.request(
      "list/edit", ["list": "l", "edits": [["op": "appendChildren", "parent": "c", "items": [["id": "e"]]]]])
    XCTAssertEqual(try client.request("query/item", ["list": "l", "item": "e"])["item"]?["visible"], false)
    try client.request("outline/expand", ["list": "l", "item": "leaf"])
    try client.request(
      "list/edit",
      ["list": "l", "edits": [["op": "appendChildren", "parent": "leaf", "items": [["id": "f"]]]]])
    XCTAssertEqual(try client.request("query/item", ["list": "l", "item": "f"])["item"]?["visible"], true)
    // Recursive collapse includes expanded leaves.
    try client.request("outline/expand", ["list": "l", "item": "d"])
    XCTAssertEqual(
      try changeset("outline/collapse", ["list": "l", "item": "p", "recursive": true])?["collapsed"],
      ["p", "q", "d"])
  }

  /// The changeset's `selectionMode` is only for a change of mode, which no method of protocol
  /// version 1 makes after `list/create`: no changeset carries it.
  func testNoChangesetCarriesASelectionMode() throws {
    try client.request("list/subscribe", ["snapshot": "none"])
    for mode in ["none", "single", "multiple"] {
      let list = JSONValue.string(mode)
      try create(mode, mode: mode, [["id": "a"], ["id": "p", "children": [["id": "c"]]]])
      try client.request(
        "list/replace", ["list": list, "content": ["sections": [["id": "s", "items": [["id": "a"]]]]]])
      if mode != "none" { try client.request("selection/select", ["list": list, "items": ["a"]]) }
      try client.request("list/edit", ["list": list, "edits": [["op": "deleteAllItems"]]])
      XCTAssertEqual(try client.request("list/info", ["list": list])["selectionMode"], list)
    }
    // Notifications are recorded on the connection's dispatch queue, which can lag behind the
    // answers: wait for the last change (recorded in arrival order, so after every other).
    XCTAssertNotNil(client.next("list/didChange") { $0["list"] == "multiple" && $0["version"] == 3 })
    let changesets = client.notifications.filter { $0.method == "list/didChange" }.compactMap {
      $0.params["changeset"]
    }
    XCTAssertGreaterThanOrEqual(changesets.count, 8)
    XCTAssertTrue(changesets.allSatisfy { $0["selectionMode"] == nil })
  }

  /// A move keeps an item selected only while it stays visible: under a collapsed parent it
  /// leaves the selection. A move that keeps it visible keeps it selected, and a mirror that
  /// keeps index-path order matches a fresh snapshot although no id joined or left.
  func testAMoveKeepsTheSelectionOnlyWhileTheItemStaysVisible() throws {
    try create("l", mode: "multiple", [["id": "a"], ["id": "b"], ["id": "p", "children": [["id": "c"]]]])
    try client.request("selection/select", ["list": "l", "items": ["a", "b"]])
    let moved = try changeset(
      "list/edit", ["list": "l", "edits": [["op": "moveItem", "item": "b", "before": "a"]]])
    XCTAssertEqual(moved, ["itemMoves": [[0, 1, 0, 0, 1]]])
    let fresh = try client.request("list/subscribe", ["list": "l"])
    XCTAssertEqual(fresh["lists"]?[0]?["snapshot"]?["selection"], ["b", "a"])
    let hidden = try changeset(
      "list/edit", ["list": "l", "edits": [["op": "moveItem", "item": "b", "parent": "p"]]])
    XCTAssertEqual(hidden, ["itemDeletes": [[0, 0, 1]], "deselected": ["b"]])
    XCTAssertEqual(try selection("l"), ["a"])
  }

  /// `expanded` / `collapsed` list only items present in both versions, in the new version's
  /// order.
  func testExpandedAndCollapsedListItemsOfBothVersionsInTheNewOrder() throws {
    try create(
      "l", mode: "single",
      [
        ["id": "a", "expanded": true, "children": [["id": "a1"]]],
        ["id": "b", "expanded": true, "children": [["id": "b1"]]],
      ])
    let reordered = try changeset(
      "list/edit",
      [
        "list": "l",
        "edits": [
          ["op": "collapse", "item": "a"], ["op": "collapse", "item": "b"],
          ["op": "moveItem", "item": "a", "after": "b"],
        ],
      ])
    XCTAssertEqual(reordered?["collapsed"], ["b", "a"])
    let appended = try changeset(
      "list/edit",
      [
        "list": "l",
        "edits": [
          ["op": "appendItems", "items": [["id": "n", "expanded": true, "children": [["id": "n1"]]]]],
          ["op": "expand", "item": "a"],
        ],
      ])
    XCTAssertEqual(appended?["expanded"], ["a"])
    let inserted = (appended?["itemInserts"]?.arrayValue ?? []).flatMap { $0["rows"]?.arrayValue ?? [] }
    XCTAssertEqual(inserted.first { $0["id"] == "n" }?["expanded"], true, "\(inserted)")
    let created = try client.request(
      "list/create",
      [
        "list": "m",
        "content": [
          "sections": [["id": "s", "items": [["id": "n", "expanded": true, "children": [["id": "n1"]]]]]]
        ],
      ])
    XCTAssertNil(created["changeset"]?["expanded"])
  }

  /// `recursive: true` counts the named item like its descendants: a leaf is not expanded; without
  /// `recursive`, it is. Collapsing recursively collapses the leaf.
  func testRecursiveExpandOfALeafDoesNothing() throws {
    try create("l", mode: "single", [["id": "leaf"]])
    for recursive in [
      try client.request("outline/expand", ["list": "l", "item": "leaf", "recursive": true]),
      try client.request(
        "list/edit", ["list": "l", "edits": [["op": "expand", "item": "leaf", "recursive": true]]]),
    ] {
      XCTAssertEqual(recursive["version"], 0)
      XCTAssertEqual(recursive["changeset"], [:])
    }
    XCTAssertEqual(
      try changeset("outline/expand", ["list": "l", "item": "leaf"])?["expanded"], ["leaf"])
    XCTAssertEqual(
      try changeset("outline/collapse", ["list": "l", "item": "leaf", "recursive": true])?["collapsed"],
      ["leaf"])
  }

  /// Without `item`, `outline/expand` and `outline/collapse` act on every section, flat ones
  /// included: collapsing everything collapses a flat section's expanded leaves.
  func testOutlineOperationsWithoutAnItemActOnEverySection() throws {
    try client.request(
      "list/create",
      [
        "list": "l",
        "content": [
          "sections": [
            ["id": "o", "items": [["id": "p", "children": [["id": "c"]]]]],
            ["id": "f", "items": [["id": "leaf"]]],
          ]
        ],
      ])
    try client.request("outline/expand", ["list": "l", "item": "leaf"])
    let expanded = try changeset("outline/expand", ["list": "l"])
    XCTAssertEqual(expanded?["expanded"], ["p"])
    let collapsed = try changeset("outline/collapse", ["list": "l"])
    XCTAssertEqual(collapsed?["collapsed"], ["p", "leaf"])
    XCTAssertEqual(
      collapsed?["itemReconfigures"]?[1], ["at": [1, 0], "rows": [["id": "leaf", "level": 0]]])
  }
}
