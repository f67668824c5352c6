// GroupedReferences against a plain array over seeded random writes, inserts and removals, with older copies that must not change.
import SeededRandom
import XCTest

@testable import ListModel

final class GroupedReferencesTests: XCTestCase {
  final class Box {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  func testRandomEditsMatchAnArrayAndLeaveCopiesUnchanged() {
    for seed in UInt64(0)..<300 {
      var random = SplitMix64(seed: seed)
      var grouped = GroupedReferences((0..<random.int(0..<40)).map(Box.init))
      var array = Array(grouped)
      var copies: [(GroupedReferences<Box>, [Int])] = []
      var next = 1_000
      for step in 0..<60 {
        if random.chance(percent: 30) { copies.append((grouped, array.map(\.value))) }
        switch random.int(0..<4) {
        case 0 where !array.isEmpty:
          let at = random.int(0..<array.count)
          next += 1
          grouped[at] = Box(next)
          array[at] = grouped[at]
        case 1:
          let at = random.int(0..<(array.count + 1))
          let block = (0..<random.int(1..<6)).map { _ -> Box in
            next += 1
            return Box(next)
          }
          grouped.insert(contentsOf: block, at: at)
          array.insert(contentsOf: block, at: at)
        case 2 where !array.isEmpty:
          let at = random.int(0..<array.count)
          grouped.remove(at: at)
          array.remove(at: at)
        default:
          next += 1
          grouped.append(Box(next))
          array.append(grouped[grouped.count - 1])
        }
        XCTAssertEqual(grouped.map(\.value), array.map(\.value), "seed \(seed) step \(step)")
        for (copy, values) in copies {
          XCTAssertEqual(copy.map(\.value), values, "seed \(seed) step \(step): an older copy changed")
        }
      }
    }
  }

  func testAnElementIsUniqueOnlyWhenNoCopyHoldsIt() {
    var grouped = GroupedReferences((0..<20).map(Box.init))
    XCTAssertTrue(grouped.isUniquelyReferenced(9))
    let copy = grouped
    XCTAssertFalse(grouped.isUniquelyReferenced(9), "a copy holds it")
    XCTAssertFalse(grouped.isUniquelyReferenced(0))
    grouped[9] = Box(99)
    XCTAssertTrue(grouped.isUniquelyReferenced(9), "replaced: this array alone holds the new one")
    XCTAssertEqual(copy[9].value, 9)
    XCTAssertTrue(copy.sharesGroup(at: 0, with: copy, at: 0))
    var other = copy
    XCTAssertTrue(other.sharesGroup(at: 0, with: copy, at: 0))
    other[1] = Box(1)
    XCTAssertFalse(other.sharesGroup(at: 0, with: copy, at: 0), "written: its group was copied")
  }
}
