// Every invalid operation throws the right typed error naming the id, and changes nothing.
import SeededRandom
import XCTest

@testable import ListModel

final class ErrorTests: XCTestCase {
  /// a: [1, 2 > [2a]], b: [3]; "2" is collapsed so "2a" is hidden.
  func makeFixture(mode: SelectionMode = .multiple) throws -> ListSnapshot {
    var snapshot = ListSnapshot(selectionMode: mode)
    try snapshot.appendSections(["a", "b"])
    try snapshot.appendTrees(
      [OutlineNode("1"), OutlineNode("2", children: [OutlineNode("2a")])], toSection: "a")
    try snapshot.appendItems(
      [ListItem("3"), ListItem("ns", payload: ItemPayload(isSelectable: false))], toSection: "b")
    return snapshot
  }

  func testEveryInvalidEditThrowsAndChangesNothing() throws {
    let cases: [(ListEdit, ListModelError.Kind)] = [
      (.appendSections([SectionSpec("a")]), .duplicateSection("a")),
      (.appendSections([SectionSpec("x"), SectionSpec("x")]), .duplicateSection("x")),
      (.insertSectionsBefore([SectionSpec("x")], section: "zz"), .unknownSection("zz")),
      (.insertSectionsAfter([SectionSpec("b")], section: "a"), .duplicateSection("b")),
      (.deleteSections(["a", "zz"]), .unknownSection("zz")),
      (.moveSectionBefore("a", section: "a"), .sectionMovedRelativeToItself("a")),
      (.moveSectionAfter("zz", section: "a"), .unknownSection("zz")),
      (.reloadSections(["zz"]), .unknownSection("zz")),
      (.setSectionHeader(section: "zz", header: "h"), .unknownSection("zz")),
      (.setSectionFooter(section: "zz", footer: "f"), .unknownSection("zz")),
      (.updateSection("zz", header: nil, footer: nil), .unknownSection("zz")),
      (.appendItems([ListItem("1")], section: nil), .duplicateItem("1")),
      (.appendItems([ListItem("n"), ListItem("n")], section: "a"), .duplicateItem("n")),
      (.appendItems([ListItem("n")], section: "zz"), .unknownSection("zz")),
      (.appendItems([ListItem("2a")], section: "b"), .duplicateItem("2a")),
      (.insertItemsBefore([ListItem("n")], item: "zz"), .unknownItem("zz")),
      (.insertItemsAfter([ListItem("3")], item: "1"), .duplicateItem("3")),
      (.deleteItems(["1", "zz"]), .unknownItem("zz")),
      (.moveItemBefore("1", item: "1"), .itemMovedRelativeToItself("1")),
      (.moveItemAfter("2", item: "2a"), .itemMovedIntoOwnSubtree("2", "2a")),
      (.moveItemBefore("zz", item: "1"), .unknownItem("zz")),
      (.moveItemToParent("2", parent: "2a"), .itemMovedIntoOwnSubtree("2", "2a")),
      (.moveItemToParent("2", parent: "2"), .itemMovedRelativeToItself("2")),
      (.moveItemToSection("1", section: "zz"), .unknownSection("zz")),
      (.reloadItems(["zz"]), .unknownItem("zz")),
      (.reconfigureItems(["1", "zz"]), .unknownItem("zz")),
      (.replaceItems([ListItem("3")], section: "a"), .duplicateItem("3")),
      (.replaceItems([ListItem("n"), ListItem("n")], section: "a"), .duplicateItem("n")),
      (.replaceItems([], section: "zz"), .unknownSection("zz")),
      (.setPayload(item: "zz", payload: ItemPayload()), .unknownItem("zz")),
      (.appendChildren([ListItem("n")], parent: "zz"), .unknownItem("zz")),
      (.appendChildren([ListItem("2")], parent: "1"), .duplicateItem("2")),
      (.appendTrees([OutlineNode("n", children: [OutlineNode("n")])], section: "a"), .duplicateItem("n")),
      (.appendChildTrees([OutlineNode("n", children: [OutlineNode("1")])], parent: "3"), .duplicateItem("1")),
      (.expand(["1", "zz"]), .unknownItem("zz")),
      (.collapse(["zz"]), .unknownItem("zz")),
      (.expandSubtree("zz"), .unknownItem("zz")),
      (.collapseSubtree("zz"), .unknownItem("zz")),
      (.expandAll(section: "zz"), .unknownSection("zz")),
      (.collapseAll(section: "zz"), .unknownSection("zz")),
      (.expandToLevel(1, section: "zz"), .unknownSection("zz")),
      (.select(["zz"]), .unknownItem("zz")),
      (.select(["2a"]), .itemNotVisible("2a")),
      (.select(["ns"]), .itemNotSelectable("ns")),
      (.deselect(["zz"]), .unknownItem("zz")),
    ]
    let fixture = try makeFixture()
    for (edit, expected) in cases {
      var snapshot = fixture
      do throws(ListModelError) {
        try snapshot.apply([edit])
        XCTFail("\(edit) did not throw")
      } catch {
        XCTAssertEqual(error.kind, expected, "\(edit)")
        XCTAssertEqual(error.editIndex, 0)
        XCTAssertTrue(error.message.hasPrefix("edit 0: "), error.message)
        XCTAssertTrue(snapshot.isIdentical(to: fixture), "\(edit) changed the snapshot")
      }
      // The direct method throws the same kind, without an edit index.
      var direct = fixture
      do throws(ListModelError) {
        try direct.apply(edit)
      } catch {
        XCTAssertEqual(error.kind, expected)
        XCTAssertNil(error.editIndex)
        XCTAssertTrue(direct.isIdentical(to: fixture))
      }
    }
  }

  func testMessagesNameTheOffendingID() {
    XCTAssertEqual(ListModelError(.unknownItem("abc")).message, "unknown item 'abc'")
    XCTAssertEqual(
      ListModelError(.duplicateSection("s"), editIndex: 3).message, "edit 3: duplicate section id 's'")
    XCTAssertTrue(ListModelError(.itemMovedIntoOwnSubtree("p", "c")).message.contains("'p'"))
  }

  func testAppendingWithoutSectionsAndSelectionModes() throws {
    var empty = ListSnapshot()
    assertThrows(.noSections) { () throws(ListModelError) in try empty.appendItems(["x"]) }
    assertThrows(.noSections) { () throws(ListModelError) in try empty.appendTrees([OutlineNode("x")]) }
    var none = try makeFixture(mode: .none)
    let before = none
    assertThrows(.selectionDisabled("1")) { () throws(ListModelError) in try none.select(["1"]) }
    assertThrows(.selectionDisabled(nil)) { () throws(ListModelError) in try none.selectAll() }
    XCTAssertTrue(none.isIdentical(to: before))
    var single = try makeFixture(mode: .single)
    assertThrows(.multipleSelectionNotAllowed) { () throws(ListModelError) in try single.select(["1", "3"]) }
    assertThrows(.multipleSelectionNotAllowed) { () throws(ListModelError) in try single.selectAll() }
  }

  /// Random batches with one invalid edit at a random place: the error names that index and
  /// the snapshot is identical to before.
  func testRandomInvalidBatchesAreAtomic() throws {
    let poisons: [ListEdit] = [
      .deleteItems(["missing"]), .appendSections([SectionSpec("dup"), SectionSpec("dup")]),
      .moveSectionBefore("missing", section: "missing"), .select(["missing"]), .expand(["missing"]),
      .appendItems([ListItem("again"), ListItem("again")], section: nil),
    ]
    for seed in PropertySeeds.seeds("LISTD_POISON_SEED", default: 0..<500) {
      var generator = RandomEdits(seed: seed &* 31 &+ 1)
      var snapshot = generator.list()
      if snapshot.numberOfSections == 0 { try snapshot.appendSections(["only"]) }
      let original = snapshot
      // Valid edits only, found by trial on a scratch copy, then one poison.
      var scratch = snapshot
      var batch: [ListEdit] = []
      while batch.count < 4 {
        let edit = generator.edit(scratch)
        if (try? scratch.apply(edit)) != nil { batch.append(edit) }
      }
      let at = generator.random.int(0..<(batch.count + 1))
      batch.insert(generator.random.element(poisons)!, at: at)
      do throws(ListModelError) {
        try snapshot.apply(batch)
        XCTFail("seed \(seed): poisoned batch did not throw")
      } catch {
        XCTAssertEqual(error.editIndex, at, "seed \(seed): \(error.message)")
        XCTAssertTrue(snapshot.isIdentical(to: original), "seed \(seed): batch was not atomic")
      }
    }
  }
}
