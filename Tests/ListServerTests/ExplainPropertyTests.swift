// Explanations under random batches in process: preview, edit, list/explain and changesSince agree.
import Foundation
import JSON
import JSONRPC
import XCTest

final class ExplainPropertyTests: InProcessServerTestCase {
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
}
