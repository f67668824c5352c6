// The windowed view state against the real model: cache, counts, cursor and selection on random edits.
import JSON
import ListModel
import ListTUI
import XCTest

final class ViewStatePropertyTests: XCTestCase {
  /// A view state fed the daemon's windowed answers and notifications for random edits and
  /// window moves must hold, at every version: the exact row count; exactly the window's rows,
  /// equal to the list's rows at the same index (remapped by each changeset, not refetched;
  /// rows entering the window come with it); every section's header, footer, kind and header
  /// mode; the cursor on the same
  /// item while it exists, else on its nearest surviving neighbour; the exact selection.
  func testViewStateFollowsRandomEdits() throws {
    let seed = RandomLists.seed(for: "ViewStatePropertyTests")
    var lists = RandomLists(seed: seed)
    var checked = 0
    var exact = 0
    for _ in 0..<400 {
      var fixture = ModelFixture(try lists.snapshot())
      // A short screen, so that edits fall outside the window and moves go past it.
      var view = ListViewState(list: fixture.list, height: lists.random.int(1..<6))
      let subscribed = view.subscribeWindow()
      view.load(windowed: fixture.windowedAnswer(offset: subscribed.offset, limit: subscribed.limit), now: 0)
      if view.totalRows > 0 { view.moveCursor(to: lists.random.int(0..<view.totalRows)) }
      for step in 0..<10 {
        let oldIDs = fixture.rowIDs
        let cursorBefore = view.cursorID
        let cursorRowBefore = view.cursorRow
        let held = Set(view.rows.keys)
        let change = try fixture.change { lists.edit(&$0) }
        try view.apply(didChange: change, now: Double(step))
        let ids = fixture.rowIDs
        let context = "seed \(seed), change \(change)"
        XCTAssertEqual(view.totalRows, ids.count, context)
        XCTAssertEqual(
          view.layout?.sections.map(SectionStyle.init), SectionStyle.of(fixture.snapshot),
          "section headers, footers, kinds and header modes: \(context)")
        let rows = fixture.snapshot.rows.sections.flatMap(\.rows)
        let window = try XCTUnwrap(view.window)
        XCTAssertEqual(
          Set(view.rows.keys),
          Set(min(window.offset, ids.count)..<min(window.offset + window.limit, ids.count)),
          "the rows held are the window's: \(context)")
        for (index, row) in view.rows {
          guard index < ids.count else {
            return XCTFail("cached row \(index) beyond \(ids.count): \(context)")
          }
          XCTAssertEqual(row.id, ids[index], context)
          XCTAssertEqual(row.level, rows[index].level, context)
          XCTAssertEqual(row.expanded, rows[index].isExpanded, context)
          XCTAssertEqual(row.text, rows[index].payload.content.text, context)
        }
        if let cursorBefore, !oldIDs.isEmpty {
          let newIndex = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
          // The old row the cursor belongs on: its own, else the next one still listed, else the previous.
          let landing =
            newIndex[cursorBefore] != nil
            ? cursorRowBefore
            : ((cursorRowBefore + 1)..<oldIDs.count).first { newIndex[oldIDs[$0]] != nil }
              ?? (0..<cursorRowBefore).reversed().first { newIndex[oldIDs[$0]] != nil }
          if let landing, let expected = newIndex[oldIDs[landing]] {
            // A windowed view knows the rows it held and the rows carried into its window: an
            // item deleted and inserted elsewhere is recognised when both ends are in view.
            let between = min(cursorRowBefore, landing)...max(cursorRowBefore, landing)
            if between.allSatisfy(held.contains), view.rows[expected] != nil {
              XCTAssertEqual(view.cursorRow, expected, "cursor was on \(cursorBefore): \(context)")
              XCTAssertEqual(view.cursorID, ids[expected], context)
              exact += 1
            } else if view.rows[view.cursorRow] != nil {
              XCTAssertEqual(view.cursorID, ids[view.cursorRow], "the cursor's id is its row's: \(context)")
            }
          } else {
            XCTAssertEqual(view.cursorRow, 0, context)
          }
        }
        XCTAssertEqual(view.selection, fixture.snapshot.rows.selected, context)
        if let window = view.nextWindowRequest() {
          XCTAssertTrue(
            view.install(windowAnswer: fixture.windowedAnswer(offset: window.offset, limit: window.limit)))
        }
        if view.totalRows > 0, lists.random.chance(percent: 30) {
          view.moveCursor(to: lists.random.int(0..<view.totalRows))
        }
        checked += 1
      }
    }
    XCTAssertEqual(checked, 4000)
    XCTAssertGreaterThan(exact, 1000, "the cursor's landing was checked exactly often enough")
  }
}
