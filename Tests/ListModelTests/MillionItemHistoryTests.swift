// The mirror property over a seeded history of single-item edits of a 1,000,000-item list, every version kept.
import SeededRandom
import XCTest

@testable import ListModel

final class MillionItemHistoryTests: XCTestCase {
  static let itemCount = 1_000_000
  static let steps = 200

  /// Each step applies one random single-item edit (append, insert, delete, move within and
  /// across sections, payload update, reload, reconfigure) or a batch of two or three, and a
  /// client mirror applies its changeset. Every 100 steps the mirror is compared with the rows;
  /// at the end every kept version still shows what it showed when it was made (versions share
  /// storage), and the diff between the first and the last version mirrors too.
  func testSingleItemEditsOfAMillionItemListMirrorExactlyAndOldVersionsStayIntact() throws {
    let seed = PropertySeeds.seed("LISTD_MILLION_HISTORY_SEED", default: 14)
    var random = SplitMix64(seed: seed)
    var snapshot = ListSnapshot()
    try snapshot.appendSections(["big", "small"])
    var present = (0..<Self.itemCount).map { "i\($0)" }
    try snapshot.appendItems(present.map { ListItem($0, payload: ItemPayload(text: $0)) }, toSection: "big")
    let small = (0..<10).map { "s\($0)" }
    try snapshot.appendItems(small.map { ListItem($0) }, toSection: "small")
    present += small
    var indexOf = [String: Int](minimumCapacity: present.count)
    for (index, id) in present.enumerated() { indexOf[id] = index }
    let first = snapshot
    let firstRows = first.rows
    var mirror = firstRows
    var kept: [(ListSnapshot, RowList)] = []
    var versions: [ListSnapshot] = [first]
    var nextID = 0
    func randomItem() -> String { present[random.int(0..<present.count)] }
    func edit() -> ListEdit {
      switch random.int(0..<9) {
      case 0:
        nextID += 1
        return .appendItems([ListItem("n\(nextID)")], section: random.chance(percent: 80) ? "big" : "small")
      case 1:
        nextID += 1
        return .insertItemsBefore([ListItem("n\(nextID)")], item: randomItem())
      case 2:
        nextID += 1
        return .insertItemsAfter([ListItem("n\(nextID)")], item: randomItem())
      case 3: return .deleteItems([randomItem()])
      case 4: return .moveItemBefore(randomItem(), item: randomItem())
      case 5: return .moveItemAfter(randomItem(), item: randomItem())
      case 6: return .reloadItems([randomItem()])
      case 7: return .reconfigureItems([randomItem()])
      default: return .setPayload(item: randomItem(), payload: ItemPayload(text: "v\(random.int(0..<5))"))
      }
    }
    for step in 0..<Self.steps {
      let batch = (0..<(random.chance(percent: 15) ? random.int(2..<4) : 1)).map { _ in edit() }
      let before = snapshot
      let changes: Changeset
      do {
        changes = try snapshot.applyAndDiff(batch)
      } catch {
        // Moving an item relative to itself: refused, and nothing changed.
        XCTAssertTrue(
          snapshot.isIdentical(to: before), "seed \(seed) step \(step): a failed batch changed the list")
        continue
      }
      for edit in batch {
        switch edit {
        case .appendItems(let items, _), .insertItemsBefore(let items, _), .insertItemsAfter(let items, _):
          for item in items {
            indexOf[item.id] = present.count
            present.append(item.id)
          }
        case .deleteItems(let ids):
          for id in ids {
            guard let at = indexOf.removeValue(forKey: id) else { continue }
            let last = present.removeLast()
            if at < present.count {
              present[at] = last
              indexOf[last] = at
            }
          }
        default: break
        }
      }
      mirror = try apply(changes, to: mirror)
      versions.append(snapshot)
      if step % 100 == 99 {
        XCTAssertEqual(mirror, snapshot.rows, "seed \(seed) step \(step): the mirror differs")
        kept.append((snapshot, mirror))
      }
    }
    XCTAssertNil(snapshot.brokenInvariant(), "seed \(seed)")
    XCTAssertEqual(mirror, snapshot.rows, "seed \(seed): the mirror differs at the end")
    XCTAssertEqual(first.rows, firstRows, "seed \(seed): the first version changed")
    for (version, rows) in kept { XCTAssertEqual(version.rows, rows, "seed \(seed): a kept version changed") }
    XCTAssertEqual(
      try apply(diff(first, snapshot), to: firstRows), snapshot.rows, "seed \(seed): first → last")
    XCTAssertGreaterThan(versions.count, Self.steps / 2)
  }
}
