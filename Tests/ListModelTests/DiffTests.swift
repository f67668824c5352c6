// Unit tests of the diff: ranges, minimal moves, cross-section moves, section moves, fast paths.
import XCTest

@testable import ListModel

final class DiffTests: XCTestCase {
  func testNoChangeIsEmpty() throws {
    let a = makeSnapshot([("a", (0..<100).map { "i\($0)" })])
    var b = a
    try b.setPayload(ItemPayload(), forItem: "i5")  // equal payload: no change at all
    XCTAssertTrue(diff(a, b).isEmpty)
  }

  func testContiguousRunsAreRanges() throws {
    let a = makeSnapshot([("a", (0..<100).map { "i\($0)" })])
    var b = a
    try b.deleteItems((10..<20).map { "i\($0)" })
    try b.appendItems((0..<50).map { "n\($0)" }, toSection: "a")
    let changes = assertMirror(a, b)
    XCTAssertEqual(changes.itemDeletes, [.init(section: 0, rows: 10..<20)])
    XCTAssertEqual(changes.itemInserts.map(\.range), [90..<140])
    XCTAssertTrue(changes.itemMoves.isEmpty)
  }

  func testMovesAreMinimal() throws {
    let a = makeSnapshot([("a", ["1", "2", "3", "4", "5"])])
    var b = a
    try b.moveItem("5", before: "1")
    let changes = assertMirror(a, b)
    XCTAssertEqual(
      changes.itemMoves, [.init(from: .init(section: 0, item: 4), to: .init(section: 0, item: 0))])
  }

  func testCrossSectionMovesAreMovesAsRuns() throws {
    let a = makeSnapshot([("a", ["1", "2", "3"]), ("b", ["4", "5"])])
    let b = makeSnapshot([("a", ["4", "5"]), ("b", ["1", "2", "3"])])
    let changes = assertMirror(a, b)
    XCTAssertTrue(changes.itemDeletes.isEmpty)
    XCTAssertTrue(changes.itemInserts.isEmpty)
    XCTAssertEqual(
      changes.itemMoves,
      [
        .init(from: .init(section: 1, item: 0), to: .init(section: 0, item: 0), count: 2),
        .init(from: .init(section: 0, item: 0), to: .init(section: 1, item: 0), count: 3),
      ])
  }

  func testSectionMovesCarryRowsAndUseOldAndNewIndexes() throws {
    let a = makeSnapshot([("a", ["1"]), ("b", ["2", "3"]), ("c", ["4"])])
    var b = a
    try b.moveSection("c", before: "a")
    try b.moveItem("3", before: "2")
    try b.deleteSections(["a"])
    let changes = assertMirror(a, b)
    XCTAssertEqual(changes.sectionDeletes, [0..<1])
    XCTAssertEqual(changes.sectionMoves.count, 1)  // c and b swapped: one move, either one
    // The moved row is named with b's old index (1) and new index (1).
    XCTAssertEqual(changes.itemMoves.first?.from.section, 1)
    var c = a
    try c.moveSection("a", after: "c")
    XCTAssertEqual(assertMirror(a, c).sectionMoves, [.init(from: 0, to: 2)])
  }

  func testInsertedAndDeletedSectionsCarryTheirRows() throws {
    let a = makeSnapshot([("a", ["1", "2"]), ("b", ["3"])])
    var b = a
    try b.deleteSections(["b"])
    try b.appendSections([SectionSpec("c", header: "C")])
    try b.appendItems(["3", "4"], toSection: "c")  // "3" reappears in an inserted section
    try b.moveItem("2", toSection: "c")
    let changes = assertMirror(a, b)
    XCTAssertEqual(changes.sectionInserts.first?.section.rows.map(\.id), ["3", "4", "2"])
    XCTAssertEqual(changes.itemDeletes, [.init(section: 0, rows: 1..<2)])  // "2" left for c
  }

  func testMovedAndReloadedIsDeletePlusInsert() throws {
    let a = makeSnapshot([("a", ["1", "2", "3"])])
    var b = a
    try b.moveItem("3", before: "1")
    try b.reloadItems(["3"])
    let changes = assertMirror(a, b)
    XCTAssertTrue(changes.itemMoves.isEmpty)
    XCTAssertEqual(changes.itemDeletes, [.init(section: 0, rows: 2..<3)])
    XCTAssertEqual(changes.itemInserts.map(\.range), [0..<1])
  }

  func testApplyRejectsMismatchedChangesets() {
    let a = makeSnapshot([("a", ["1", "2"])])
    var changes = Changeset()
    changes.itemDeletes = [.init(section: 0, rows: 1..<5)]
    XCTAssertThrowsError(try apply(changes, to: a.rows))
    changes = Changeset()
    changes.itemReconfigures = [.init(section: 0, start: 0, rows: [Row(id: "2")])]
    XCTAssertThrowsError(try apply(changes, to: a.rows))
    changes = Changeset()
    changes.sectionMoves = [.init(from: 0, to: 3)]
    XCTAssertThrowsError(try apply(changes, to: a.rows))
  }

  func testUnchangedSectionsAreSkippedByStamp() throws {
    let a = makeSnapshot((0..<10).map { s in ("s\(s)", (0..<10).map { "s\(s)-\($0)" }) })
    var b = a
    try b.setPayload(ItemPayload(text: "x"), forItem: "s3-3")
    // Only the touched section has a new stamp.
    let changedSlots = zip(a.slots, b.slots).filter { $0.0.stamp != $0.1.stamp }.count
    XCTAssertEqual(changedSlots, 1)
    XCTAssertEqual(assertMirror(a, b).itemReconfigures.count, 1)
  }
}
