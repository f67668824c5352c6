// appendTrees(_:toSection:inheritingExpansionFrom:): nodes that keep their item's expansion in a base snapshot.
import XCTest

@testable import ListModel

final class InheritedExpansionTests: XCTestCase {
  /// docs (expanded) > [readme, src (expanded, hidden parent collapsed later) > [main]], leaf (expanded)
  func makeBase() throws -> ListSnapshot {
    var snapshot = ListSnapshot()
    try snapshot.appendSections(["files"])
    try snapshot.appendTrees([
      OutlineNode(
        "docs", children: [OutlineNode("readme"), OutlineNode("src", children: [OutlineNode("main")])],
        isExpanded: true),
      OutlineNode("gone", children: [OutlineNode("x")], isExpanded: true),
    ])
    try snapshot.expand(["readme"])  // a leaf may carry an expanded state too
    return snapshot
  }

  func inheriting(_ id: String, _ children: [OutlineNode] = []) -> OutlineNode {
    .inheritingExpansion(ListItem(id), children: children)
  }

  func check(sharing: Bool) throws {
    let base = try makeBase()
    var next = sharing ? ListSnapshot(sharingIdentifiersWith: base) : ListSnapshot()
    try next.appendSections(["files"])
    try next.appendTrees(
      [
        inheriting("docs", [inheriting("readme"), inheriting("src", [inheriting("main")])]),
        OutlineNode("new", children: [inheriting("child")], isExpanded: true),
        inheriting("fresh", [OutlineNode("y")]),
        OutlineNode("x", children: [OutlineNode("z")], isExpanded: false),
      ], toSection: "files", inheritingExpansionFrom: base)
    XCTAssertTrue(next.isExpanded("docs"))
    XCTAssertTrue(next.isExpanded("readme"))
    XCTAssertFalse(next.isExpanded("src"))
    XCTAssertFalse(next.isExpanded("main"))
    XCTAssertTrue(next.isExpanded("new"))  // explicit state wins
    XCTAssertFalse(next.isExpanded("child"))  // not in the base: its fallback, collapsed
    XCTAssertFalse(next.isExpanded("fresh"))
    XCTAssertFalse(next.isExpanded("x"))  // explicit
    XCTAssertEqual(
      next.visibleItems(inSection: "files"), ["docs", "readme", "src", "new", "child", "fresh", "x"])
    assertConsistent(next)
    XCTAssertEqual(next.sharesIdentifiers(with: base), sharing)

    // Same result as resolving every omitted state by string, the daemon's former path.
    var reference = ListSnapshot(sharingIdentifiersWith: base)
    try reference.appendSections(["files"])
    func resolve(_ node: OutlineNode) -> OutlineNode {
      OutlineNode(
        node.item, children: node.children.map(resolve),
        isExpanded: node.inheritsExpansion ? base.isExpanded(node.item.id) : node.isExpanded)
    }
    try reference.appendTrees(
      [
        inheriting("docs", [inheriting("readme"), inheriting("src", [inheriting("main")])]),
        OutlineNode("new", children: [inheriting("child")], isExpanded: true),
        inheriting("fresh", [OutlineNode("y")]),
        OutlineNode("x", children: [OutlineNode("z")], isExpanded: false),
      ].map(resolve), toSection: "files")
    XCTAssertEqual(diff(base, next), diff(base, reference))
  }

  func testInheritsFromSharedBase() throws { try check(sharing: true) }

  func testInheritsFromUnsharedBase() throws { try check(sharing: false) }

  func testWithoutBaseUsesFallback() throws {
    var snapshot = ListSnapshot()
    try snapshot.appendSections(["s"])
    var node = inheriting("a", [OutlineNode("b")])
    node.isExpanded = true
    try snapshot.appendTrees([node, inheriting("c", [OutlineNode("d")])], toSection: "s")
    XCTAssertTrue(snapshot.isExpanded("a"))
    XCTAssertFalse(snapshot.isExpanded("c"))
    XCTAssertTrue(node.inheritsExpansion)
    XCTAssertFalse(OutlineNode("e").inheritsExpansion)
  }

  func testFailedAppendChangesNothing() throws {
    let base = try makeBase()
    var next = ListSnapshot(sharingIdentifiersWith: base)
    try next.appendSections(["files"])
    try next.appendTrees([inheriting("docs")], toSection: "files", inheritingExpansionFrom: base)
    let before = next
    XCTAssertThrowsError(
      try next.appendTrees(
        [inheriting("src"), inheriting("docs")], toSection: "files", inheritingExpansionFrom: base))
    XCTAssertEqual(next, before)
  }
}

/// Interning with an order guess (list/replace's snapshot build) gives the same ids as hashing.
final class GuessedInterningTests: XCTestCase {
  func testGuessedInternMatchesPlainIntern() {
    let table = IdentifierTable()
    _ = table.intern(["a", "b", "c", "d"])
    let input = ["a", "b", "x", "c", "a", "d", "y", "x", "b"]
    // Guesses: right ones, wrong ones, out of range and negative.
    let guesses: [(Int32, Int32)] = [
      (0, 1), (1, -1), (7, 2), (-1, -1), (99, 3), (3, 99), (2, 5), (5, -1), (-1, 1), (0, 0),
    ]
    var call = 0
    let guessed = table.intern(input) { _ in
      defer { call += 1 }
      return guesses[call % guesses.count]
    }
    let reference = IdentifierTable()
    _ = reference.intern(["a", "b", "c", "d"])
    XCTAssertEqual(guessed, reference.intern(input))
    XCTAssertEqual(table.strings(), reference.strings())
  }

  func testReplaceInBaseOrderAndShuffled() throws {
    var base = ListSnapshot()
    try base.appendSections(["s", "t"])
    try base.appendTrees(
      [
        OutlineNode("a", children: [OutlineNode("a1"), OutlineNode("a2")], isExpanded: true),
        OutlineNode("b"),
      ],
      toSection: "s")
    try base.appendItems([ListItem("c"), ListItem("d")], toSection: "t")
    for order in [
      ["a", "b", "c", "d", "new"], ["d", "new", "c", "b", "a"], ["b", "a", "d", "c"], ["new", "a", "c"],
      ["b", "d"],
    ] {
      var next = ListSnapshot(sharingIdentifiersWith: base)
      try next.appendSections(["s"])
      try next.appendTrees(
        order.map {
          $0 == "a"
            ? .inheritingExpansion(ListItem("a"), children: [OutlineNode("a2"), OutlineNode("a1")])
            : OutlineNode($0)
        },
        toSection: "s", inheritingExpansionFrom: base)
      XCTAssertEqual(
        next.visibleItems(inSection: "s"), order.flatMap { $0 == "a" ? ["a", "a2", "a1"] : [$0] })
      XCTAssertEqual(next.isExpanded("a"), order.contains("a"))
      assertConsistent(next)
      var plain = ListSnapshot(sharingIdentifiersWith: base)
      try plain.appendSections(["s"])
      try plain.appendTrees(
        order.map {
          $0 == "a"
            ? OutlineNode("a", children: [OutlineNode("a2"), OutlineNode("a1")], isExpanded: true)
            : OutlineNode($0)
        },
        toSection: "s")
      XCTAssertEqual(next, plain)
      XCTAssertEqual(diff(base, next), diff(base, plain))
    }
    var duplicate = ListSnapshot(sharingIdentifiersWith: base)
    try duplicate.appendSections(["s"])
    XCTAssertThrowsError(
      try duplicate.appendTrees(
        [OutlineNode("a"), OutlineNode("b"), OutlineNode("a")], toSection: "s",
        inheritingExpansionFrom: base))
  }
}
