// Equal content rebuilt on a snapshot's id table is recognised by the ids' bytes, whatever their strings' storage.
import XCTest

@testable import ListModel

final class EqualRebuildIdentityTests: XCTestCase {
  /// Ids too long for a small string, rebuilt as fresh String objects (so their representations
  /// differ from the table's), through both flat appending APIs: the section is taken over
  /// (same stamp) and the diff is empty. One id changed in its last byte (same length) is not
  /// taken over: the snapshot and its diff are a fresh build's.
  func testFreshCopiesOfLongIdsAreTakenOverAndAOneByteChangeIsNot() throws {
    let ids = (0..<300).map { "a-long-item-identifier-\($0)-0123456789" }
    var old = ListSnapshot()
    try old.appendSections(["s"])
    try old.appendItems(ids, toSection: "s")
    let fresh = ids.map { String(decoding: Array($0.utf8), as: UTF8.self) }
    XCTAssertNotEqual(
      unsafeBitCast(fresh[0], to: (UInt64, UInt64).self).1,
      unsafeBitCast(ids[0], to: (UInt64, UInt64).self).1,
      "the copies must have their own storage")
    var changed = fresh
    changed[150] = "a-long-item-identifier-150-0123456780"
    for useItems in [false, true] {
      func build(_ ids: [String], on base: ListSnapshot?) throws -> ListSnapshot {
        var snapshot = base.map { ListSnapshot(sharingIdentifiersWith: $0) } ?? ListSnapshot()
        try snapshot.appendSections(["s"])
        if useItems {
          try snapshot.appendItems(ids.map { ListItem($0) }, toSection: "s")
        } else {
          try snapshot.appendItems(ids, toSection: "s")
        }
        return snapshot
      }
      let equal = try build(fresh, on: old)
      XCTAssertEqual(
        equal.slots[Int(equal.order[0])].stamp, old.slots[Int(old.order[0])].stamp, "items \(useItems)")
      XCTAssertTrue(diff(old, equal).isEmpty, "items \(useItems)")
      XCTAssertEqual(equal.itemIdentifiers(inSection: "s"), ids)

      let new = try build(changed, on: old)
      let reference = try build(changed, on: nil)
      XCTAssertNotEqual(new.slots[Int(new.order[0])].stamp, old.slots[Int(old.order[0])].stamp)
      XCTAssertNil(new.brokenInvariant())
      XCTAssertEqual(new.itemIdentifiers(inSection: "s"), changed)
      XCTAssertEqual(diff(old, new), diff(old, reference), "items \(useItems)")
      XCTAssertEqual(diff(old, new).itemDeletes.map(\.rows), [150..<151])
    }
  }
}
