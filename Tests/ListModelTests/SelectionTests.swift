// Unit tests of selection modes, identity-following selection and the rule for hidden items.
import XCTest

@testable import ListModel

final class SelectionTests: XCTestCase {
  func testModes() throws {
    var snapshot = makeSnapshot([("a", ["1", "2", "3"])], mode: .none)
    assertThrows(.selectionDisabled("1")) { () throws(ListModelError) in try snapshot.select(["1"]) }
    assertThrows(.selectionDisabled(nil)) { () throws(ListModelError) in try snapshot.selectAll() }
    snapshot.setSelectionMode(.single)
    try snapshot.select(["1"])
    try snapshot.select(["2"])
    XCTAssertEqual(snapshot.selectedItems, ["2"])
    assertThrows(.multipleSelectionNotAllowed) { () throws(ListModelError) in try snapshot.select(["1", "3"])
    }
    snapshot.setSelectionMode(.multiple)
    try snapshot.select(["3", "1"])
    XCTAssertEqual(snapshot.selectedItems, ["1", "2", "3"])
    try snapshot.deselect(["2"])
    XCTAssertEqual(
      snapshot.indexPathsForSelectedItems, [.init(section: 0, item: 0), .init(section: 0, item: 2)])
    snapshot.deselectAll()
    XCTAssertTrue(snapshot.selectedItems.isEmpty)
    try snapshot.selectAll()
    XCTAssertEqual(snapshot.selectedItems.count, 3)
    snapshot.setSelectionMode(.single)
    XCTAssertTrue(snapshot.selectedItems.isEmpty)
  }

  func testSelectionFollowsIdentityAndDeletesAreReported() throws {
    var snapshot = makeSnapshot([("a", ["1", "2", "3"]), ("b", ["4"])])
    try snapshot.select(["2", "3"])
    let old = snapshot
    try snapshot.moveItem("2", after: "4")
    try snapshot.setPayload(ItemPayload(text: "x"), forItem: "2")
    try snapshot.deleteItems(["3"])
    XCTAssertEqual(snapshot.selectedItems, ["2"])
    XCTAssertEqual(snapshot.indexPathsForSelectedItems, [.init(section: 1, item: 1)])
    let changes = assertMirror(old, snapshot)
    XCTAssertEqual(changes.deselected, ["3"])
    XCTAssertEqual(changes.selected, [])
  }

  func testNonSelectableItems() throws {
    var snapshot = makeSnapshot([("a", ["1", "2"])])
    try snapshot.setPayload(ItemPayload(content: ItemContent(text: "n"), isSelectable: false), forItem: "1")
    assertThrows(.itemNotSelectable("1")) { () throws(ListModelError) in try snapshot.select(["1"]) }
    try snapshot.selectAll()
    XCTAssertEqual(snapshot.selectedItems, ["2"])
    try snapshot.setPayload(ItemPayload(isSelectable: false), forItem: "2")
    XCTAssertTrue(snapshot.selectedItems.isEmpty)
  }

  /// The rule: collapsing hides and deselects; hidden items cannot be selected; re-expanding
  /// does not reselect; selectAll takes visible items only.
  func testCollapseDeselectsHiddenItems() throws {
    var snapshot = ListSnapshot()
    try snapshot.appendSections(["s"])
    try snapshot.appendTrees([
      OutlineNode("p", children: [OutlineNode("c1"), OutlineNode("c2")], isExpanded: true), OutlineNode("q"),
    ])
    try snapshot.select(["c1", "q"])
    let old = snapshot
    let changes = try snapshot.applyAndDiff([.collapse(["p"])])
    XCTAssertEqual(changes.deselected, ["c1"])
    XCTAssertEqual(changes, diff(old, snapshot))
    XCTAssertEqual(snapshot.selectedItems, ["q"])
    assertThrows(.itemNotVisible("c2")) { () throws(ListModelError) in try snapshot.select(["c2"]) }
    try snapshot.expand(["p"])
    XCTAssertEqual(snapshot.selectedItems, ["q"])
    try snapshot.collapse(["p"])
    try snapshot.selectAll()
    XCTAssertEqual(Set(snapshot.selectedItems), ["p", "q"])
    assertConsistent(snapshot)
  }
}
