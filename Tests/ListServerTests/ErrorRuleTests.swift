// Which error a request gets when several apply, and where errors name an edit, against an in-process server.
import JSON
import JSONRPC
import XCTest

final class ErrorRuleTests: InProcessServerTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    let content: JSONValue = [
      "sections": [
        ["id": "s", "items": [["id": "a"], ["id": "b"], ["id": "p", "children": [["id": "c"]]]]]
      ]
    ]
    try client.request("list/create", ["list": "l", "content": content])
    try client.request("list/create", ["list": "none", "selectionMode": "none", "content": content])
  }

  /// Only `list/edit` has edits to name: `data.editIndex` (and "edit N:" in the message) is
  /// there for its errors, the decoding ones included, and nowhere else.
  func testOnlyListEditErrorsNameTheFailingEdit() {
    let single: [(String, JSONValue)] = [
      ("selection/select", ["list": "l", "items": ["zz"]]),
      ("selection/select", ["list": "l", "items": ["c"]]),
      ("selection/deselect", ["list": "l", "items": ["zz"]]),
      ("selection/selectAll", ["list": "l"]),
      ("outline/expand", ["list": "l", "item": "zz"]),
      ("outline/collapse", ["list": "l", "item": "zz", "recursive": true]),
      ("outline/expandToLevel", ["list": "l", "level": 1, "section": "zz"]),
      ("event/select", ["list": "l", "item": "c"]),
    ]
    for (method, params) in single {
      let error = client.error(method, params)
      XCTAssertNil(error.data?["editIndex"], "\(method) \(params): \(error)")
      XCTAssertFalse(error.message.contains("edit 0"), "\(method): \(error.message)")
    }
    let model = client.error(
      "list/edit",
      ["list": "l", "edits": [["op": "select", "items": ["a"]], ["op": "select", "items": ["c"]]]])
    XCTAssertEqual(model.data?["editIndex"], 1)
    XCTAssertTrue(model.message.contains("edit 1:"), model.message)
    let decoding = client.error(
      "list/edit",
      [
        "list": "l",
        "edits": [["op": "select", "items": ["a"]], ["op": "appendItems", "items": [["id": 5]]]],
      ])
    XCTAssertEqual(decoding.code, .invalidParams)
    XCTAssertEqual(decoding.data?["editIndex"], 1)
    XCTAssertEqual(decoding.data?["field"], "edits[1].items[0].id")
  }

  /// `updateSection` checks its section even when it sets neither header nor footer: alone it
  /// fails with -32011, and in a batch it is the failing edit.
  func testUpdateSectionOfAnUnknownSectionFailsWithoutHeaderOrFooter() {
    let edits: [JSONValue] = [
      ["op": "updateSection", "section": "nosec"],
      ["op": "updateSection", "section": "nosec", "header": nil],
    ]
    for edit in edits {
      let alone = client.error("list/edit", ["list": "l", "edits": [edit]])
      XCTAssertEqual(alone.code.rawValue, -32011, "\(edit): \(alone)")
      XCTAssertEqual(alone.data?["section"], "nosec")
      XCTAssertEqual(alone.data?["editIndex"], 0)
      let batch = client.error(
        "list/edit", ["list": "l", "edits": [edit, ["op": "collapse", "item": "nope"]]])
      XCTAssertEqual(batch.code.rawValue, -32011, "\(edit): \(batch)")
      XCTAssertEqual(batch.data?["editIndex"], 0)
    }
    // A known section with neither field changes nothing.
    XCTAssertEqual(
      try client.request("list/edit", ["list": "l", "edits": [["op": "updateSection", "section": "s"]]]),
      ["list": "l", "version": 0, "changeset": [:]])
  }

  /// Which duplicate id an edit that adds ids reports: section ids before items; then each
  /// section's items in turn (depth first), earlier sections' items counting as in the list;
  /// in each id list an id already in the list before one repeated within the edit.
  func testWhichDuplicateIdIsReported() throws {
    try client.request(
      "list/create",
      ["list": "two", "content": ["sections": [["id": "s", "items": [["id": "a"]]], ["id": "t"]]]])
    let cases: [(JSONValue, String)] = [
      (["op": "appendSections", "sections": [["id": "u", "items": [["id": "a"]]], ["id": "u"]]], "u"),
      (["op": "appendSections", "sections": [["id": "u"], ["id": "u"], ["id": "s"]]], "s"),
      (["op": "insertSections", "before": "s", "sections": [["id": "u"], ["id": "u"], ["id": "t"]]], "t"),
      (
        [
          "op": "appendSections",
          "sections": [
            ["id": "u", "items": [["id": "b"]]], ["id": "v", "items": [["id": "b"], ["id": "a"]]],
          ],
        ], "b"
      ),
      (
        [
          "op": "appendSections",
          "sections": [
            ["id": "u", "items": [["id": "b"], ["id": "b"]]], ["id": "v", "items": [["id": "a"]]],
          ],
        ], "b"
      ),
      (
        [
          "op": "appendSections",
          "sections": [["id": "u", "items": [["id": "b"], ["id": "b"], ["id": "a"]]]],
        ], "a"
      ),
      (["op": "appendItems", "section": "t", "items": [["id": "b"], ["id": "b"], ["id": "a"]]], "a"),
      (
        [
          "op": "appendItems", "section": "t",
          "items": [["id": "m", "children": [["id": "n"], ["id": "o"]]], ["id": "o"], ["id": "n"]],
        ], "o"
      ),
      (
        [
          "op": "insertItems", "after": "a", "items": [["id": "m", "children": [["id": "a"]]], ["id": "m"]],
        ], "m"
      ),
      (["op": "replaceItems", "section": "t", "items": [["id": "b"], ["id": "b"], ["id": "a"]]], "a"),
      // Of several repeated ids, the one whose second occurrence comes first.
      (["op": "appendSections", "sections": [["id": "x"], ["id": "y"], ["id": "y"], ["id": "x"]]], "y"),
      (
        [
          "op": "appendItems", "section": "t", "items": [["id": "x"], ["id": "y"], ["id": "y"], ["id": "x"]],
        ], "y"
      ),
      (
        [
          "op": "appendItems", "section": "t", "items": [["id": "x"], ["id": "y"], ["id": "x"], ["id": "y"]],
        ], "x"
      ),
      (
        [
          "op": "appendItems", "section": "t", "items": [["id": "x"], ["id": "a"], ["id": "x"], ["id": "a"]],
        ], "a"
      ),
      (
        ["op": "insertItems", "after": "a", "items": [["id": "x"], ["id": "y"], ["id": "y"], ["id": "x"]]],
        "y"
      ),
      (
        [
          "op": "replaceItems", "section": "t",
          "items": [["id": "x"], ["id": "y"], ["id": "y"], ["id": "x"]],
        ], "y"
      ),
    ]
    for (edit, id) in cases {
      let error = client.error("list/edit", ["list": "two", "edits": [edit]])
      XCTAssertEqual(error.code.rawValue, -32013, "\(edit): \(error)")
      XCTAssertEqual(error.data?["id"], .string(id), "\(edit): \(error)")
    }
    let contents: [(JSONValue, String)] = [
      (["sections": [["id": "x"], ["id": "y"], ["id": "y"], ["id": "x"]]], "y"),
      (["sections": [["id": "s", "items": [["id": "x"], ["id": "y"], ["id": "y"], ["id": "x"]]]]], "y"),
      (
        [
          "sections": [
            ["id": "s", "items": [["id": "x", "children": [["id": "y"], ["id": "x"]]], ["id": "y"]]]
          ]
        ], "x"
      ),
    ]
    for (content, id) in contents {
      for (method, list) in [("list/create", "three"), ("list/replace", "two")] {
        let error = client.error(method, ["list": .string(list), "content": content])
        XCTAssertEqual(error.code.rawValue, -32013, "\(method) \(content): \(error)")
        XCTAssertEqual(error.data?["id"], .string(id), "\(method) \(content): \(error)")
      }
    }
  }

  /// Moving an item or a section relative to itself is -32014 naming it, though the list would
  /// stay as it is; in a batch the edits before it are undone.
  func testMovingRelativeToItselfIsAnInvalidEdit() throws {
    let cases: [(JSONValue, String)] = [
      (["op": "moveItem", "item": "a", "before": "a"], "item 'a' cannot be placed relative to itself"),
      (["op": "moveItem", "item": "a", "after": "a"], "item 'a' cannot be placed relative to itself"),
      (["op": "moveItem", "item": "p", "parent": "p"], "item 'p' cannot be placed relative to itself"),
      (
        ["op": "moveSection", "section": "s", "before": "s"], "section 's' cannot be moved relative to itself"
      ),
      (
        ["op": "moveSection", "section": "s", "after": "s"], "section 's' cannot be moved relative to itself"
      ),
    ]
    for (edit, reason) in cases {
      let error = client.error(
        "list/edit",
        ["list": "l", "edits": [["op": "updateItems", "items": [["id": "b", "text": "B"]]], edit]])
      XCTAssertEqual(error.code.rawValue, -32014, "\(edit): \(error)")
      XCTAssertEqual(error.data?["reason"], .string(reason), "\(edit): \(error)")
      XCTAssertEqual(error.data?["editIndex"], 1, "\(edit): \(error)")
    }
    XCTAssertEqual(try client.request("list/info", ["list": "l"])["version"], 0)
  }

  /// User events check the item before the selection mode (unlike `selection/select`).
  func testEventSelectChecksTheItemBeforeTheMode() {
    XCTAssertEqual(client.error("event/select", ["list": "none", "item": "zz"]).code.rawValue, -32012)
    XCTAssertEqual(client.error("event/select", ["list": "none", "item": "a"]).code.rawValue, -32014)
    XCTAssertEqual(client.error("selection/select", ["list": "none", "items": ["zz"]]).code.rawValue, -32014)
  }

  /// The order of Protocol/README.md "Which error wins": the request's own members, the list,
  /// `ifVersion`, the content or edits (all decoded before any applies), then the edits in order
  /// — and within one, ids it needs before ids it adds.
  func testWhichErrorWinsWhenSeveralApply() {
    let cases: [(String, JSONValue, Int, String?)] = [
      // The request's own members come first, even before the list.
      ("outline/expand", ["list": "nolist", "item": 5], -32602, "item"),
      ("list/edit", ["list": "nolist", "edits": 5], -32602, "edits"),
      ("list/edit", ["list": "nolist", "bogus": 1, "edits": []], -32602, "bogus"),
      ("list/edit", ["list": "nolist", "ifVersion": "1", "edits": []], -32602, "ifVersion"),
      ("list/replace", ["list": "nolist", "content": 5], -32602, "content"),
      ("query/items", ["list": "nolist", "section": 5], -32602, "section"),
      ("query/outline", ["list": "nolist", "depth": -1], -32602, "depth"),
      ("query/search", ["list": "nolist", "text": 5], -32602, "text"),
      ("query/itemAt", ["list": "nolist", "indexPath": 5], -32602, "indexPath"),
      ("event/select", ["list": "nolist", "item": 5], -32602, "item"),
      ("event/toggle", ["list": "nolist", "item": "a", "isOn": "yes"], -32602, "isOn"),
      ("event/move", ["list": "nolist", "item": "a"], -32602, nil),
      ("event/refresh", ["list": "nolist", "timeoutMs": 0], -32602, "timeoutMs"),
      ("list/changesSince", ["list": "nolist", "version": -1], -32602, "version"),
      ("list/subscribe", ["list": "nolist", "snapshot": "all"], -32602, "snapshot"),
      // Then the list…
      ("list/edit", ["list": "nolist", "edits": [["op": "bogus"]]], -32010, nil),
      ("list/replace", ["list": "nolist", "content": ["sections": [["id": 5]]]], -32010, nil),
      ("list/create", ["list": "l", "content": ["sections": [["id": 5]]]], -32013, nil),
      // …then ifVersion…
      ("list/edit", ["list": "l", "ifVersion": 99, "edits": [["op": "bogus"]]], -32801, nil),
      ("list/replace", ["list": "l", "ifVersion": 99, "content": ["sections": [["id": 5]]]], -32801, nil),
      ("selection/select", ["list": "l", "ifVersion": 99, "items": ["zz"]], -32801, nil),
      // …then every edit's operands, before any edit applies…
      (
        "list/edit", ["list": "l", "edits": [["op": "deleteItems", "items": ["zz"]], ["op": "bogus"]]],
        -32602,
        "edits[1].op"
      ),
      // …then the edits in order.
      (
        "list/edit",
        [
          "list": "l",
          "edits": [["op": "deleteItems", "items": ["zz"]], ["op": "deleteItems", "items": ["yy"]]],
        ],
        -32012, "zz"
      ),
      ("list/edit", ["list": "l", "edits": [["op": "deleteItems", "items": ["zz", "yy"]]]], -32012, "zz"),
      // Within one edit: what it needs before what it adds.
      (
        "list/edit", ["list": "l", "edits": [["op": "insertItems", "after": "zz", "items": [["id": "a"]]]]],
        -32012, "zz"
      ),
      (
        "list/edit",
        ["list": "l", "edits": [["op": "appendItems", "section": "zz", "items": [["id": "a"]]]]],
        -32011, "zz"
      ),
      (
        "list/edit",
        ["list": "l", "edits": [["op": "appendChildren", "parent": "zz", "items": [["id": "a"]]]]],
        -32012, "zz"
      ),
      (
        "list/edit", ["list": "l", "edits": [["op": "moveItem", "item": "zz", "after": "yy"]]], -32012, "zz"
      ),
      // Content: section ids before items.
      (
        "list/replace",
        [
          "list": "l",
          "content": ["sections": [["id": "x", "items": [["id": "q"], ["id": "q"]]], ["id": "x"]]],
        ],
        -32013, "x"
      ),
      // Selection: mode none refuses before looking at the items; single mode checks every item
      // before counting them.
      ("selection/select", ["list": "none", "items": ["zz"]], -32014, nil),
      ("selection/select", ["list": "l", "items": ["a", "b", "zz"]], -32012, "zz"),
      ("selection/select", ["list": "l", "items": ["a", "b", "c"]], -32014, nil),
    ]
    for (method, params, code, detail) in cases {
      let error = client.error(method, params)
      XCTAssertEqual(error.code.rawValue, code, "\(method) \(params): \(error)")
      if let detail {
        let data = error.data
        let named = [data?["field"], data?["item"], data?["section"], data?["id"]].compactMap {
          $0?.stringValue
        }
        XCTAssertTrue(named.contains(detail), "\(method) \(params): \(error) does not name \(detail)")
      }
    }
    // Nothing changed.
    XCTAssertEqual(try client.version(of: "l"), 0)
  }
}
