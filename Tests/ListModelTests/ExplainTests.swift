// Explanations of hand-made changes: one test per reason, the edit a cause names, and runs as ranges.
import XCTest

@testable import ListModel

final class ExplainTests: XCTestCase {
  /// The causes of applying `edits` to `old`, checked against the changeset.
  func explain(_ old: ListSnapshot, _ edits: [ListEdit]) throws -> [ChangeCause] {
    var new = old
    try new.apply(edits)
    let changes = diff(old, new)
    let causes = ListSnapshot.explain(changes, from: old, to: new, edits: edits)
    XCTAssertNil(
      ExplanationCheck(changes: changes, old: old, new: new, causes: causes).problem(singleEdit: false))
    return causes
  }

  func testAReorderNamesTheNeighboursAndTheMoveEdit() throws {
    let old = makeSnapshot([("s", ["a", "b", "c", "d"])])
    let causes = try explain(
      old, [.setPayload(item: "b", payload: ItemPayload(text: "B")), .moveItemAfter("a", item: "c")])
    let move = try XCTUnwrap(causes.first { $0.change == .itemMoves })
    XCTAssertEqual(move.ids, ["a"])
    XCTAssertEqual(move.reason, .reordered)
    XCTAssertEqual(move.after, "c")
    XCTAssertEqual(move.before, "d")
    XCTAssertEqual(move.edit, 1)
    let reconfigure = try XCTUnwrap(causes.first { $0.change == .itemReconfigures })
    XCTAssertEqual(reconfigure.fields, [FieldChange(.text, old: .absent, new: .string("B"))])
    XCTAssertEqual(reconfigure.edit, 0)
  }

  func testAMoveTheDiffInferredNamesNoEdit() throws {
    // Moving "a" after "b" in [a, b]: the diff keeps a and moves b, which no edit named.
    let old = makeSnapshot([("s", ["a", "b"])])
    let causes = try explain(old, [.moveItemAfter("a", item: "b")])
    XCTAssertEqual(causes.map(\.ids), [["b"]])
    XCTAssertEqual(causes[0].reason, .reordered)
    XCTAssertNil(causes[0].after)
    XCTAssertEqual(causes[0].before, "a")
    XCTAssertNil(causes[0].edit)
  }

  func testAHundredThousandRowExpandIsOneCause() throws {
    var old = ListSnapshot()
    let children = (0..<100_000).map { OutlineNode("c\($0)") }
    try old.appendSections([SectionSpec("s")])
    try old.appendTrees([OutlineNode("root", children: children)], toSection: "s")
    let causes = try explain(old, [.expand(["root"])])
    let inserts = causes.filter { $0.change == .itemInserts }
    XCTAssertEqual(inserts.count, 1)
    XCTAssertEqual(inserts[0].count, 100_000)
    XCTAssertEqual(inserts[0].reason, .revealed)
    XCTAssertEqual(inserts[0].related, "root")
    XCTAssertEqual(inserts[0].ids, ["c0"])
    XCTAssertEqual(inserts[0].edit, 0)
    XCTAssertEqual(
      causes.first { $0.change == .itemReconfigures }?.fields,
      [FieldChange(.expanded, old: .bool(false), new: .bool(true))])
  }

  func testHiddenRowsNameTheOutermostCollapsedAncestor() throws {
    var old = ListSnapshot()
    try old.appendSections([SectionSpec("s")])
    try old.appendTrees(
      [
        OutlineNode(
          "a", children: [OutlineNode("b", children: [OutlineNode("c")], isExpanded: true)], isExpanded: true)
      ],
      toSection: "s")
    try old.select(["c"])
    let causes = try explain(old, [.collapse(["b"]), .collapse(["a"])])
    let deletes = causes.filter { $0.change == .itemDeletes }
    XCTAssertEqual(deletes.map(\.reason), [.hidden])
    XCTAssertEqual(deletes[0].count, 2)
    XCTAssertEqual(deletes[0].related, "a")
    XCTAssertEqual(deletes[0].edit, 1)
    let deselected = try XCTUnwrap(causes.first { $0.change == .deselected })
    XCTAssertEqual(deselected.reason, .hidden)
    XCTAssertEqual(deselected.ids, ["c"])
  }

  func testRowsLeavingForANewSectionOrComingFromADeletedOne() throws {
    let old = makeSnapshot([("s", ["a", "b"]), ("t", ["x"])])
    let causes = try explain(
      old,
      [
        .appendSections([SectionSpec("u")]), .moveItemToSection("a", section: "u"),
        .moveItemToSection("x", section: "s"),
        .deleteSections(["t"]),
      ])
    XCTAssertEqual(causes.first { $0.change == .itemDeletes }?.reason, .toInsertedSection)
    XCTAssertEqual(causes.first { $0.change == .itemDeletes }?.related, "u")
    XCTAssertEqual(causes.first { $0.change == .itemDeletes }?.edit, 1)
    let insert = try XCTUnwrap(causes.first { $0.change == .itemInserts })
    XCTAssertEqual(insert.reason, .fromDeletedSection)
    XCTAssertEqual(insert.related, "t")
    XCTAssertEqual(insert.edit, 2)
    XCTAssertEqual(causes.first { $0.change == .sectionDeletes }?.edit, 3)
    XCTAssertEqual(causes.first { $0.change == .sectionInserts }?.edit, 0)
  }

  func testAReloadedItemThatMovedIsADeletePlusAnInsert() throws {
    let old = makeSnapshot([("s", ["a", "b", "c"])])
    let causes = try explain(old, [.reloadItems(["a"]), .moveItemAfter("a", item: "c")])
    XCTAssertEqual(causes.map(\.change), [.itemDeletes, .itemInserts])
    XCTAssertEqual(causes.map(\.reason), [.reloadedAndMoved, .reloadedAndMoved])
    XCTAssertEqual(causes.map(\.edit), [1, 1])
  }

  func testAnExplicitReloadAndReconfigureAreRequested() throws {
    let old = makeSnapshot([("s", ["a", "b"])])
    let causes = try explain(old, [.reloadItems(["a"]), .reconfigureItems(["b"])])
    XCTAssertEqual(causes.map(\.change), [.itemReloads, .itemReconfigures])
    XCTAssertEqual(causes.map(\.reason), [.requested, .requested])
    XCTAssertEqual(causes.map(\.edit), [0, 1])
  }

  func testDeselectionReasons() throws {
    var old = makeSnapshot([("s", ["a", "b", "c", "d"])])
    try old.select(["a", "b", "c"])
    let causes = try explain(
      old,
      [
        .deleteItems(["a"]),
        .setPayload(item: "b", payload: ItemPayload(content: ItemContent(text: "b"), isSelectable: false)),
        .deselect(["c"]),
      ])
    let deselected = causes.filter { $0.change == .deselected }
    XCTAssertEqual(deselected.map(\.reason), [.removed, .unselectable, .deselected])
    XCTAssertEqual(deselected.map(\.ids), [["a"], ["b"], ["c"]])
    XCTAssertEqual(deselected.map(\.edit), [0, 1, 2])
    let mode = try explain(old, [.setSelectionMode(.single)])
    XCTAssertEqual(mode.first { $0.change == .deselected }?.reason, .selectionMode)
    XCTAssertEqual(mode.last?.change, .selectionMode)
    XCTAssertEqual(mode.last?.ids, ["single"])
  }

  func testSectionReloadsNameTheirFields() throws {
    var old = makeSnapshot([("s", ["a"]), ("t", [])])
    try old.setHeader("Old", forSection: "s")
    let causes = try explain(old, [.setSectionHeader(section: "s", header: "New"), .reloadSections(["t"])])
    XCTAssertEqual(causes.map(\.reason), [.changed, .requested])
    XCTAssertEqual(causes[0].fields, [FieldChange(.header, old: .string("Old"), new: .string("New"))])
    XCTAssertEqual(causes.map(\.edit), [0, 1])
  }

  func testAReparentedRowThatIsNowHiddenAndTheParentsChildrenChange() throws {
    var old = ListSnapshot()
    try old.appendSections([SectionSpec("s")])
    try old.appendTrees([OutlineNode("p", children: [OutlineNode("q")]), OutlineNode("x")], toSection: "s")
    let causes = try explain(old, [.moveItemToParent("x", parent: "p")])
    let delete = try XCTUnwrap(causes.first { $0.change == .itemDeletes })
    XCTAssertEqual(delete.reason, .reparented)
    XCTAssertEqual(delete.related, "p")
    XCTAssertEqual(delete.edit, 0)
  }

  func testCausesCoveringOneItem() throws {
    let old = makeSnapshot([("s", ["a", "b", "c"])])
    var new = old
    try new.apply([.setPayload(item: "b", payload: ItemPayload(text: "B")), .deleteItems(["c"])])
    let changes = diff(old, new)
    let causes = ListSnapshot.explain(changes, from: old, to: new)
    XCTAssertEqual(
      ListSnapshot.causes(causes, coveringItem: "b", changeset: changes, from: old, to: new).map(\.change),
      [.itemReconfigures])
    XCTAssertEqual(
      ListSnapshot.causes(causes, coveringItem: "c", changeset: changes, from: old, to: new).map(\.reason),
      [.removed])
    XCTAssertEqual(ListSnapshot.causes(causes, coveringItem: "a", changeset: changes, from: old, to: new), [])
  }
}
