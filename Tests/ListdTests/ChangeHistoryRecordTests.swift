// The history's change records: kept under their own budget, the newest always, the oldest dropped first.
import JSON
import ListModel
import XCTest

@testable import ListServer

final class ChangeHistoryRecordTests: XCTestCase {
  func snapshot(_ count: Int, tag: String) -> ListSnapshot {
    var snapshot = ListSnapshot()
    try! snapshot.appendSections([SectionSpec("s")])
    try! snapshot.appendItems((0..<count).map { ListItem("\(tag)\($0)") }, toSection: "s")
    return snapshot
  }

  func testRecordsPastTheirBudgetAreDroppedOldestFirstAndTheChangesStay() {
    var history = ChangeHistory(capacity: 100, maxRecordWeight: 250)
    var before = snapshot(100, tag: "v0-")
    for version in 1...5 {
      let after = snapshot(100, tag: "v\(version)-")
      history.append(
        version: version, params: ["version": .int(Int64(version))], weight: 1,
        record: ChangeRecord(before: before, after: after, source: ChangeSource(method: "test")),
        recordWeight: before.itemCount(notSharedWith: after))
      before = after
    }
    // 100 items each: two records fit in 250, the newest two are kept.
    XCTAssertEqual(history.oldestExplainable, 4)
    XCTAssertEqual(history.explainableVersionsNewestFirst, [5, 4])
    XCTAssertNil(history.entry(producing: 3)?.record)
    XCTAssertNotNil(history.entry(producing: 3)?.params)
    XCTAssertEqual(history.changes(since: 0, current: 5)?.count, 5)
  }

  func testTheNewestRecordIsKeptWhateverItWeighs() {
    var history = ChangeHistory(capacity: 10, maxRecordWeight: 10)
    let before = snapshot(1_000, tag: "a")
    let after = snapshot(1_000, tag: "b")
    history.append(
      version: 1, params: [:], weight: 1,
      record: ChangeRecord(before: before, after: after, source: ChangeSource(method: "t")),
      recordWeight: before.itemCount(notSharedWith: after))
    XCTAssertEqual(history.oldestExplainable, 1)
  }

  func testAnEditWeighsOnlyTheSectionsItTouched() throws {
    var before = ListSnapshot()
    try before.appendSections([SectionSpec("big"), SectionSpec("small")])
    try before.appendItems((0..<1_000).map { ListItem("b\($0)") }, toSection: "big")
    try before.appendItems([ListItem("x")], toSection: "small")
    var after = before
    try after.appendItems([ListItem("y")], toSection: "small")
    XCTAssertEqual(before.itemCount(notSharedWith: after), 1)
  }
}
