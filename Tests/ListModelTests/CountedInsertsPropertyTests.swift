// A diff that counts inserted sections' rows (create answered without rows) says what the full diff says, on seeded random cases.
import XCTest

@testable import ListModel

final class CountedInsertsPropertyTests: XCTestCase {
  static let caseCount = 1_000

  /// The full diff with each inserted section's rows replaced by their count.
  static func counted(_ changes: Changeset) -> Changeset {
    var changes = changes
    changes.sectionInserts = changes.sectionInserts.map { insert in
      var section = insert.section
      section.rows = []
      return .init(index: insert.index, sectionWithoutRows: section, rowCount: insert.section.rows.count)
    }
    return changes
  }

  func testCountedDiffIsTheFullDiffWithRowsCounted() {
    var failures = 0
    for seed in 0..<UInt64(Self.caseCount) where failures < 3 {
      var generator = RandomEdits(seed: seed)
      let old = generator.list()
      var new = old
      for _ in 0..<generator.random.int(1..<7) { try? new.apply(generator.edit(new)) }
      // From an empty list (list/create), and between versions (sections inserted by edits).
      for (from, to) in [(ListSnapshot(sharingIdentifiersWith: old), old), (old, new)] {
        let full = ListSnapshot.diff(from: from, to: to)
        let lean = ListSnapshot.diff(from: from, to: to, rowsOfInsertedSections: false)
        if lean != Self.counted(full) {
          XCTFail("seed \(seed): counted diff \(lean) is not the full diff \(full) counted")
          failures += 1
        }
        XCTAssertEqual(
          lean.sectionInserts.map(\.rowCount), full.sectionInserts.map(\.rowCount), "seed \(seed)")
        XCTAssertTrue(lean.sectionInserts.allSatisfy(\.section.rows.isEmpty), "seed \(seed)")
      }
    }
  }

  func testCountedInsertsOfAnOutlineCountVisibleRows() throws {
    var snapshot = ListSnapshot()
    try snapshot.appendSections([SectionSpec("s")])
    try snapshot.appendTrees(
      [
        OutlineNode(ListItem("folder"), children: [OutlineNode(ListItem("a")), OutlineNode(ListItem("b"))]),
        OutlineNode(ListItem("open"), children: [OutlineNode(ListItem("c"))], isExpanded: true),
      ], toSection: "s", inheritingExpansionFrom: nil)
    let lean = ListSnapshot.diff(from: ListSnapshot(), to: snapshot, rowsOfInsertedSections: false)
    XCTAssertEqual(lean.sectionInserts.map(\.rowCount), [3])
    XCTAssertEqual(lean.sectionInserts.map(\.section.id), ["s"])
    XCTAssertEqual(Self.counted(diff(ListSnapshot(), snapshot)), lean)
  }
}
