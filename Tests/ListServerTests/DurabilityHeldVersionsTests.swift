// The journal's bookkeeping of the versions each file holds, and the test hook's generation lists.
import XCTest

@testable import ListServer

final class DurabilityHeldVersionsTests: XCTestCase {
  /// A version is kept from a base before it with every version between: damage that cost a
  /// record leaves a gap up to the next base (the next checkpoint's state).
  func testReachableVersionsStartAtABaseAndStopAtAGap() {
    var checkpoint2 = HeldVersions()
    checkpoint2.insert(5, base: true)
    var journal2 = HeldVersions()
    for version in [6, 7, 9, 10, 11] { journal2.insert(version, base: false) }  // 8 is damaged
    var checkpoint3 = HeldVersions()
    checkpoint3.insert(11, base: true)
    var journal3 = HeldVersions()
    for version in 12...20 { journal3.insert(version, base: false) }
    XCTAssertEqual(journal2.runs, [6...7, 9...11])
    XCTAssertEqual(HeldVersions.reachable([checkpoint2, journal2, checkpoint3, journal3]), [5...7, 11...20])
    // Without a base the versions cannot be rebuilt (a failed checkpoint's journal needs the
    // checkpoint before it).
    XCTAssertEqual(HeldVersions.reachable([journal3]), [])
    XCTAssertEqual(HeldVersions.reachable([checkpoint2, journal2]), [5...7])
    // Out of order notes merge.
    var held = HeldVersions()
    for version in [3, 1, 2, 7, 5, 6] { held.insert(version, base: version == 1) }
    XCTAssertEqual(held.runs, [1...3, 5...7])
    XCTAssertEqual(held.bases, [1])
  }

  func testTheTestHookParsesGenerations() {
    XCTAssertEqual(Journal.parseGenerations("3"), [3...3])
    XCTAssertEqual(Journal.parseGenerations("3-5, 9"), [3...5, 9...9])
    XCTAssertEqual(Journal.parseGenerations("4-"), [4...Int.max])
    XCTAssertEqual(Journal.parseGenerations("x,5-2,"), [])
  }
}
