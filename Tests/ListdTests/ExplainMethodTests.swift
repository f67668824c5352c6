// explain: true and list/explain end to end: wire edits and sessions named, answers that agree, errors.
import Foundation
import JSON
import JSONRPC
import XCTest

final class ExplainMethodTests: StdioDaemonTestCase {
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

  /// 300 seeded random batches, each with `explain: true`: `diff/preview` explains it the same,
  /// `list/explain` of its version and `list/changesSince … explain` give the same afterwards.
  func testExplanationsAgreeAcrossPreviewEditExplainAndChangesSince() throws {
    let seed = ProcessInfo.processInfo.environment["LISTD_EXPLAIN_SEED"].flatMap(UInt64.init) ?? 1611
    print("seed \(seed) (LISTD_EXPLAIN_SEED=\(seed) replays it)")
    var run = MirrorRun(seed: seed, list: "r")
    try client.request(
      "list/create",
      [
        "list": "r", "selectionMode": "multiple", "content": run.initialContent(),
        "columns": MirrorRun.columns,
      ])
    try run.createReference()
    var explained: [Int64: JSONValue] = [:]
    for batch in 0..<300 {
      let (batchParams, _) = try run.nextBatch()
      let params = batchParams.setting("explain", true)
      let preview = try? client.request("diff/preview", params)
      guard let answer = try? client.request("list/edit", params) else { continue }
      XCTAssertEqual(preview, answer, "seed \(seed), batch \(batch)")
      if let version = answer["version"]?.intValue, version > (explained.keys.max() ?? 0) {
        explained[version] = answer["explain"]
      }
    }
    XCTAssertGreaterThan(explained.count, 100, "seed \(seed)")
    let since = try client.request("list/changesSince", ["list": "r", "version": 0, "explain": true])
    for change in since["changes"]?.arrayValue ?? [] {
      let version = try XCTUnwrap(change["version"]?.intValue)
      XCTAssertEqual(change["explain"], explained[version], "seed \(seed), version \(version)")
      XCTAssertEqual(
        try client.request("list/explain", ["list": "r", "version": .int(version)])["explain"],
        explained[version],
        "seed \(seed), version \(version)")
    }
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
  /// `--explain-history N` keeps the records of the latest N changes: older ones answer -32015
  /// naming the oldest explainable version, and `changesSince … explain` likewise.
  func testExplainHistoryOptionBoundsTheExplainableVersions() throws {
    let small = try DaemonProcess(["--explain-history", "2"])
    defer { small.stop() }
    let client = try TestClient(small)
    defer { client.close() }
    let answer = try client.initialize()
    XCTAssertEqual(answer["capabilities"]?["limits"]?["explainVersions"], 2)
    try client.request("list/create", ["list": "l", "content": content])
    for text in ["1", "2", "3"] {
      try client.request(
        "list/edit",
        ["list": "l", "edits": [["op": "updateItems", "items": [["id": "a", "text": .string(text)]]]]])
    }
    XCTAssertEqual(try client.request("list/explain", ["list": "l", "version": 2])["version"], 2)
    let gone = client.error("list/explain", ["list": "l", "version": 1])
    XCTAssertEqual(gone.code.rawValue, -32015)
    XCTAssertEqual(gone.data?["oldestVersion"], 2)
    XCTAssertTrue(gone.message.contains("since version 2 only, not version 1"), gone.message)
    XCTAssertEqual(
      client.error("list/changesSince", ["list": "l", "version": 0, "explain": true]).code.rawValue, -32015)
    XCTAssertEqual(
      try client.request("list/changesSince", ["list": "l", "version": 0])["changes"]?.arrayValue?.count, 3)
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

extension ExplainMethodTests {
  /// `--explain-history` takes a positive integer; anything else is a usage error naming it.
  func testABadExplainHistoryIsAUsageError() throws {
    for value in ["0", "x", "-3"] {
      let listd = Process()
      listd.executableURL = DaemonProcess.binary
      listd.arguments = ["--explain-history", value]
      let errors = Pipe()
      listd.standardError = errors
      listd.standardInput = FileHandle.nullDevice
      try listd.run()
      let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      listd.waitUntilExit()
      XCTAssertEqual(listd.terminationStatus, 2, value)
      XCTAssertTrue(stderr.contains("--explain-history needs a positive integer, got '\(value)'"), stderr)
    }
  }
}
