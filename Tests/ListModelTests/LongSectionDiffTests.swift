// The mirror property on long flat sections, where a diff skips the chunks versions share: 500 seeded cases.
import SeededRandom
import XCTest

@testable import ListModel

final class LongSectionDiffTests: XCTestCase {
  /// A section of 100–700 items (many chunks: debug builds use 16-node chunks) in a list with a
  /// second section; 1–12 versions of random edits (moves near and far, inserts, deletes, runs
  /// of each, payload changes, reloads, moves across sections); the diff from the first version
  /// to every later one mirrors exactly, and so does the diff between consecutive ones.
  func testDiffsBetweenVersionsOfLongSectionsMirrorExactly() throws {
    for seed in PropertySeeds.seeds("LISTD_LONG_SECTION_SEED", default: 0..<500) {
      var random = SplitMix64(seed: seed)
      var snapshot = ListSnapshot()
      try snapshot.appendSections(["a", "b"])
      let count = random.int(100..<700)
      try snapshot.appendItems(
        (0..<count).map { ListItem("i\($0)", payload: ItemPayload(text: "\($0)")) }, toSection: "a")
      try snapshot.appendItems((0..<5).map { ListItem("b\($0)") }, toSection: "b")
      let first = snapshot
      var previous = snapshot
      var next = 0
      for version in 0..<random.int(1..<13) {
        let items = snapshot.allItems
        func any() -> String { items[random.int(0..<items.count)] }
        var edits: [ListEdit] = []
        for _ in 0..<random.int(1..<4) {
          switch random.int(0..<7) {
          case 0:
            let moving = any()
            let anchor = any()
            if moving != anchor {
              edits.append(
                random.chance(percent: 50)
                  ? .moveItemAfter(moving, item: anchor) : .moveItemBefore(moving, item: anchor))
            }
          case 1:
            let fresh = (0..<random.int(1..<40)).map { _ -> ListItem in
              next += 1
              return ListItem("n\(next)")
            }
            edits.append(.insertItemsBefore(fresh, item: any()))
          case 2: edits.append(.deleteItems(Array(Set((0..<random.int(1..<30)).map { _ in any() }))))
          case 3: edits.append(.setPayload(item: any(), payload: ItemPayload(text: "v\(random.int(0..<3))")))
          case 4: edits.append(.reloadItems([any()]))
          case 5: edits.append(.moveItemToSection(any(), section: random.chance(percent: 50) ? "a" : "b"))
          default:
            next += 1
            edits.append(.appendItems([ListItem("n\(next)")], section: "a"))
          }
        }
        guard (try? snapshot.apply(edits)) != nil else { continue }
        for (from, name) in [(previous, "previous"), (first, "first")] {
          let mirrored = try apply(diff(from, snapshot), to: from.rows)
          if mirrored != snapshot.rows {
            XCTFail(
              "seed \(seed) version \(version): the diff from the \(name) version does not mirror; edits \(edits)"
            )
            return
          }
        }
        previous = snapshot
      }
      XCTAssertNil(snapshot.brokenInvariant(), "seed \(seed)")
    }
  }
}
