// The windowed view state against the real model: cache, counts, cursor and selection on random edits.
import JSON
import ListModel
import ListTUI
import XCTest

final class ViewStatePropertyTests: XCTestCase {
  /// A view state fed the daemon's answers and notifications for random edits must hold, at
  /// every version: the exact row count; cached rows equal to the list's rows at the same
  /// index (the cache is remapped by each changeset, not refetched); the cursor on the same
  /// item while it exists, else on its nearest surviving neighbour; the exact selection.
  func testViewStateFollowsRandomEdits() throws {
    let seed = RandomLists.seed(for: "ViewStatePropertyTests")
    var lists = RandomLists(seed: seed)
    var checked = 0
    for _ in 0..<400 {
      var fixture = ModelFixture(try lists.snapshot())
      var view = ListViewState(list: fixture.list, height: 200)
      view.load(sectionsAnswer: fixture.sectionsAnswer, now: 0)
      view.load(selectionAnswer: ["version": 0, "items": []])
      if let window = view.nextWindowRequest() {
        view.install(windowAnswer: fixture.windowAnswer(offset: window.offset, limit: window.limit))
      }
      if view.totalRows > 0 { view.moveCursor(to: lists.random.int(0..<view.totalRows)) }
      for step in 0..<10 {
        let oldIDs = fixture.rowIDs
        let cursorBefore = view.cursorID
        let cursorRowBefore = view.cursorRow
        let change = try fixture.change { lists.edit(&$0) }
        try view.apply(didChange: change, now: Double(step))
        let ids = fixture.rowIDs
        let context = "seed \(seed), change \(change)"
        XCTAssertEqual(view.totalRows, ids.count, context)
        let rows = fixture.snapshot.rows.sections.flatMap(\.rows)
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
          let expected =
            newIndex[cursorBefore]
            ?? oldIDs[(cursorRowBefore + 1)...].lazy.compactMap { newIndex[$0] }.first
            ?? oldIDs[..<cursorRowBefore].reversed().lazy.compactMap { newIndex[$0] }.first
          if let expected {
            XCTAssertEqual(view.cursorRow, expected, "cursor was on \(cursorBefore): \(context)")
            XCTAssertEqual(view.cursorID, ids[expected], context)
          } else {
            XCTAssertEqual(view.cursorRow, 0, context)
          }
        }
        XCTAssertEqual(view.selection, fixture.snapshot.rows.selected, context)
        if let window = view.nextWindowRequest() {
          view.install(windowAnswer: fixture.windowAnswer(offset: window.offset, limit: window.limit))
        }
        if view.totalRows > 0, lists.random.chance(percent: 30) {
          view.moveCursor(to: lists.random.int(0..<view.totalRows))
        }
        checked += 1
      }
    }
    XCTAssertEqual(checked, 4000)
  }
}
