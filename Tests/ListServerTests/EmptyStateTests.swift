// Empty states and editing mode (Protocol/README.md §3 "Empty states and editing"), against an in-process server.
import JSON
import JSONRPC
import XCTest

final class EmptyStateTests: InProcessServerTestCase {
  private func edit(_ edits: JSONValue, list: String = "e") throws -> JSONValue? {
    try client.request("list/edit", ["list": .string(list), "edits": edits])["changeset"]
  }

  /// An empty state given at creation is in `list/info`, snapshots and `query/content`;
  /// `setEmptyState` changes it (its changeset carries the new one, `null` when removed);
  /// `setEditing` likewise with `editing`.
  func testEmptyStateAndEditingRoundTripAndChange() throws {
    let state: JSONValue = ["title": "No mail", "image": "tray", "description": "Messages appear here."]
    let created = try client.request(
      "list/create", ["list": "e", "emptyState": state, "editing": true])
    XCTAssertEqual(created["changeset"], ["emptyState": state, "editing": true])
    let info = try client.request("list/info", ["list": "e"])
    XCTAssertEqual(info["emptyState"], state)
    XCTAssertEqual(info["editing"], true)
    let content = try client.request("query/content", ["list": "e"])
    XCTAssertEqual(content["emptyState"], state)
    let snapshot = try client.request("list/subscribe", ["list": "e"])["lists"]?[0]?["snapshot"]
    XCTAssertEqual(snapshot?["emptyState"], state)
    XCTAssertEqual(snapshot?["editing"], true)

    let search = try edit([["op": "setEmptyState", "emptyState": ["kind": "search", "query": "zebra"]]])
    XCTAssertEqual(
      search,
      [
        "emptyState": [
          "kind": "search", "query": "zebra", "title": "No Results for “zebra”", "image": "magnifyingglass",
          "description": "Check the spelling or try a new search.",
        ]
      ])
    XCTAssertEqual(
      try edit([["op": "setEmptyState", "emptyState": nil], ["op": "setEditing", "editing": false]]),
      ["emptyState": nil, "editing": false])
    XCTAssertNil(try client.request("list/info", ["list": "e"])["emptyState"])
    XCTAssertNil(try client.request("list/info", ["list": "e"])["editing"])
    // The same again changes nothing: no version.
    let same = try client.request(
      "list/edit", ["list": "e", "edits": [["op": "setEditing", "editing": false]]])
    XCTAssertEqual(same["changeset"], [:])
    XCTAssertEqual(same["version"], 2)
  }

  /// Bad empty states are -32602 naming the field and the value.
  func testBadEmptyStatesNameTheField() throws {
    try client.request("list/create", ["list": "e"])
    let cases: [(JSONValue, String)] = [
      (["image": "x"], "emptyState.title"),
      (["title": 3], "emptyState.title"),
      (["kind": "search"], "emptyState.query"),
      (["kind": "blank", "title": "T"], "emptyState.kind"),
      (["title": "T", "query": "q"], "emptyState.query"),
      (["title": "T", "subtitle": "s"], "emptyState.subtitle"),
    ]
    for (state, field) in cases {
      let created = client.error("list/create", ["list": "f", "emptyState": state])
      XCTAssertEqual(created.code, .invalidParams, "\(state)")
      XCTAssertEqual(created.data?["field"], .string(field), "\(state): \(created.message)")
      let edited = client.error(
        "list/edit", ["list": "e", "edits": [["op": "setEmptyState", "emptyState": state]]])
      XCTAssertEqual(edited.data?["field"], .string("edits[0]." + field), "\(state): \(edited.message)")
    }
    let kind = client.error("list/create", ["list": "f", "emptyState": ["kind": "blank", "title": "T"]])
    XCTAssertTrue(kind.message.contains("blank"), kind.message)
    let editing = client.error(
      "list/edit", ["list": "e", "edits": [["op": "setEditing", "editing": "yes"]]])
    XCTAssertEqual(editing.data?["field"], "edits[0].editing")
    XCTAssertTrue(editing.message.contains("yes"), editing.message)
  }
}
