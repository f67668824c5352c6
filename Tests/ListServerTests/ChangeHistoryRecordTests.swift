// The history's change records: kept under their own budget, the newest always, the oldest dropped first.
import JSON
import ListModel
import ListProtocol
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
        version: version, previousVersion: version - 1, changeset: Changeset(), weight: 1,
        record: ChangeRecord(before: before, after: after, source: ChangeSource(method: "test")),
        recordWeight: before.retainedWeight(notSharedWith: after))
      before = after
    }
    // 100 items each, plus locations and tables of their own: one record fits in 250.
    XCTAssertEqual(history.oldestExplainable, 5)
    XCTAssertEqual(history.explainableVersionsNewestFirst, [5])
    XCTAssertNil(history.entry(producing: 4)?.record)
    XCTAssertNotNil(history.entry(producing: 3))
    XCTAssertEqual(history.records(since: 0, current: 5)?.count, 5)
  }

  func testTheNewestRecordIsKeptWhateverItWeighs() {
    var history = ChangeHistory(capacity: 10, maxRecordWeight: 10)
    let before = snapshot(1_000, tag: "a")
    let after = snapshot(1_000, tag: "b")
    history.append(
      version: 1, previousVersion: 0, changeset: Changeset(), weight: 1,
      record: ChangeRecord(before: before, after: after, source: ChangeSource(method: "t")),
      recordWeight: before.retainedWeight(notSharedWith: after))
    XCTAssertEqual(history.oldestExplainable, 1)
  }

  func testAnEditWeighsTheSectionsItTouchedAndTheLocationsItCopied() throws {
    var before = ListSnapshot()
    try before.appendSections([SectionSpec("big"), SectionSpec("small")])
    try before.appendItems((0..<1_000).map { ListItem("b\($0)") }, toSection: "big")
    try before.appendItems([ListItem("x")], toSection: "small")
    var after = before
    try after.appendItems([ListItem("y")], toSection: "small")
    // The small section's one item, and the page of locations the new id copied (1,003 ids of
    // 12 bytes, in 64-byte units); the big section's chunks stay shared.
    XCTAssertEqual(before.retainedWeight(notSharedWith: after), 1 + 1_003 * 12 / 64)
    var edited = before
    try edited.setPayload(ItemPayload(text: "changed"), forItem: "b500")
    // One item of 1,000 changed: only its chunk is not shared (12 nodes in debug builds,
    // 768 in release), not the whole section.
    XCTAssertLessThan(before.retainedWeight(notSharedWith: edited), 1_000)
    XCTAssertGreaterThan(before.retainedWeight(notSharedWith: edited), 0)
    var selected = before
    try selected.select(["x"])  // no new id: the locations stay shared
    XCTAssertEqual(before.retainedWeight(notSharedWith: selected), 0)
  }
}

extension ChangeHistoryRecordTests {
  func testAtMostMaxRecordsAreKept() {
    var history = ChangeHistory(capacity: 100, maxRecords: 3)
    var before = snapshot(1, tag: "v0-")
    for version in 1...6 {
      var after = before
      try! after.select(["v0-0"].filter { _ in version.isMultiple(of: 2) })
      try! after.setPayload(ItemPayload(text: "\(version)"), forItem: "v0-0")
      history.append(
        version: version, previousVersion: version - 1, changeset: Changeset(), weight: 1,
        record: ChangeRecord(before: before, after: after, source: ChangeSource(method: "t")),
        recordWeight: before.retainedWeight(notSharedWith: after))
      before = after
    }
    XCTAssertEqual(history.explainableVersionsNewestFirst, [6, 5, 4])
  }
}

extension ChangeHistoryRecordTests {
  /// A long list's records may weigh as much as the list: 100 single-item edits of a
  /// 100,000-item list (each weighing its chunk, not the list) are all kept although they weigh
  /// far more than the fixed budget, which alone keeps only the latest few.
  func testALongListKeepsAsManyRecordsAsItsOwnSizeAllows() throws {
    var before = ListSnapshot()
    try before.appendSections([SectionSpec("s")])
    try before.appendItems((0..<100_000).map { ListItem("i\($0)", payload: ItemPayload(text: "\($0)")) })
    var sized = ChangeHistory(capacity: 1_000, maxRecordWeight: 100)
    var fixed = ChangeHistory(capacity: 1_000, maxRecordWeight: 100)
    for version in 1...100 {
      var after = before
      try after.setPayload(ItemPayload(text: "v\(version)"), forItem: "i\((version * 7_919) % 100_000)")
      let weight = before.retainedWeight(notSharedWith: after)
      XCTAssertLessThan(weight, 1_000, "a single-item edit weighs its chunk, not the list")
      let record = ChangeRecord(before: before, after: after, source: ChangeSource(method: "t"))
      sized.append(
        version: version, previousVersion: version - 1, changeset: Changeset(), weight: 1, record: record,
        recordWeight: weight,
        listWeight: after.numberOfItems(includingHidden: true))
      fixed.append(
        version: version, previousVersion: version - 1, changeset: Changeset(), weight: 1, record: record,
        recordWeight: weight)
      before = after
    }
    XCTAssertEqual(sized.oldestExplainable, 1, "all 100 records fit in the list's own weight")
    XCTAssertGreaterThan(try XCTUnwrap(fixed.oldestExplainable), 50)
  }
}
