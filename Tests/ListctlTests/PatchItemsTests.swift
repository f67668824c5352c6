// End-to-end: the patchItems edit (a JSON Merge Patch of each payload) and `listctl edit --update`.
import Foundation
import JSON
import JSONRPC
import ListClient
import XCTest

final class PatchItemsTests: XCTestCase {
  private var daemon: ListctlDaemon!

  override func setUpWithError() throws {
    daemon = try ListctlDaemon(["--demo"])
  }

  override func tearDown() {
    daemon.stop()
  }

  private func item(_ list: String, _ id: String) throws -> JSONValue {
    let run = try daemon.run("query", "item", list, id, "--json")
    XCTAssertEqual(run.status, 0, run.stderr)
    return try JSONValue(parsing: run.stdout)
  }

  /// `ada` of the demo's contacts with its text changed, everything else as before.
  func testUpdateChangesTheTextAndKeepsEveryOtherField() throws {
    let before = try item("contacts", "ada")
    XCTAssertNotNil(before["trailingSwipeActions"], "the demo's ada has actions: \(before)")
    let run = try daemon.run("edit", "contacts", "--update", "ada=Ada King")
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stdout, "v1  ~ 'Ada King'\n")
    var expected = try XCTUnwrap(before.objectValue)
    expected["text"] = "Ada King"
    XCTAssertEqual(Self.sorted(try item("contacts", "ada")), Self.sorted(.object(expected)))
    // The same text again changes nothing and makes no version.
    let again = try daemon.run("edit", "contacts", "--update", "ada=Ada King")
    XCTAssertEqual(again.stdout, "v1  (no change)\n", again.stderr)
  }

  /// `value` with the members of every object in name order: the daemon may reorder `data`.
  static func sorted(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let object):
      return .object(JSONObject(object.sorted { $0.key < $1.key }.map { ($0.key, sorted($0.value)) }))
    case .array(let array): return .array(array.map(sorted))
    default: return value
    }
  }

  func testPatchItemsOverJSONRPC() async throws {
    let client = try ListClient.socket(path: daemon.socket)
    defer { client.close() }
    try await client.initialize(name: "PatchItemsTests")
    let content = try JSONValue(
      parsing: #"""
        {"sections":[{"id":"s","items":[
          {"id":"a","text":"A","secondaryText":"a@x","image":"person","data":{"team":"x","tags":["t"],"deep":{"k":1,"j":2}},
           "accessories":[{"type":"badge","text":"2"}],"contextMenuActions":[{"id":"copy","title":"Copy"}],"movable":true},
          {"id":"b","text":"B"}]}]}
        """#)
    _ = try await client.create("l", content: content)
    func row(_ id: String) async throws -> JSONObject {
      let answer = try await client.item("l", id)
      var info = try XCTUnwrap(answer.objectValue)
      for key in ["level", "section", "indexPath", "children", "visible", "selected"] { info[key] = nil }
      return info
    }
    func expectRow(_ id: String, _ expected: JSONObject, line: UInt = #line) async throws {
      let actual = try await row(id)
      XCTAssertEqual(Self.sorted(.object(actual)), Self.sorted(.object(expected)), line: line)
    }
    func patch(_ patches: JSONValue...) -> JSONValue { ["op": "patchItems", "items": .array(patches)] }
    var expected = try await row("a")

    // Absent members are kept.
    var change = try await client.edit("l", [patch(["id": "a", "text": "A2"])])
    XCTAssertEqual(change.version, 1)
    expected["text"] = "A2"
    try await expectRow("a", expected)

    // null removes; data merges recursively (RFC 7396).
    change = try await client.edit(
      "l",
      [
        patch([
          "id": "a", "secondaryText": nil, "movable": nil,
          "data": ["team": nil, "floor": 3, "deep": ["k": nil, "m": true]],
        ])
      ])
    XCTAssertEqual(change.version, 2)
    expected["secondaryText"] = nil
    expected["movable"] = nil
    expected["data"] = ["tags": ["t"], "deep": ["j": 2, "m": true], "floor": 3]
    try await expectRow("a", expected)

    // A patch equal to what is there changes nothing and makes no version.
    change = try await client.edit(
      "l", [patch(["id": "a", "text": "A2", "data": ["floor": 3]], ["id": "b"])])
    XCTAssertEqual(change.version, 2)
    XCTAssertEqual(change.changeset, [:])

    // An unknown id fails the batch, naming the id and the edit; the earlier edits are undone.
    do {
      _ = try await client.edit(
        "l", [patch(["id": "b", "text": "B2"]), ["op": "deleteItems", "items": ["a"]], patch(["id": "zz"])])
      XCTFail("an unknown id must fail")
    } catch let error as ResponseError {
      XCTAssertEqual(error.code.rawValue, -32012)
      XCTAssertEqual(error.data?["item"], "zz")
      XCTAssertEqual(error.data?["editIndex"], 2)
      XCTAssertTrue(error.message.contains("'zz'"), error.message)
    }
    // A bad value fails with the field named; nothing changed either.
    do {
      _ = try await client.edit(
        "l", [patch(["id": "b", "text": "B2"]), patch(["id": "a", "selectable": "no"])])
      XCTFail("a bad value must fail")
    } catch let error as ResponseError {
      XCTAssertEqual(error.code.rawValue, -32602)
      XCTAssertEqual(error.data?["field"], "edits[1].items[0].selectable")
    }
    let info = try await client.info("l")
    XCTAssertEqual(info["version"], 2)
    try await expectRow("a", expected)
    try await expectRow("b", ["id": "b", "text": "B"])

    // Patches apply in batch order: after an update, and on an item the batch appended.
    change = try await client.edit(
      "l",
      [
        ["op": "updateItems", "items": [["id": "b", "text": "B3", "image": "star"]]],
        patch(["id": "b", "secondaryText": "second"]),
        ["op": "appendItems", "items": [["id": "c", "text": "C"]]],
        patch(["id": "c", "data": ["n": 1]]),
      ])
    XCTAssertEqual(change.version, 3)
    try await expectRow("b", ["id": "b", "text": "B3", "secondaryText": "second", "image": "star"])
    try await expectRow("c", ["id": "c", "text": "C", "data": ["n": 1]])

    // updateItems replaces the whole payload.
    _ = try await client.edit("l", [["op": "updateItems", "items": [["id": "a", "text": "A3"]]]])
    try await expectRow("a", ["id": "a", "text": "A3"])
  }
}
