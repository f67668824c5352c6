// diff/preview in process under 1,500 random batches: the same answer as the real change, and no trace of it.
import Foundation
import JSON
import JSONRPC
import XCTest

final class PreviewPropertyTests: InProcessServerTestCase {
  /// 1,500 seeded random `list/edit` batches (a few invalid): each is previewed first, and the
  /// preview's answer — result or error — is exactly the real change's; the preview itself
  /// makes no version, sends a subscriber nothing and leaves no history.
  func testAPreviewAnswersExactlyAsTheChangeAndLeavesNoTrace() throws {
    let seed = ProcessInfo.processInfo.environment["LISTD_PREVIEW_SEED"].flatMap(UInt64.init) ?? 1511
    print("seed \(seed) (LISTD_PREVIEW_SEED=\(seed) replays it)")
    var run = MirrorRun(seed: seed, list: "p")
    try client.request(
      "list/create",
      [
        "list": "p", "selectionMode": "multiple", "content": run.initialContent(),
        "columns": MirrorRun.columns,
      ])
    try run.createReference()
    try client.request("list/subscribe", ["list": "p", "snapshot": "none"])
    for batch in 0..<1_500 {
      let (params, _) = try run.nextBatch()
      let before = try client.version(of: "p")
      let preview = Result { try client.request("diff/preview", params) }
      XCTAssertEqual(
        try client.version(of: "p"), before, "seed \(seed), batch \(batch): the preview made a version")
      if batch % 25 == 0 {
        let since = try client.request("list/changesSince", ["list": "p", "version": .int(before)])
        XCTAssertEqual(since["changes"], [], "seed \(seed), batch \(batch): the preview left history")
      }
      let real = Result { try client.request("list/edit", params) }
      switch (preview, real) {
      case (.success(let a), .success(let b)):
        XCTAssertEqual(a, b, "seed \(seed), batch \(batch): \(params)")
      case (.failure(let a as ResponseError), .failure(let b as ResponseError)):
        XCTAssertEqual(a.code, b.code, "seed \(seed), batch \(batch)")
        XCTAssertEqual(a.message, b.message, "seed \(seed), batch \(batch)")
        XCTAssertEqual(a.data, b.data, "seed \(seed), batch \(batch)")
      default:
        XCTFail("seed \(seed), batch \(batch): preview \(preview), real \(real)")
      }
      if case .success(let answer) = real, let version = answer["version"]?.intValue, version > before {
        // Exactly one notification per real version: none came from the preview.
        let change = try XCTUnwrap(client.next("list/didChange"), "seed \(seed), batch \(batch)")
        XCTAssertEqual(change["version"]?.intValue, version, "seed \(seed), batch \(batch)")
      }
    }
  }
}
