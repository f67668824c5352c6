// explain: true and list/explain against an in-process server: wire edits and sessions named, answers that agree, errors.
import Foundation
import JSON
import JSONRPC
import XCTest

final class ExplainMethodTests: InProcessServerTestCase {
  let content: JSONValue = [
    "sections": [
      [
        "id": "s",
        "items": [["id": "a", "text": "A"], ["id": "b", "text": "B"], ["id": "c", "text": "C"]],
      ]
    ]
  ]

  /// Causes name the wire edit (its index and op, not the model edits it became) and the
  /// source names the method and the session.
  func testAnEditsExplanationNamesTheWireEditAndTheSession() throws {
    try client.request("list/create", ["list": "l", "content": content])
    let answer = try client.request(
      "list/edit",
      [
        "list": "l", "explain": true,
        "edits": [
          [
            "op": "appendItems", "section": "s",
            "items": [["id": "p", "children": [["id": "p1"]], "expanded": true]],
          ],
          ["op": "updateItems", "items": [["id": "b", "text": "B2"]]],
          ["op": "moveItem", "item": "c", "before": "a"],
        ],
      ])
    let explain = try XCTUnwrap(answer["explain"])
    XCTAssertEqual(explain["source"]?["method"], "list/edit")
    XCTAssertEqual(explain["source"]?["by"]?["name"], "listd-tests")
    let causes = try XCTUnwrap(explain["causes"]?.arrayValue)
    let insert = try XCTUnwrap(causes.first { $0["change"] == "itemInserts" })
    XCTAssertEqual(insert["item"], "p")
    XCTAssertEqual(insert["count"], 2)  // p and its child p1: one wire edit, three model edits
    XCTAssertEqual(insert["reason"], "added")
    XCTAssertEqual(insert["edit"], ["index": 0, "op": "appendItems"])
    let reconfigure = try XCTUnwrap(causes.first { $0["change"] == "itemReconfigures" })
    XCTAssertEqual(reconfigure["fields"], [["field": "text", "old": "B", "new": "B2"]])
    XCTAssertEqual(reconfigure["edit"], ["index": 1, "op": "updateItems"])
    let move = try XCTUnwrap(causes.first { $0["change"] == "itemMoves" })
    XCTAssertEqual(move["item"], "c")
    XCTAssertEqual(move["after"], .null)
    XCTAssertEqual(move["before"], "a")
    XCTAssertEqual(move["edit"], ["index": 2, "op": "moveItem"])
    // Asked for afterwards, the same explanation.
    let later = try client.request("list/explain", ["list": "l", "version": 1])
    XCTAssertEqual(later["explain"], explain)
    XCTAssertEqual(later["changeset"], answer["changeset"])
    XCTAssertEqual(later["previousVersion"], 0)
    // Without explain, no explain member.
    let plain = try client.request(
      "list/edit", ["list": "l", "edits": [["op": "deleteItems", "items": ["a"]]]])
    XCTAssertNil(plain["explain"])
  }

  /// "Why did this row last change?": the latest kept change that concerns the item, with only
  /// its causes; null when no kept change does.
  func testTheLatestChangeOfAnItem() throws {
    try client.request("list/create", ["list": "l", "content": content])
    try client.request(
      "list/edit", ["list": "l", "edits": [["op": "updateItems", "items": [["id": "a", "text": "A2"]]]]])
    try client.request("list/edit", ["list": "l", "edits": [["op": "deleteItems", "items": ["c"]]]])
    try client.request("outline/expand", ["list": "l", "item": "b"])  // a leaf: its own state changes
    let why = try client.request("list/explain", ["list": "l", "item": "a"])
    XCTAssertEqual(why["version"], 1)
    XCTAssertEqual(why["item"], "a")
    XCTAssertEqual(why["explain"]?["causes"]?.arrayValue?.count, 1)
    XCTAssertEqual(why["explain"]?["causes"]?[0]?["fields"], [["field": "text", "old": "A", "new": "A2"]])
    let expand = try client.request("list/explain", ["list": "l", "item": "b"])
    XCTAssertEqual(expand["version"], 3)
    XCTAssertEqual(expand["explain"]?["source"]?["method"], "outline/expand")
    XCTAssertEqual(
      expand["explain"]?["causes"]?.arrayValue?.compactMap { $0["edit"] }.first,
      ["index": 0, "op": "outline/expand"])
    // At a given version, only that version's causes for the item (none here).
    XCTAssertEqual(
      try client.request("list/explain", ["list": "l", "version": 2, "item": "a"])["explain"]?["causes"], [])
    try client.request("list/create", ["list": "m", "content": content])
    let never = try client.request("list/explain", ["list": "m", "item": "a"])
    XCTAssertEqual(never["version"], .null)
    XCTAssertEqual(never["oldestVersion"], .null)
  }

  func testExplainOfAReplaceAndOfTwoContents() throws {
    try client.request("list/create", ["list": "l", "content": content])
    let next: JSONValue = [
      "sections": [
        ["id": "s", "header": "H", "items": [["id": "c", "text": "C"], ["id": "a", "text": "A"]]]
      ]
    ]
    let answer = try client.request("list/replace", ["list": "l", "content": next, "explain": true])
    let causes = try XCTUnwrap(answer["explain"]?["causes"]?.arrayValue)
    XCTAssertEqual(answer["explain"]?["source"]?["method"], "list/replace")
    XCTAssertEqual(causes.map { $0["reason"] }, ["changed", "removed", "reordered"])
    XCTAssertEqual(causes[0]["fields"], [["field": "header", "old": .null, "new": "H"]])
    XCTAssertTrue(causes.allSatisfy { $0["edit"] == nil })
    let contents = try client.request("diff/contents", ["old": content, "new": next, "explain": true])
    XCTAssertEqual(contents["explain"]?["causes"], answer["explain"]?["causes"])
    XCTAssertEqual(contents["explain"]?["source"], ["method": "diff/contents"])
  }

  func testBadExplainRequestsAreRefusedNamingTheField() throws {
    try client.request("list/create", ["list": "l", "content": content])
    try client.request("list/edit", ["list": "l", "edits": [["op": "deleteItems", "items": ["a"]]]])
    let neither = client.error("list/explain", ["list": "l"])
    XCTAssertEqual(neither.code.rawValue, -32602)
    XCTAssertEqual(neither.data?["field"], "version")
    for version in [0, 2] {
      let bad = client.error("list/explain", ["list": "l", "version": .int(Int64(version))])
      XCTAssertEqual(bad.code.rawValue, -32602)
      XCTAssertTrue(bad.message.contains("\"version\" \(version)"), bad.message)
    }
    XCTAssertEqual(client.error("list/explain", ["list": "nope", "version": 1]).code.rawValue, -32010)
    XCTAssertEqual(client.error("list/explain", ["list": "l", "item": 5]).data?["field"], "item")
    XCTAssertEqual(
      client.error("list/explain", ["list": "l", "version": 1, "extra": 1]).code.rawValue, -32602)
    for method in ["list/edit", "list/changesSince"] {
      let params: JSONValue =
        method == "list/edit"
        ? ["list": "l", "edits": [], "explain": "yes"] : ["list": "l", "version": 0, "explain": "yes"]
      let bad = client.error(method, params)
      XCTAssertEqual(bad.data?["field"], "explain", method)
      XCTAssertTrue(bad.message.contains("\"yes\"") || bad.message.contains("string"), bad.message)
    }
    XCTAssertEqual(try client.version(of: "l"), 1, "a refused request changed nothing")
  }
}

extension ExplainMethodTests {
  /// A collapsed folder's expanded child moved out to the section's roots: the child is
  /// `reparented` to no parent (`parent: null`), and its children are `revealed` from under the
  /// folder, which stays collapsed (found by the spec-only client).
  func testRowsRevealedByAMoveAndAParentThatBecameARoot() throws {
    let tree: JSONValue = [
      "sections": [
        [
          "id": "s",
          "items": [["id": "p", "children": [["id": "q", "expanded": true, "children": [["id": "c"]]]]]],
        ]
      ]
    ]
    try client.request("list/create", ["list": "t", "content": tree])
    let answer = try client.request(
      "list/edit",
      ["list": "t", "explain": true, "edits": [["op": "moveItem", "item": "q", "section": "s"]]])
    let causes = try XCTUnwrap(answer["explain"]?["causes"]?.arrayValue)
    let inserts = causes.filter { $0["change"] == "itemInserts" }
    XCTAssertEqual(inserts.map { $0["reason"] }, ["reparented", "revealed"], "\(causes)")
    XCTAssertEqual(inserts.first?["parent"], .null)
    XCTAssertEqual(inserts.last?["item"], "c")
    XCTAssertEqual(inserts.last?["parent"], "p")
  }
}
