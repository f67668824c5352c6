// Unit tests of outline sections: structure, expand/collapse, index paths and direct changesets.
import SeededRandom
import XCTest

@testable import ListModel

final class OutlineTests: XCTestCase {
  /// docs (expanded) > [readme, src (collapsed) > [main]], notes
  func makeOutline() throws -> ListSnapshot {
    var snapshot = ListSnapshot()
    try snapshot.appendSections(["files"])
    try snapshot.appendTrees([
      OutlineNode(
        "docs",
        children: [OutlineNode("readme"), OutlineNode("src", children: [OutlineNode("main")])],
        isExpanded: true),
      OutlineNode("notes"),
    ])
    return snapshot
  }

  func testStructureQueries() throws {
    let snapshot = try makeOutline()
    XCTAssertEqual(snapshot.rootItems(inSection: "files"), ["docs", "notes"])
    XCTAssertEqual(snapshot.children(of: "docs"), ["readme", "src"])
    XCTAssertEqual(snapshot.parent(of: "main"), "src")
    XCTAssertNil(snapshot.parent(of: "docs"))
    XCTAssertEqual(snapshot.level(of: "main"), 2)
    XCTAssertTrue(snapshot.isExpanded("docs"))
    XCTAssertFalse(snapshot.isVisible("main"))
    XCTAssertEqual(snapshot.visibleItems(inSection: "files"), ["docs", "readme", "src", "notes"])
    XCTAssertEqual(snapshot.numberOfItems(inSection: "files"), 4)
    XCTAssertEqual(snapshot.numberOfItems(inSection: "files", includingHidden: true), 5)
    XCTAssertNil(snapshot.indexPath(for: "main"))
    XCTAssertEqual(snapshot.indexPath(for: "notes"), ListIndexPath(section: 0, item: 3))
    XCTAssertEqual(snapshot.item(at: ListIndexPath(section: 0, item: 2)), "src")
    assertConsistent(snapshot)
  }

  func testExpansionStateOfDescendantsPersists() throws {
    var snapshot = try makeOutline()
    try snapshot.expand(["src"])
    XCTAssertEqual(snapshot.visibleItems(inSection: "files"), ["docs", "readme", "src", "main", "notes"])
    try snapshot.collapse(["docs"])
    XCTAssertEqual(snapshot.visibleItems(inSection: "files"), ["docs", "notes"])
    XCTAssertTrue(snapshot.isExpanded("src"))  // kept while hidden
    try snapshot.expand(["docs"])
    XCTAssertEqual(snapshot.visibleItems(inSection: "files"), ["docs", "readme", "src", "main", "notes"])
    assertConsistent(snapshot)
  }

  func testExpandChangesetIsOneRange() throws {
    var snapshot = ListSnapshot()
    try snapshot.appendSections(["s"])
    try snapshot.appendTrees([
      OutlineNode("before"),
      OutlineNode("folder", children: (0..<1000).map { OutlineNode("c\($0)") }),
      OutlineNode("after"),
    ])
    let old = snapshot
    let changes = try snapshot.applyAndDiff([.expand(["folder"])])
    XCTAssertEqual(changes.itemInserts.count, 1)
    XCTAssertEqual(changes.itemInserts[0].range, 2..<1002)
    XCTAssertEqual(changes.itemReconfigures.map(\.range), [1..<2])
    XCTAssertEqual(changes.expanded, ["folder"])
    XCTAssertEqual(changes, diff(old, snapshot))
    XCTAssertEqual(snapshot.indexPath(for: "after"), ListIndexPath(section: 0, item: 1002))
    let expanded = snapshot
    let collapse = try snapshot.applyAndDiff([.collapse(["folder"])])
    XCTAssertEqual(collapse.itemDeletes, [.init(section: 0, rows: 2..<1002)])
    XCTAssertEqual(collapse, diff(expanded, snapshot))
    assertConsistent(snapshot)
  }

  func testMovesAndSubtreeDeletes() throws {
    var snapshot = try makeOutline()
    try snapshot.expandAll()
    try snapshot.collapse(["notes"])  // expandAll also marked the leaf expanded
    let old = snapshot
    try snapshot.moveItem("src", toParent: "notes")
    XCTAssertEqual(snapshot.parent(of: "src"), "notes")
    XCTAssertEqual(snapshot.level(of: "main"), 2)
    XCTAssertFalse(snapshot.isVisible("src"))  // notes is collapsed
    assertMirror(old, snapshot)
    try snapshot.moveItem("src", toSection: "files")
    XCTAssertEqual(snapshot.rootItems(inSection: "files"), ["docs", "notes", "src"])
    XCTAssertEqual(snapshot.level(of: "main"), 1)
    try snapshot.deleteItems(["src"])
    XCTAssertFalse(snapshot.contains(item: "main"))
    assertConsistent(snapshot)
    assertMirror(old, snapshot)
  }

  func testExpandToLevelAndSubtree() throws {
    var snapshot = try makeOutline()
    try snapshot.expand(toLevel: 0)
    XCTAssertEqual(snapshot.visibleItems(inSection: "files"), ["docs", "notes"])
    try snapshot.expand(toLevel: 1)
    XCTAssertEqual(snapshot.visibleItems(inSection: "files"), ["docs", "readme", "src", "notes"])
    try snapshot.expandSubtree("docs")
    XCTAssertEqual(snapshot.numberOfItems(inSection: "files"), 5)
    try snapshot.collapseSubtree("docs")
    XCTAssertFalse(snapshot.isExpanded("src"))
    XCTAssertEqual(snapshot.numberOfItems(inSection: "files"), 2)
    assertConsistent(snapshot)
  }

  func testIndexPathsInLargeOutlineMatchVisibleOrder() throws {
    var random = SplitMix64(seed: 7)
    var snapshot = ListSnapshot()
    try snapshot.appendSections(["s"])
    var nodes: [OutlineNode] = []
    for i in 0..<40 {
      nodes.append(
        OutlineNode(
          "r\(i)", children: (0..<random.int(0..<5)).map { OutlineNode("r\(i).\($0)") },
          isExpanded: random.chance(percent: 50)))
    }
    try snapshot.appendTrees(nodes)
    for (row, id) in snapshot.visibleItems(inSection: "s").enumerated() {
      XCTAssertEqual(snapshot.index(ofItem: id), row)
      XCTAssertEqual(snapshot.item(at: ListIndexPath(section: 0, item: row)), id)
    }
  }

  func testDeepTreeDoesNotRecurse() throws {
    var node = OutlineNode("leaf")
    for depth in 0..<5000 { node = OutlineNode("n\(depth)", children: [node], isExpanded: true) }
    var snapshot = ListSnapshot()
    try snapshot.appendSections(["s"])
    try snapshot.appendTrees([node])
    XCTAssertEqual(snapshot.numberOfItems(inSection: "s"), 5001)
    XCTAssertEqual(snapshot.level(of: "leaf"), 5000)
    try snapshot.collapse(["n4999"])
    XCTAssertEqual(snapshot.numberOfItems(inSection: "s"), 1)
  }
}
