// Reclaiming ids: a compacted snapshot is equal to the original, diffs and edits the same way.
import SeededRandom
import XCTest

@testable import ListModel

final class CompactionTests: XCTestCase {
  /// 2,000 seeded random lists and edit batches: compacting before the edits changes nothing
  /// observable — equal snapshots, an empty diff between them, the same changeset for the edits.
  func testCompactedSnapshotsAreEqualAndDiffTheSame() {
    for seed in PropertySeeds.seeds("LISTD_COMPACTION_SEED", default: 0..<2_000) {
      var generator = RandomEdits(seed: seed)
      let old = generator.list()
      let compacted = old.compacted()
      XCTAssertFalse(compacted.sharesIdentifiers(with: old), "seed \(seed)")
      XCTAssertEqual(compacted, old, "seed \(seed)")
      XCTAssertNil(compacted.brokenInvariant(), "seed \(seed)")
      XCTAssertTrue(diff(old, compacted).isEmpty, "seed \(seed)")
      var edited = old
      var editedCompacted = compacted
      for _ in 0..<generator.random.int(1..<5) {
        let edit = generator.edit(edited)
        let a = Result { () throws(ListModelError) in try edited.apply(edit) }
        let b = Result { () throws(ListModelError) in try editedCompacted.apply(edit) }
        XCTAssertEqual(a.isSuccess, b.isSuccess, "seed \(seed): \(edit)")
      }
      XCTAssertEqual(edited, editedCompacted, "seed \(seed)")
      XCTAssertEqual(diff(old, edited), diff(compacted, editedCompacted), "seed \(seed)")
      if edited != editedCompacted { return }
    }
  }

  /// A list of 100 items whose ids churn needs reclaiming after a few thousand new ids, and
  /// compacting brings its table back to its own ids.
  func testChurnMakesIdentifiersReclaimableAndCompactionReclaimsThem() throws {
    var snapshot = ListSnapshot()
    try snapshot.appendSections(["s"])
    try snapshot.appendItems((0..<100).map { "k\($0)" })
    var next = 100
    while !snapshot.hasReclaimableIdentifiers {
      try snapshot.appendItems(["k\(next)"])
      try snapshot.deleteItems(["k\(next - 100)"])
      next += 1
    }
    XCTAssertGreaterThan(next, 4_000)
    let compacted = snapshot.compacted()
    XCTAssertEqual(compacted.table.count, 101)
    XCTAssertFalse(compacted.hasReclaimableIdentifiers)
    XCTAssertEqual(compacted, snapshot)
  }
}

extension Result {
  fileprivate var isSuccess: Bool {
    if case .success = self { return true }
    return false
  }
}

extension CompactionTests {
  /// Long histories: one copy is compacted every few edits, the other never; after every edit
  /// both are equal and the diff from the previous step is the same.
  func testLongHistoriesWithRepeatedCompactionStayIdentical() {
    for seed in PropertySeeds.seeds("LISTD_COMPACTION_HISTORY_SEED", default: 0..<200) {
      var generator = RandomEdits(seed: seed)
      var plain = generator.list()
      var compacted = plain.compacted()
      for step in 0..<200 {
        let edit = generator.edit(plain)
        let (plainBefore, compactedBefore) = (plain, compacted)
        let a = Result { () throws(ListModelError) in try plain.apply(edit) }
        let b = Result { () throws(ListModelError) in try compacted.apply(edit) }
        guard a.isSuccess == b.isSuccess, plain == compacted,
          diff(plainBefore, plain) == diff(compactedBefore, compacted)
        else {
          XCTFail(
            "seed \(seed), step \(step): \(edit) differs after compaction: \(a.isSuccess) \(b.isSuccess) \(plain == compacted)\n\(diff(plainBefore, plain))\n\(diff(compactedBefore, compacted))"
          )
          return
        }
        if step % 7 == 0 { compacted = compacted.compacted() }
      }
    }
  }
}
