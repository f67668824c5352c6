// Unit tests of flat snapshot edits and queries.
import XCTest

@testable import ListModel

final class SnapshotTests: XCTestCase {
  func testAppendAndQuery() throws {
    var snapshot = ListSnapshot()
    try snapshot.appendSections([SectionSpec("a", header: "A"), SectionSpec("b")])
    try snapshot.appendItems(["1", "2"])  // goes to the last section
    try snapshot.appendItems(["x"], toSection: "a")
    XCTAssertEqual(snapshot.numberOfSections, 2)
    XCTAssertEqual(snapshot.numberOfItems(), 3)
    XCTAssertEqual(snapshot.numberOfItems(inSection: "b"), 2)
    XCTAssertEqual(snapshot.itemIdentifiers(inSection: "b"), ["1", "2"])
    XCTAssertEqual(snapshot.sectionIdentifier(containingItem: "2"), "b")
    XCTAssertEqual(snapshot.index(ofItem: "2"), 1)
    XCTAssertEqual(snapshot.index(ofSection: "b"), 1)
    XCTAssertEqual(snapshot.indexPath(for: "2"), ListIndexPath(section: 1, item: 1))
    XCTAssertEqual(snapshot.item(at: ListIndexPath(section: 0, item: 0)), "x")
    XCTAssertNil(snapshot.item(at: ListIndexPath(section: 5, item: 0)))
    XCTAssertNil(snapshot.item(at: ListIndexPath(section: 0, item: -1)))
    XCTAssertTrue(snapshot.contains(item: "1"))
    XCTAssertFalse(snapshot.contains(item: "nope"))
    XCTAssertEqual(snapshot.header(ofSection: "a"), "A")
    XCTAssertEqual(snapshot.itemIdentifiers, ["x", "1", "2"])
    assertConsistent(snapshot)
  }

  func testInsertMoveDeleteSectionsAndItems() throws {
    var snapshot = makeSnapshot([("a", ["1", "2", "3"]), ("b", ["4"])])
    try snapshot.insertSections([SectionSpec("c")], before: "a")
    try snapshot.insertSections([SectionSpec("d")], after: "a")
    XCTAssertEqual(snapshot.sectionIdentifiers, ["c", "a", "d", "b"])
    try snapshot.moveSection("c", after: "b")
    try snapshot.moveSection("b", before: "a")
    XCTAssertEqual(snapshot.sectionIdentifiers, ["b", "a", "d", "c"])
    try snapshot.insertItems([ListItem("0")], before: "1")
    try snapshot.insertItems([ListItem("2.5")], after: "2")
    XCTAssertEqual(snapshot.itemIdentifiers(inSection: "a"), ["0", "1", "2", "2.5", "3"])
    try snapshot.moveItem("3", before: "0")
    try snapshot.moveItem("4", after: "2")  // across sections
    XCTAssertEqual(snapshot.itemIdentifiers(inSection: "a"), ["3", "0", "1", "2", "4", "2.5"])
    XCTAssertEqual(snapshot.itemIdentifiers(inSection: "b"), [])
    try snapshot.deleteItems(["0", "2.5"])
    XCTAssertEqual(snapshot.itemIdentifiers(inSection: "a"), ["3", "1", "2", "4"])
    try snapshot.deleteSections(["a"])
    XCTAssertFalse(snapshot.contains(item: "3"))
    XCTAssertEqual(snapshot.sectionIdentifiers, ["b", "d", "c"])
    assertConsistent(snapshot)
    snapshot.deleteAllItems()
    XCTAssertEqual(snapshot.numberOfSections, 0)
    XCTAssertEqual(snapshot.numberOfItems(includingHidden: true), 0)
    assertConsistent(snapshot)
  }

  func testReplaceItemsKeepsIdentity() throws {
    var snapshot = makeSnapshot([("a", ["1", "2", "3"])])
    try snapshot.select(["2"])
    let old = snapshot
    try snapshot.replaceItems([ListItem("3"), ListItem("2"), ListItem("9")], inSection: "a")
    XCTAssertEqual(snapshot.itemIdentifiers(inSection: "a"), ["3", "2", "9"])
    XCTAssertTrue(snapshot.isSelected("2"))
    let changes = assertMirror(old, snapshot)
    XCTAssertEqual(changes.itemDeletes, [.init(section: 0, rows: 0..<1)])
    XCTAssertEqual(changes.itemInserts.map(\.range), [2..<3])
    XCTAssertEqual(changes.itemMoves.reduce(0) { $0 + $1.count }, 1)
    assertConsistent(snapshot)
  }

  func testPayloadChangeIsAReconfigure() throws {
    var snapshot = makeSnapshot([("a", ["1", "2"])])
    let old = snapshot
    try snapshot.setPayload(ItemPayload(text: "hello"), forItem: "2")
    let changes = assertMirror(old, snapshot)
    XCTAssertEqual(changes.itemReconfigures.map(\.section), [0])
    XCTAssertEqual(changes.itemReconfigures.first?.start, 1)
    XCTAssertEqual(changes.itemReconfigures.first?.rows.first?.payload.content.text, "hello")
    // Setting an equal payload (different storage) changes nothing.
    let same = snapshot
    try snapshot.setPayload(ItemPayload(text: "hello"), forItem: "2")
    XCTAssertTrue(diff(same, snapshot).isEmpty)
  }

  func testExplicitReloadAndReconfigure() throws {
    var snapshot = makeSnapshot([("a", ["1", "2", "3"])])
    let old = snapshot
    try snapshot.reloadItems(["1"])
    try snapshot.reconfigureItems(["3"])
    try snapshot.reloadSections(["a"])
    let changes = assertMirror(old, snapshot)
    XCTAssertEqual(changes.itemReloads.map(\.range), [0..<1])
    XCTAssertEqual(changes.itemReconfigures.map(\.range), [2..<3])
    XCTAssertEqual(changes.sectionReloads.map(\.index), [0])
    // The marks are not reported again against the snapshot that holds them.
    XCTAssertTrue(diff(snapshot, snapshot).isEmpty)
  }

  func testHeaderAndFooterChangesAreSectionReloads() throws {
    var snapshot = makeSnapshot([("a", ["1"]), ("b", [])])
    let old = snapshot
    try snapshot.setHeader("H", forSection: "b")
    try snapshot.setFooter("F", forSection: "b")
    let changes = assertMirror(old, snapshot)
    XCTAssertEqual(changes.sectionReloads, [.init(index: 1, id: "b", header: "H", footer: "F")])
    XCTAssertEqual(snapshot.footer(ofSection: "b"), "F")
  }

  func testEquality() throws {
    let a = makeSnapshot([("a", ["1", "2"])])
    let b = makeSnapshot([("a", ["1", "2"])])  // separate id table
    XCTAssertEqual(a, b)
    var c = a
    try c.moveItem("2", before: "1")
    XCTAssertNotEqual(a, c)
  }

  func testDiffBetweenIndependentTables() throws {
    let a = makeSnapshot([("a", ["1", "2", "3"]), ("b", ["4"])])
    let b = makeSnapshot([("b", ["4", "3"]), ("a", ["2", "1", "5"])])
    XCTAssertFalse(a.sharesIdentifiers(with: b))
    assertMirror(a, b)
  }
}

extension SnapshotTests {
  /// `rows(inSectionAt:range:)` and `row(ofItem:)` agree with the full row list, on random
  /// outlines with collapsed parts, for every window.
  func testRowWindowsMatchTheRowList() throws {
    var snapshot = ListSnapshot()
    try snapshot.appendSections(["flat", "tree"])
    try snapshot.appendItems(
      (0..<20).map { ListItem("f\($0)", payload: ItemPayload(text: "f\($0)")) }, toSection: "flat")
    func node(_ id: String, _ depth: Int, _ expanded: Bool) -> OutlineNode {
      OutlineNode(
        ListItem(id, payload: ItemPayload(text: id)),
        children: depth == 0 ? [] : (0..<3).map { node("\(id).\($0)", depth - 1, ($0 + depth) % 2 == 0) },
        isExpanded: expanded)
    }
    try snapshot.appendTrees(
      [node("a", 3, true), node("b", 2, false), node("c", 3, true)], toSection: "tree")
    let rows = snapshot.rows
    for (index, section) in rows.sections.enumerated() {
      for start in 0...section.rows.count {
        for length in [0, 1, 5, 100] {
          let expected = Array(section.rows[start..<min(start + length, section.rows.count)])
          XCTAssertEqual(
            snapshot.rows(inSectionAt: index, range: start..<(start + length)), expected,
            "\(index) \(start) \(length)")
        }
      }
      for row in section.rows { XCTAssertEqual(snapshot.row(ofItem: row.id), row) }
    }
    XCTAssertEqual(snapshot.rows(inSectionAt: 5, range: 0..<3), [])
    XCTAssertEqual(snapshot.rows(inSectionAt: 0, range: -5..<2).map(\.id), ["f0", "f1"])
    XCTAssertNil(snapshot.row(ofItem: "nope"))
    XCTAssertEqual(snapshot.row(ofItem: "b.0")?.level, 1)  // hidden rows have rows too
  }
}
