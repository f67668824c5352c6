// The view state on chosen cases: cursor by identity, window fetch, flashes, resize.
import JSON
import ListModel
import ListTUI
import XCTest

final class ViewStateTests: XCTestCase {
  /// A view of `fixture` loaded and with its first window installed.
  func loaded(_ fixture: inout ModelFixture, height: Int = 10) -> ListViewState {
    var view = ListViewState(list: fixture.list, height: height)
    view.load(sectionsAnswer: fixture.sectionsAnswer, now: 0)
    fetch(&view, &fixture)
    return view
  }

  /// Answers every window the view asks for.
  func fetch(_ view: inout ListViewState, _ fixture: inout ModelFixture) {
    while let window = view.nextWindowRequest() {
      view.install(windowAnswer: fixture.windowAnswer(offset: window.offset, limit: window.limit))
    }
  }

  func testCursorStaysOnItsItemWhenRowsAreInsertedBeforeIt() throws {
    var fixture = try ModelFixture(rows: 50)
    var view = loaded(&fixture)
    view.moveCursor(to: 5)
    XCTAssertEqual(view.cursorID, "i5")
    try view.apply(
      didChange: fixture.change {
        try $0.insertItems([ListItem("new1"), ListItem("new2"), ListItem("new3")], before: "i2")
      }, now: 0)
    XCTAssertEqual(view.cursorID, "i5")
    XCTAssertEqual(view.cursorRow, 8)
    XCTAssertEqual(view.cursor?.id, "i5")
    XCTAssertEqual(view.rows[2]?.id, "new1", "inserted rows come with the changeset")
  }

  func testCursorFollowsAMovedItem() throws {
    var fixture = try ModelFixture(rows: 50)
    var view = loaded(&fixture)
    view.moveCursor(to: 3)
    try view.apply(didChange: fixture.change { try $0.moveItem("i3", after: "i8") }, now: 0)
    XCTAssertEqual(view.cursorID, "i3")
    XCTAssertEqual(view.cursorRow, 8)
  }

  func testCursorOnADeletedItemLandsOnTheNextNeighbourOrThePrevious() throws {
    var fixture = try ModelFixture(rows: 20)
    var view = loaded(&fixture)
    view.moveCursor(to: 5)
    try view.apply(didChange: fixture.change { try $0.deleteItems(["i5", "i6"]) }, now: 0)
    XCTAssertEqual(view.cursorID, "i7")
    XCTAssertEqual(view.cursorRow, 5)
    view.moveCursor(to: 17)
    XCTAssertEqual(view.cursorID, "i19")
    try view.apply(didChange: fixture.change { try $0.deleteItems(["i19"]) }, now: 0)
    XCTAssertEqual(view.cursorID, "i18", "the last row's neighbour is the one before it")
    try view.apply(didChange: fixture.change { $0.deleteAllItems() }, now: 0)
    XCTAssertEqual(view.cursorRow, 0)
    XCTAssertNil(view.cursorID)
  }

  func testCursorInACollapsedSubtreeLandsOnASurvivor() throws {
    var snapshot = ListSnapshot(selectionMode: .single)
    try snapshot.appendSections(["s"])
    try snapshot.appendTrees([
      OutlineNode(
        ListItem("a"), children: [OutlineNode(ListItem("a1")), OutlineNode(ListItem("a2"))], isExpanded: true),
      OutlineNode(ListItem("b")),
    ])
    var fixture = ModelFixture(snapshot)
    var view = loaded(&fixture)
    view.moveCursor(to: 2)
    XCTAssertEqual(view.cursorID, "a2")
    try view.apply(didChange: fixture.change { try $0.collapse(["a"]) }, now: 0)
    XCTAssertEqual(view.totalRows, 2)
    XCTAssertEqual(view.cursorID, "b")
    XCTAssertEqual(view.rows[0]?.expanded, false, "the collapsed row is reconfigured in the cache")
  }

  func testWindowFetchAsksForTheScreenPlusAMarginAndRefetchesPastTheCache() throws {
    var fixture = try ModelFixture(rows: 1_000_000)
    var view = ListViewState(list: fixture.list, height: 20)
    view.load(sectionsAnswer: fixture.sectionsAnswer, now: 0)
    let first = try XCTUnwrap(view.nextWindowRequest())
    XCTAssertEqual(first.offset, 0)
    XCTAssertEqual(first.limit, 20 + view.margin)
    XCTAssertNil(view.nextWindowRequest(), "one fetch in flight at a time")
    view.install(windowAnswer: fixture.windowAnswer(offset: first.offset, limit: first.limit))
    XCTAssertNil(view.nextWindowRequest(), "the screen is cached")
    view.moveCursor(by: 25)
    XCTAssertNil(view.nextWindowRequest(), "still inside the cache and half a margin")
    view.moveCursor(to: 999_999)
    let last = try XCTUnwrap(view.nextWindowRequest())
    XCTAssertEqual(last.offset, 1_000_000 - 20 - view.margin)
    XCTAssertEqual(last.limit, 20 + view.margin)
    view.install(windowAnswer: fixture.windowAnswer(offset: last.offset, limit: last.limit))
    XCTAssertEqual(view.cursor?.id, "i999999")
    view.moveCursor(to: 500_000)
    let middle = try XCTUnwrap(view.nextWindowRequest())
    XCTAssertLessThanOrEqual(middle.limit, 20 + 2 * view.margin)
    XCTAssertLessThanOrEqual(middle.offset, view.visibleRows.lowerBound)
    XCTAssertGreaterThanOrEqual(middle.offset + middle.limit, view.visibleRows.upperBound)
    view.install(windowAnswer: fixture.windowAnswer(offset: middle.offset, limit: middle.limit))
    XCTAssertEqual(view.cursor?.id, "i500000")
    XCTAssertLessThan(fixture.rowsServed, 300, "a million rows, three windows")
    XCTAssertLessThanOrEqual(view.rows.count, 6 * view.margin + 20, "the cache stays bounded")
  }

  func testAWindowAnswerAheadOfTheNotificationsWaitsForThem() throws {
    var fixture = try ModelFixture(rows: 30)
    var view = ListViewState(list: fixture.list, height: 10)
    view.load(sectionsAnswer: fixture.sectionsAnswer, now: 0)
    let window = try XCTUnwrap(view.nextWindowRequest())
    let change = try fixture.change { try $0.insertItems([ListItem("x")], before: "i0") }
    view.install(windowAnswer: fixture.windowAnswer(offset: window.offset, limit: window.limit))
    XCTAssertTrue(view.rows.isEmpty, "an answer at v1 is not installed over v0")
    try view.apply(didChange: change, now: 0)
    XCTAssertEqual(view.rows[0]?.id, "x")
    XCTAssertEqual(view.rows[1]?.id, "i0")
  }

  func testAGapInVersionsAsksForAResync() throws {
    var fixture = try ModelFixture(rows: 5)
    var view = loaded(&fixture)
    _ = try fixture.change { try $0.deleteItems(["i0"]) }
    let second = try fixture.change { try $0.deleteItems(["i1"]) }
    XCTAssertThrowsError(try view.apply(didChange: second, now: 0))
  }

  func testChangedRowsFlashUntilTheyExpire() throws {
    var fixture = try ModelFixture(rows: 10)
    var view = loaded(&fixture)
    try view.apply(
      didChange: fixture.change {
        try $0.insertItems([ListItem("new")], before: "i3")
        try $0.setPayload(ItemPayload(text: "changed"), forItem: "i7")
      }, now: 100)
    XCTAssertTrue(view.isFlashing("new", now: 100.1))
    XCTAssertTrue(view.isFlashing("i7", now: 100.1))
    XCTAssertFalse(view.isFlashing("i2", now: 100.1))
    XCTAssertTrue(view.expireFlashes(now: 100.3))
    XCTAssertFalse(view.expireFlashes(now: 100 + ListViewState.flashDuration + 0.01))
    XCTAssertFalse(view.isFlashing("new", now: 100 + ListViewState.flashDuration + 0.01))
    XCTAssertTrue(view.flashes.isEmpty)
  }

  func testResizeKeepsTheCursorVisibleAndClampsTheScroll() throws {
    var fixture = try ModelFixture(rows: 100, header: "All")
    var view = loaded(&fixture, height: 20)
    view.moveCursor(to: 50)
    fetch(&view, &fixture)
    XCTAssertTrue(view.visibleRows.contains(50))
    view.resize(height: 5)
    XCTAssertTrue(view.visibleRows.contains(50), "shrinking keeps the cursor on screen")
    view.moveCursor(to: 99)
    view.resize(height: 60)
    XCTAssertEqual(view.top, 101 - 60, "growing at the end shows as many rows as fit")
    XCTAssertTrue(view.visibleRows.contains(99))
    view.resize(height: 500)
    XCTAssertEqual(view.top, 0, "a screen taller than the list starts at the top")
    view.moveCursor(to: 0)
    view.resize(height: 1)
    XCTAssertEqual(view.visibleRows, 0..<1)
  }

  func testTheHeaderShowsAboveTheFirstRowOfASection() throws {
    var fixture = try ModelFixture(rows: 100, header: "All")
    var view = loaded(&fixture, height: 10)
    view.moveCursor(to: 40)
    view.moveCursor(to: 0)
    XCTAssertEqual(view.top, 0, "the header line stays visible")
    XCTAssertEqual(fixture.sectionsAnswer["sections"]?[0]?["header"], "All")
  }

  func testSearchMatchesFollowChangesAndCycle() throws {
    var fixture = try ModelFixture(rows: 20)
    var view = loaded(&fixture)
    view.setMatches(searchAnswer: [
      "version": 0,
      "matches": [
        ["id": "i4", "indexPath": [0, 4]], ["id": "i12", "indexPath": [0, 12]],
        ["id": "h", "indexPath": nil],
      ],
    ])
    XCTAssertEqual(view.nextMatch(forward: true), 1)
    XCTAssertEqual(view.cursorID, "i4")
    try view.apply(didChange: fixture.change { try $0.insertItems([ListItem("x")], before: "i0") }, now: 0)
    XCTAssertEqual(view.nextMatch(forward: true), 2)
    XCTAssertEqual(view.cursorRow, 13)
    XCTAssertEqual(view.nextMatch(forward: true), 1, "wraps")
    XCTAssertEqual(view.cursorRow, 5)
    XCTAssertEqual(view.nextMatch(forward: false), 2, "backwards wraps too")
  }

  func testAChangesetCarryingManyRowsDoesNotGrowTheCache() throws {
    var snapshot = ListSnapshot(selectionMode: .single)
    try snapshot.appendSections(["s"])
    try snapshot.appendTrees([
      OutlineNode(ListItem("top"), children: (0..<20_000).map { OutlineNode(ListItem("c\($0)")) })
    ])
    var fixture = ModelFixture(snapshot)
    var view = loaded(&fixture, height: 10)
    try view.apply(didChange: fixture.change { try $0.expand(["top"]) }, now: 0)
    XCTAssertEqual(view.totalRows, 20_001)
    XCTAssertLessThanOrEqual(view.rows.count, 10 + 4 * view.margin)
    XCTAssertEqual(view.rows[1]?.id, "c0", "the rows on screen came with the changeset")
    XCTAssertNil(view.nextWindowRequest(), "nothing to fetch")
  }
}

extension JSONValue {
  subscript(index: Int) -> JSONValue? { arrayValue.flatMap { $0.indices.contains(index) ? $0[index] : nil } }
}
