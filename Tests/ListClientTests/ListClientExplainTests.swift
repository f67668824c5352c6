// End-to-end: ListClient's typed explanations over a spawned listd — the explain option and list/explain.
import Foundation
import JSON
import JSONRPC
import ListClient
import ListProtocol
import XCTest

final class ListClientExplainTests: XCTestCase {
  private var listd: String { buildDirectory.appendingPathComponent("listd").path }

  private let content: JSONValue = [
    "sections": [
      [
        "id": "s",
        "items": [
          ["id": "a", "text": "A"], ["id": "b", "text": "B"],
          ["id": "d", "text": "D", "children": [["id": "d1"], ["id": "d2"]]],
        ],
      ]
    ]
  ]

  func testEveryExplainOptionAnswersATypedExplanation() async throws {
    let client = try ListClient.spawn(listdPath: listd, arguments: ["--log-level", "warning"])
    defer { client.close() }
    _ = try await client.initialize(name: "ListClientExplainTests")
    _ = try await client.create("l", content: content)

    // Without the option, no explanation.
    let plain = try await client.preview("l", edits: [["op": "deleteItems", "items": ["b"]]])
    XCTAssertNil(plain.explain)

    let edits: [JSONValue] = [
      ["op": "patchItems", "items": [["id": "a", "text": "A2"]]], ["op": "expand", "item": "d"],
    ]
    let preview = try await client.preview("l", edits: edits, explain: true)
    let edited = try await client.edit("l", edits, explain: true)
    XCTAssertEqual(preview, edited)
    let explanation = try XCTUnwrap(edited.explain)
    XCTAssertEqual(explanation.source.method, "list/edit")
    XCTAssertEqual(explanation.source.name, "ListClientExplainTests")
    XCTAssertNotNil(explanation.source.session)
    let revealed = try XCTUnwrap(explanation.causes.first { $0.reason == "revealed" })
    XCTAssertEqual(revealed.change, "itemInserts")
    XCTAssertEqual([revealed.entry, revealed.offset, revealed.count], [0, 0, 2])
    XCTAssertEqual(revealed.item, "d1")
    XCTAssertEqual(revealed.parent, "d")
    XCTAssertEqual(revealed.edit?.index, 1)
    XCTAssertEqual(revealed.edit?.op, "expand")
    let text = try XCTUnwrap(explanation.causes.first { $0.item == "a" })
    XCTAssertEqual(text.fields.map { [JSONValue.string($0.field), $0.old, $0.new] }, [["text", "A", "A2"]])
    let expanded = try XCTUnwrap(explanation.causes.first { $0.change == "expanded" })
    XCTAssertEqual(expanded.items, ["d"])
    XCTAssertNil(expanded.entry)
    XCTAssertEqual(expanded.raw["reason"], "requested")

    // A replace that moves b before a: a move with its neighbours (the start is nil).
    let moved: JSONValue = [
      "sections": [
        ["id": "s", "items": [["id": "b", "text": "B"], ["id": "a", "text": "A2"], ["id": "d"]]]
      ]
    ]
    let replaced = try await client.replace("l", content: moved, explain: true)
    let move = try XCTUnwrap(replaced.explain?.causes.first { $0.change == "itemMoves" })
    XCTAssertEqual(move.reason, "reordered")
    XCTAssertNil(move.after)
    XCTAssertNotNil(move.before)
    let again = try await client.preview("l", content: moved, explain: true)
    XCTAssertEqual(again.explain?.causes, [])

    let diff = try await client.diffContents(old: content, new: moved, explain: true)
    let changeset = try await client.diffContents(old: content, new: moved)
    XCTAssertEqual(diff.changeset, changeset)
    XCTAssertEqual(diff.explain?.source.method, "diff/contents")
    XCTAssertNil(diff.explain?.source.session)
    let unexplained = try await client.diffContents(old: content, new: moved, explain: false)
    XCTAssertNil(unexplained.explain)

    let history = try await client.changes("l", since: 0, explain: true).compactMap(Change.init)
    XCTAssertEqual(history.map(\.explain), [edited.explain, replaced.explain])
    let bare = try await client.changes("l", since: 0).compactMap(Change.init)
    XCTAssertEqual(bare.map(\.explain), [nil, nil])
  }

  func testListExplainByVersionAndByItem() async throws {
    let client = try ListClient.spawn(listdPath: listd, arguments: ["--log-level", "warning"])
    defer { client.close() }
    _ = try await client.initialize(name: "ListClientExplainTests")
    _ = try await client.create("l", content: content)
    let nothing = try await client.explain("l", item: "a")
    XCTAssertEqual(
      nothing,
      .notKept(
        item: "a", oldestVersion: nil,
        raw: ["list": "l", "version": .null, "item": "a", "oldestVersion": .null]))
    let edited = try await client.edit("l", [["op": "deleteItems", "items": ["b"]]], explain: true)

    guard case .change(let change, let raw) = try await client.explain("l", version: 1) else {
      return XCTFail("list/explain of version 1 answered no change")
    }
    XCTAssertEqual(change.version, 1)
    XCTAssertEqual(change.explain, edited.explain)
    XCTAssertEqual(raw["previousVersion"], 0)
    guard case .change(let last, _) = try await client.explain("l", item: "b") else {
      return XCTFail("list/explain of b answered no change")
    }
    XCTAssertEqual(last.explain?.causes.map(\.item), ["b"])
    guard case .notKept(_, let oldest, _) = try await client.explain("l", item: "a") else {
      return XCTFail("list/explain of a answered a change")
    }
    XCTAssertEqual(oldest, 1)
    do {
      _ = try await client.explain("l", version: 2)
      XCTFail("list/explain of a version to come answered")
    } catch let error as ResponseError {
      XCTAssertEqual(error.code.rawValue, -32602)
    }
  }

  func testAMalformedExplainMemberIsNotDecoded() throws {
    XCTAssertNil(Explanation(["causes": []]))
    XCTAssertNil(Explanation(["source": ["method": "list/edit"], "causes": [["change": "itemInserts"]]]))
    XCTAssertNil(Change(["list": "l", "version": 1, "explain": ["source": [:]]]))
    let cause = try XCTUnwrap(
      Explanation.Cause(["change": "selected", "items": ["a", "b"], "reason": "requested", "future": 1]))
    XCTAssertEqual(cause.count, 2)
    XCTAssertEqual(cause.raw["future"], 1)
  }
}
