// End-to-end: ListClient's time travel — atVersion on queries, diff between versions with its edits, content, a mirror from a past version.
import Foundation
import JSON
import JSONRPC
import ListClient
import XCTest

final class ListClientTimeTravelTests: XCTestCase {
  private var listd: String { buildDirectory.appendingPathComponent("listd").path }

  func testPastVersionsThroughTheTypedAPI() async throws {
    let client = try ListClient.spawn(listdPath: listd, arguments: ["--log-level", "warning"])
    defer { client.close() }
    try await client.initialize(name: "ListClientTimeTravelTests")
    let content: JSONValue = [
      "sections": [["id": "s", "items": [["id": "a", "text": "A"], ["id": "b", "text": "B"]]]]
    ]
    _ = try await client.create("l", selectionMode: "multiple", content: content)
    _ = try await client.edit("l", [["op": "moveItem", "item": "a", "after": "b"]])
    _ = try await client.select("l", ["a"])
    _ = try await client.edit("l", [["op": "deleteItems", "items": ["b"]]])

    let window = try await client.window("l", atVersion: 1)
    XCTAssertEqual(window["version"], 1)
    XCTAssertEqual(window["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["b", "a"])
    let item = try await client.item("l", "b", atVersion: 0)
    XCTAssertEqual(item["indexPath"], [0, 1])
    let counts = try await client.counts("l", atVersion: 2)
    XCTAssertEqual(counts["selected"], 1)
    let info = try await client.info("l", atVersion: 0)
    XCTAssertEqual(info["items"], 2)
    let selection = try await client.selection("l", atVersion: 3)
    XCTAssertEqual(selection["items"], [["id": "a", "indexPath": [0, 0]]])

    let diff = try await client.diff("l", from: 3, to: 0, edits: true, explain: true)
    XCTAssertEqual(
      diff.changeset,
      [
        "itemInserts": [["at": [0, 1], "rows": [["id": "b", "text": "B", "level": 0]]]], "deselected": ["a"],
      ])
    XCTAssertEqual(
      diff.edits,
      [
        ["op": "insertItems", "items": [["id": "b", "text": "B"]], "after": "a"],
        ["op": "deselect", "items": ["a"]],
      ])
    XCTAssertEqual(diff.explain?.source.method, "list/diff")
    let reverted = try await client.edit("l", diff.edits ?? [], ifVersion: 3)
    XCTAssertEqual(reverted.changeset, diff.changeset)

    let old = try await client.content("l", atVersion: 0)
    let now = try await client.content("l")
    XCTAssertEqual(old.content, now.content)
    XCTAssertEqual(old.selection, [])
    XCTAssertEqual(now.version, 4)

    // A mirror from version 1, brought to the current version by the changes that follow.
    var mirror = try await client.mirror("l", atVersion: 1)
    XCTAssertEqual(mirror.version, 1)
    var iterator = client.notifications.makeAsyncIterator()
    while mirror.version < 4, let notification = await iterator.next() {
      guard notification.method == "list/didChange" else { continue }
      try mirror.apply(didChange: notification.params)
    }
    let entry = try await client.subscribe("l").first
    let fresh = try Mirror(subscribed: try XCTUnwrap(entry))
    XCTAssertNil(mirror.firstDifference(from: fresh))

    do {
      _ = try await client.diff("l", from: 0, to: 5)
      XCTFail("a version newer than the list's was answered")
    } catch let error as ResponseError {
      XCTAssertEqual(error.code, .invalidParams)
      XCTAssertEqual(error.data?["field"], "to")
    }
  }
}
