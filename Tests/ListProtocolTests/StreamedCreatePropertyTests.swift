// Create's content built while its bytes are read gives the snapshot the two-step path builds, or steps aside.
import Foundation
import JSON
import JSONRPC
import ListProtocol
import SeededRandom
import XCTest

@testable import ListModel

/// For thousands of random `list/create` contents (``WireGenerator``), valid and mutated,
/// ``ContentDecoding/streamedSnapshot(_:sharingWith:selectionMode:batch:)`` (in batches of 1, 2
/// and 4,096 items) gives either nil or exactly the snapshot that decoding the content whole and
/// building it gives, and nil whenever that path throws (so its errors are reported unchanged).
///
/// `LISTD_BYTES_SEED=n` replays a run.
final class StreamedCreatePropertyTests: XCTestCase {
  func testStreamedCreateBuildsWhatDecodingThenBuildingBuilds() throws {
    let environment = ProcessInfo.processInfo.environment
    let seed = environment["LISTD_BYTES_SEED"].flatMap(UInt64.init) ?? 2311
    print(
      "testStreamedCreateBuildsWhatDecodingThenBuildingBuilds: seed \(seed) (LISTD_BYTES_SEED=\(seed) replays it)"
    )
    var random = SplitMix64(seed: seed)
    var streamed = 0
    for run in 0..<3_000 {
      var generator = WireGenerator(random: random)
      let content = generator.content(mutate: run % 3 != 0)
      random = generator.random
      let bytes = content.jsonBytes()
      let text = try JSONText(validating: bytes)
      let base = ListSnapshot(selectionMode: .single)
      let twoStep: ListSnapshot? = try? {
        let sections = try ContentDecoding.content(text, path: "content", inherit: false)
        return try ContentDecoding.snapshot(sections, sharingWith: base, selectionMode: .single)
      }()
      for batch in [1, 2, ContentDecoding.streamBatch] {
        let built = ContentDecoding.streamedSnapshot(
          text, sharingWith: base, selectionMode: .single, batch: batch)
        guard let built else { continue }
        XCTAssertEqual(
          built, twoStep,
          "seed \(seed), run \(run), batch \(batch): \(String(decoding: bytes, as: UTF8.self))")
        XCTAssertNil(built.brokenInvariant(), "seed \(seed), run \(run), batch \(batch)")
        streamed += 1
      }
      if testRun?.failureCount ?? 0 > 0 { return }
    }
    XCTAssertGreaterThan(streamed, 500, "too few streamed contents to compare")
  }
}
