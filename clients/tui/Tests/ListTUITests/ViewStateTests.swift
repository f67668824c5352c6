// The view state on chosen cases: cursor by identity, window fetch, flashes, resize.
import JSON
import ListModel
import ListTUI
import XCTest

final class ViewStateTests: XCTestCase {
  /// A view of `fixture` subscribed to with its first window.
  func loaded(_ fixture: inout ModelFixture, height: Int = 10) -> ListViewState {
    var view = ListViewState(list: fixture.list, height: height)
    let window = view.subscribeWindow()
    XCTAssertTrue(
      view.load(windowed: fixture.windowedAnswer(offset: window.offset, limit: window.limit), now: 0))
    fetch(&view, &fixture)
    return view
  }

  /// Answers every `list/setWindow` the view asks for.
  func fetch(_ view: inout ListViewState, _ fixture: inout ModelFixture) {
    while let window = view.nextWindowRequest() {
      XCTAssertTrue(
        view.install(windowAnswer: fixture.windowedAnswer(offset: window.offset, limit: window.limit)))
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

  /// A window answered at a version older than the changes applied is refused (the caller
  /// resyncs): installing it would put the view back under a status line at the newer version.
  func testAWindowAnswerOlderThanTheAppliedChangesIsRefused() throws {
    var fixture = try ModelFixture(rows: 50)
    var view = loaded(&fixture)
    view.moveCursor(to: 40)
    let window = try XCTUnwrap(view.nextWindowRequest())
    let answer = fixture.windowedAnswer(offset: window.offset, limit: window.limit)
    try view.apply(didChange: fixture.change { try $0.deleteItems(["i1", "i2"]) }, now: 0)
    XCTAssertFalse(view.install(windowAnswer: answer), "an answer from before the change")
    XCTAssertFalse(view.windowInFlight, "the window can be asked for again")
    XCTAssertEqual(view.rows[5]?.id, "i7", "the rows stay those of the newer version")
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

  func testTheWindowIsTheScreenPlusAMarginAndMovesPastIt() throws {
    var fixture = try ModelFixture(rows: 1_000_000)
    var view = ListViewState(list: fixture.list, height: 20)
    let first = view.subscribeWindow()
    XCTAssertEqual(first.offset, 0)
    XCTAssertEqual(first.limit, 20 + 2 * view.margin)
    XCTAssertNil(view.nextWindowRequest(), "nothing to move before the subscription answered")
    view.load(windowed: fixture.windowedAnswer(offset: first.offset, limit: first.limit), now: 0)
    XCTAssertNil(view.nextWindowRequest(), "the screen is in the window")
    view.moveCursor(by: 25)
    XCTAssertNil(view.nextWindowRequest(), "still inside the window and half a margin")
    view.moveCursor(to: 999_999)
    let last = try XCTUnwrap(view.nextWindowRequest())
    XCTAssertEqual(last.offset, 1_000_000 - 20 - view.margin)
    XCTAssertEqual(last.limit, 20 + 2 * view.margin)
    XCTAssertNil(view.nextWindowRequest(), "one window in flight at a time")
    view.install(windowAnswer: fixture.windowedAnswer(offset: last.offset, limit: last.limit))
    XCTAssertEqual(view.cursor?.id, "i999999")
    view.moveCursor(to: 500_000)
    let middle = try XCTUnwrap(view.nextWindowRequest())
    XCTAssertLessThanOrEqual(middle.limit, 20 + 2 * view.margin)
    XCTAssertLessThanOrEqual(middle.offset, view.visibleRows.lowerBound)
    XCTAssertGreaterThanOrEqual(middle.offset + middle.limit, view.visibleRows.upperBound)
    view.install(windowAnswer: fixture.windowedAnswer(offset: middle.offset, limit: middle.limit))
    XCTAssertEqual(view.cursor?.id, "i500000")
    XCTAssertLessThan(fixture.rowsServed, 300, "a million rows, three windows")
    XCTAssertEqual(view.rows.count, middle.limit, "only the window's rows are held")
  }

  func testChangesBeforeASetWindowAnswerUseTheOldWindowAndTheAnswerStartsAfresh() throws {
    var fixture = try ModelFixture(rows: 100)
    var view = loaded(&fixture)
    let old = try XCTUnwrap(view.window)
    view.moveCursor(to: 60)
    XCTAssertNil(view.cursorID, "row 60 is outside the window")
    let window = try XCTUnwrap(view.nextWindowRequest())
    // The daemon filters this change with the old window: it was committed before the move.
    let change = try fixture.change { try $0.insertItems([ListItem("x")], before: "i0") }
    try view.apply(didChange: change, now: 0)
    XCTAssertEqual(view.rows[0]?.id, "x")
    XCTAssertEqual(Set(view.rows.keys), Set(old.offset..<(old.offset + old.limit)))
    XCTAssertEqual(view.cursorRow, 61, "the cursor's row moved down with the insert")
    view.install(windowAnswer: fixture.windowedAnswer(offset: window.offset, limit: window.limit))
    XCTAssertEqual(Set(view.rows.keys), Set(window.offset..<(window.offset + window.limit)))
    XCTAssertEqual(view.cursor?.id, "i60")
    XCTAssertEqual(view.cursorID, "i60")
  }

  func testRowsShiftedIntoTheWindowComeWithTheChangeAndNothingOutsideIt() throws {
    var fixture = try ModelFixture(rows: 100)
    var view = loaded(&fixture)
    let window = try XCTUnwrap(view.window)
    let change = try fixture.change { try $0.deleteItems(["i0", "i1", "i2", "i3", "i4"]) }
    XCTAssertEqual(change["changeset"]?["enter"]?[0]?["rows"]?.arrayValue?.count, 5, "\(change)")
    try view.apply(didChange: change, now: 0)
    XCTAssertEqual(view.rows.count, window.limit)
    XCTAssertEqual(view.rows[window.limit - 1]?.id, "i\(window.limit + 4)")
    XCTAssertFalse(view.isFlashing("i\(window.limit + 4)", now: 0), "a row that only shifted is no change")
    let far = try fixture.change { try $0.setPayload(ItemPayload(text: "far"), forItem: "i90") }
    XCTAssertNil(far["changeset"]?["itemReconfigures"]?[0]?["rows"], "a row outside the window is not sent")
    try view.apply(didChange: far, now: 0)
    XCTAssertEqual(view.lastChange, "v2 ~1")
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
    XCTAssertEqual(view.layout?.sections.first?.header, "All")
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
    let change = try fixture.change { try $0.collapse(["top"]) }
    try view.apply(didChange: change, now: 0)
    let expand = try fixture.change { try $0.expand(["top"]) }
    XCTAssertLessThan(expand.jsonBytes().count, 10_000, "a windowed change carries the window's rows")
    try view.apply(didChange: expand, now: 0)
    XCTAssertLessThanOrEqual(view.rows.count, 10 + 2 * view.margin)
    XCTAssertEqual(view.rows[1]?.id, "c0", "the rows on screen came with the changeset")
    XCTAssertNil(view.nextWindowRequest(), "nothing to fetch")
  }
}

extension JSONValue {
  subscript(index: Int) -> JSONValue? { arrayValue.flatMap { $0.indices.contains(index) ? $0[index] : nil } }
}
