// check/batchUpdate and check/snapshot against an in-process server: answers, every problem, bad params naming field and value.
import Foundation
import JSON
import JSONRPC
import XCTest

final class CheckTests: InProcessServerTestCase {
  func testTheIssuesCountExampleGetsUIKitsMessage() throws {
    let answer = try client.request("check/batchUpdate", ["before": [4], "update": [:], "after": [5]])
    XCTAssertEqual(
      answer,
      [
        "valid": false,
        "problems": [
          [
            "rule": "itemCount",
            "message":
              "Invalid update: invalid number of items in section 0. The number of items contained in an existing section after the update (5) must be equal to the number of items contained in that section before the update (4), plus or minus the number of items inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out).",
            "at": 0,
          ]
        ],
      ])
  }

  func testARealChangesetIsValidWithTheCountsOfBothVersions() throws {
    let content: JSONValue = [
      "sections": [
        ["id": "s", "items": [["id": "a"], ["id": "b"], ["id": "c"]]], ["id": "t", "items": [["id": "d"]]],
      ]
    ]
    try client.request("list/create", ["list": "l", "content": content])
    let change = try client.request(
      "list/edit",
      [
        "list": "l",
        "edits": [
          ["op": "moveItem", "item": "a", "section": "t"], ["op": "deleteItems", "items": ["c"]],
          ["op": "appendItems", "items": [["id": "e"]], "section": "s"],
        ],
      ])
    let answer = try client.request(
      "check/batchUpdate", ["before": content, "update": change["changeset"] ?? [:], "after": [2, 2]])
    XCTAssertEqual(answer, ["valid": true, "after": [2, 2]], "\(change)")
  }

  func testUIKitIndexPathsReportEveryProblem() throws {
    let answer = try client.request(
      "check/batchUpdate",
      ["before": [2], "update": ["deleteItems": [[0, 1], [0, 2]], "moveItems": [[[0, 1], [0, 0]]]]])
    XCTAssertEqual(answer["valid"], false)
    XCTAssertEqual(
      answer["problems"]?.arrayValue?.map { $0["rule"]?.stringValue ?? "" },
      ["deleteItemOutOfBounds", "deleteAndMoveItem"])
    XCTAssertEqual(
      answer["problems"]?[1]?["message"],
      "attempt to perform a delete and a move from the same index path (<NSIndexPath: 0x0> {length = 2, path = 0 - 1})"
    )
  }

  func testSnapshotChecksReportEveryProblemAtOnce() throws {
    let content: JSONValue = [
      "sections": [
        ["id": "s", "items": [["id": "a"], ["id": "b", "children": [["id": "a"]]]]], ["id": "s"],
      ]
    ]
    let answer = try client.request("check/snapshot", ["content": content])
    XCTAssertEqual(
      answer["problems"]?.arrayValue?.map { $0["message"]?.stringValue ?? "" },
      [
        "Supplied section identifiers are not unique. Duplicate identifiers: {(s)}",
        "Supplied item identifiers are not unique. Duplicate identifiers: {(a)}",
      ])
    let flat = try client.request(
      "check/snapshot", ["flat": ["sections": [], "items": [["id": "a"], ["id": "b", "section": "s"]]]])
    XCTAssertEqual(flat["problems"]?.arrayValue?.count, 2)
    XCTAssertEqual(
      try client.request("check/snapshot", ["content": ["sections": [["id": "s"]]]]), ["valid": true])
  }

  /// Each bad param is -32602 naming its field and its value.
  func testBadParamsNameTheFieldAndTheValue() throws {
    let cases: [(JSONValue, String, String)] = [
      (["update": [:]], "before", #"missing required field "before""#),
      (
        ["before": [1, -2], "update": [:]], "before[1]",
        #""before[1]" must be a non-negative integer of at most 2147483647, got -2"#
      ),
      (
        ["before": "x", "update": [:]], "before",
        #""before" must be an array of item counts or a content object, got "x""#
      ),
      (
        ["before": [1], "update": [:], "after": [1.5]], "after[0]",
        #""after[0]" must be a non-negative integer of at most 2147483647, got 1.5"#
      ),
      (["before": [1], "update": 3], "update", #""update" must be an object, got 3"#),
      (["before": [1], "update": [:], "extra": 1], "extra", #""extra" is not a known field here"#),
      (
        ["before": [1], "update": ["deleteItems": [[0]]]], "update.deleteItems[0]",
        #""update.deleteItems[0]" must be an array of 2 non-negative integers, got [0]"#
      ),
      (
        ["before": [1], "update": ["moveItems": [[[0, 1]]]]], "update.moveItems[0]",
        #""update.moveItems[0]" must be a pair of index paths [[section, item], [section, item]], got [[0,1]]"#
      ),
      (
        ["before": [1], "update": ["moveItems": [[0, 1]]]], "update.moveItems[0][0]",
        #""update.moveItems[0][0]" must be an array of 2 non-negative integers, got 0"#
      ),
      (
        ["before": [1], "update": ["deleteSections": ["a"]]], "update.deleteSections[0]",
        #""update.deleteSections[0]" must be a non-negative integer of at most 2147483647, got "a""#
      ),
      (
        ["before": [1], "update": ["itemDeletes": [[0, 0, 0]]]], "update.itemDeletes[0]",
        #""update.itemDeletes[0]" must count between 1 and 2147483647 rows, got 0"#
      ),
      // Counts and indexes past 32 bits once overflowed the checker and killed the daemon.
      (
        ["before": [5], "update": ["itemInserts": [["at": [0, 0], "count": .int(Int64.max)]]]],
        "update.itemInserts[0].count",
        #""update.itemInserts[0].count" must count between 1 and 2147483647 rows, got 9223372036854775807"#
      ),
      (
        ["before": [5], "update": ["insertItems": [[0, .int(Int64.max)]]]], "update.insertItems[0][1]",
        #""update.insertItems[0][1]" must be a non-negative integer of at most 2147483647, got 9223372036854775807"#
      ),
      (
        ["before": [.int(3_000_000_000)], "update": [:]], "before[0]",
        #""before[0]" must be a non-negative integer of at most 2147483647, got 3000000000"#
      ),
      (
        ["before": [1], "update": ["itemMoves": [[0, 0, 0, .int(Int64.max), .int(Int64.max)]]]],
        "update.itemMoves[0][3]",
        #""update.itemMoves[0][3]" must be a non-negative integer of at most 2147483647, got 9223372036854775807"#
      ),
      (
        ["before": [1], "update": ["itemInserts": [["at": [0, 0]]]]], "update.itemInserts[0]",
        #"give exactly one of "update.itemInserts[0].rows", "update.itemInserts[0].count", got none"#
      ),
      (
        ["before": [1], "update": ["itemMoves": [[0, 0, 0]]]], "update.itemMoves[0]",
        #""update.itemMoves[0]" must be an array of 5 non-negative integers, got [0,0,0]"#
      ),
      (
        ["before": [1], "update": ["itemDeletes": [], "deleteItems": []]], "update",
        #""update" mixes the changeset format ("itemDeletes") and UIKit index paths ("deleteItems"): use one"#
      ),
      (
        ["before": [1], "update": ["deleteRows": []]], "update.deleteRows",
        #""update.deleteRows" is not a known field here"#
      ),
      (
        ["before": ["sections": [["id": 5]]], "update": [:]], "before.sections[0].id",
        #""before.sections[0].id" must be a string, got 5"#
      ),
    ]
    for (params, field, message) in cases {
      let error = client.error("check/batchUpdate", params)
      XCTAssertEqual(error.code.rawValue, -32602, "\(params)")
      XCTAssertEqual(error.data?["field"], .string(field), "\(params): \(error.message)")
      XCTAssertTrue(error.message.contains(message), "\(params): \(error.message)")
    }
    let neither = client.error("check/snapshot", [:])
    XCTAssertTrue(
      neither.message.contains(#"give exactly one of "content", "flat", got none"#), neither.message)
    let badItem = client.error("check/snapshot", ["flat": ["items": [["id": 1]]]])
    XCTAssertEqual(badItem.data?["field"], "flat.items[0].id")
    XCTAssertTrue(badItem.message.contains(#""flat.items[0].id" must be a string, got 1"#), badItem.message)
  }

  /// The members of a changeset beside its rows (`columns`, `emptyState`, `editing`, as listd
  /// emits them) are accepted, and checked for their form like `selected` and `selectionMode`; a
  /// counted section's `rowsAt` goes with non-empty `rows`, and only with them.
  func testChangesetListMembersAndRowsAtAreCheckedForTheirForm() throws {
    let emitted: JSONValue = [
      "itemDeletes": [[0, 0, 1]], "columns": [["id": "name", "title": "Name"]],
      "emptyState": ["title": "Empty"],
      "editing": true, "selectionMode": "single", "selected": ["a"],
    ]
    XCTAssertEqual(
      try client.request("check/batchUpdate", ["before": [2], "update": emitted]),
      ["valid": true, "after": [1]])
    let removed: JSONValue = ["itemDeletes": [[0, 0, 1]], "emptyState": .null]
    XCTAssertEqual(
      try client.request("check/batchUpdate", ["before": [2], "update": removed]),
      ["valid": true, "after": [1]])
    func section(_ members: JSONValue) -> JSONValue {
      ["before": [1], "update": ["sectionInserts": [["index": 1, "section": members]]]]
    }
    let cases: [(JSONValue, String, String)] = [
      (["before": [1], "update": ["columns": 5]], "update.columns", "got 5"),
      (["before": [1], "update": ["emptyState": "none"]], "update.emptyState", #"got "none""#),
      (["before": [1], "update": ["editing": 3]], "update.editing", "got 3"),
      (
        section(["id": "n", "rowCount": 3, "rowsAt": 0, "rows": []]),
        "update.sectionInserts[0].section.rowsAt",
        #"is only allowed beside a non-empty "update.sectionInserts[0].section.rows""#
      ),
      (
        section(["id": "n", "rowCount": 3, "rowsAt": 1]), "update.sectionInserts[0].section.rowsAt",
        #"is only allowed beside a non-empty "update.sectionInserts[0].section.rows""#
      ),
      (
        section(["id": "n", "rowCount": 3, "rows": [["id": "x", "level": 0]]]),
        "update.sectionInserts[0].section.rows",
        #"carries 1 rows of a counted section without "update.sectionInserts[0].section.rowsAt""#
      ),
    ]
    for (params, field, message) in cases {
      let error = client.error("check/batchUpdate", params)
      XCTAssertEqual(error.code.rawValue, -32602, "\(params)")
      XCTAssertEqual(error.data?["field"], .string(field), "\(params): \(error.message)")
      XCTAssertTrue(error.message.contains(message), "\(params): \(error.message)")
    }
    // listd's own counted sections: no rows (lean), rows from rowsAt (windowed), none in the window.
    for counted: JSONValue in [
      ["id": "n", "rowCount": 3],
      ["id": "n", "rowCount": 3, "rowsAt": 2, "rows": [["id": "x", "level": 0]]],
      ["id": "n", "rowCount": 3, "rows": []],
    ] {
      XCTAssertEqual(
        try client.request("check/batchUpdate", section(counted)), ["valid": true, "after": [1, 3]])
    }
  }

  /// UIKit throws on a cell with two instances of one system accessory: check/snapshot reports
  /// it, list/create, list/edit and patches refuse it naming the item and the type; custom
  /// accessories may repeat.
  func testRepeatedSystemAccessoriesAreReportedAndRefused() throws {
    let twice: JSONValue = [["type": "checkmark"], ["type": "badge", "text": "1"], ["type": "checkmark"]]
    let content: JSONValue = [
      "sections": [
        [
          "id": "s",
          "items": [
            ["id": "a", "accessories": twice],
            ["id": "b", "accessories": [["type": "badge", "text": "1"], ["type": "badge", "text": "2"]]],
          ],
        ]
      ]
    ]
    let answer = try client.request("check/snapshot", ["content": content])
    XCTAssertEqual(
      answer,
      [
        "valid": false,
        "problems": [
          [
            "rule": "duplicateSystemAccessory",
            "message":
              "More than one instance of the system accessory checkmark for item identifier (a): the system throws an exception if a cell includes more than one instance of any system accessory",
            "at": ["a"],
          ]
        ],
      ])
    let create = client.error("list/create", ["list": "l", "content": content])
    XCTAssertEqual(create.code.rawValue, -32602)
    XCTAssertEqual(create.data?["field"], "content.sections[0].items[0].accessories")
    XCTAssertTrue(
      create.message.contains("of item 'a' has more than one checkmark accessory: UIKit throws"),
      create.message)
    _ = try client.request(
      "list/create", ["list": "l", "content": ["sections": [["id": "s", "items": [["id": "a"]]]]]])
    let patch = client.error(
      "list/edit",
      ["list": "l", "edits": [["op": "patchItems", "items": [["id": "a", "accessories": twice]]]]])
    XCTAssertEqual(patch.code.rawValue, -32602, patch.message)
    XCTAssertEqual(patch.data?["field"], "edits[0].items[0].accessories", patch.message)
    XCTAssertTrue(
      patch.message.contains("accessories\" of item 'a' has more than one checkmark accessory"), patch.message
    )
    let append = client.error(
      "list/edit",
      [
        "list": "l",
        "edits": [["op": "appendItems", "section": "s", "items": [["id": "c", "accessories": twice]]]],
      ])
    XCTAssertEqual(append.data?["field"], "edits[0].items[0].accessories", append.message)
  }
}
