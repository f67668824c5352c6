// NodeChunks against a plain array over seeded random inserts and removals: same nodes, and every node an edit reports unmoved keeps its chunk and offset.
import SeededRandom
import XCTest

@testable import ListModel

final class NodeChunksTests: XCTestCase {
  func node(_ id: Int32) -> Node {
    Node(id: id, level: 0, parent: -1, isExpanded: false, payload: ItemPayload())
  }

  /// Each node's (serial, offset), by id.
  func placements(_ chunks: NodeChunks) -> [Int32: (Int32, Int32)] {
    var result: [Int32: (Int32, Int32)] = [:]
    chunks.forEachPlacement(in: 0..<chunks.count) { serial, offset, id in result[id] = (serial, offset)
    }
    return result
  }

  func testRandomInsertsAndRemovalsKeepContentsAndReportEveryMovedNode() {
    for seed in PropertySeeds.seeds("LISTD_NODE_CHUNKS_SEED", default: 0..<400) {
      var random = SplitMix64(seed: seed)
      var chunks = NodeChunks()
      var array: [Node] = []
      var nextID: Int32 = 0
      for step in 0..<120 {
        let before = placements(chunks)
        let copy = chunks  // an older version sharing chunks must not change
        let copyArray = array
        var changed: Range<Int>
        if array.isEmpty || random.chance(percent: 55) {
          let block = (0..<random.int(1..<(random.chance(percent: 20) ? 40 : 4))).map { _ -> Node in
            nextID += 1
            return node(nextID)
          }
          let at = random.int(0..<(array.count + 1))
          changed = chunks.insert(contentsOf: block, at: at)
          array.insert(contentsOf: block, at: at)
          XCTAssertTrue(
            changed.contains(at) && changed.upperBound >= at + block.count, "seed \(seed) step \(step)")
        } else {
          let at = random.int(0..<array.count)
          let count = random.int(1..<(Swift.min(array.count - at, 30) + 1))
          let (removed, moved) = chunks.remove(at..<(at + count))
          XCTAssertEqual(removed.map(\.id), array[at..<(at + count)].map(\.id), "seed \(seed) step \(step)")
          array.removeSubrange(at..<(at + count))
          changed = moved
        }
        XCTAssertEqual(chunks.map(\.id), array.map(\.id), "seed \(seed) step \(step)")
        XCTAssertEqual(
          copy.map(\.id), copyArray.map(\.id), "seed \(seed) step \(step): a shared version changed")
        for position in array.indices where !changed.contains(position) {
          let id = array[position].id
          guard let old = before[id] else { continue }
          let (serial, offset) = chunks.placement(of: position)
          if old != (serial, offset) {
            XCTFail("seed \(seed) step \(step): node \(id) at \(position) moved chunk outside \(changed)")
            return
          }
        }
        for position in array.indices {
          let (serial, offset) = chunks.placement(of: position)
          XCTAssertEqual(
            chunks.position(serial: serial, offset: offset), position, "seed \(seed) step \(step)")
        }
      }
    }
  }

  func testCommonPrefixAndSuffixSkipSharedChunksAndAgreeWithAPlainComparison() {
    for seed in UInt64(0)..<300 {
      var random = SplitMix64(seed: seed)
      var a = NodeChunks((0..<Int32(random.int(0..<200))).map(node))
      var b = a
      for _ in 0..<random.int(0..<4) where !b.isEmpty {
        let at = random.int(0..<b.count)
        if random.chance(percent: 50) {
          b.insert(contentsOf: [node(10_000 + Int32(at))], at: at)
        } else {
          _ = b.remove(at..<(at + 1))
        }
      }
      if random.chance(percent: 20) { swap(&a, &b) }
      let same: (UnsafePointer<Node>, UnsafePointer<Node>) -> Bool = { $0.pointee.id == $1.pointee.id }
      let shorter = Swift.min(a.count, b.count)
      let prefix = a.commonPrefix(with: b, limit: shorter, same)
      let suffix = a.commonSuffix(with: b, limit: shorter - prefix, same)
      let x = a.map(\.id)
      let y = b.map(\.id)
      var expectedPrefix = 0
      while expectedPrefix < shorter, x[expectedPrefix] == y[expectedPrefix] { expectedPrefix += 1 }
      var expectedSuffix = 0
      while expectedSuffix < shorter - expectedPrefix,
        x[x.count - 1 - expectedSuffix] == y[y.count - 1 - expectedSuffix]
      {
        expectedSuffix += 1
      }
      XCTAssertEqual(prefix, expectedPrefix, "seed \(seed)")
      XCTAssertEqual(suffix, expectedSuffix, "seed \(seed)")
      // From (before) any pair of positions.
      let (from, otherFrom) = (random.int(0..<(x.count + 1)), random.int(0..<(y.count + 1)))
      let most = Swift.min(x.count - from, y.count - otherFrom)
      var expected = 0
      while expected < most, x[from + expected] == y[otherFrom + expected] { expected += 1 }
      XCTAssertEqual(
        a.commonPrefix(with: b, from: from, otherFrom, limit: most, same), expected, "seed \(seed)")
      let (end, otherEnd) = (random.int(0..<(x.count + 1)), random.int(0..<(y.count + 1)))
      let fewest = Swift.min(end, otherEnd)
      expected = 0
      while expected < fewest, x[end - 1 - expected] == y[otherEnd - 1 - expected] { expected += 1 }
      XCTAssertEqual(
        a.commonSuffix(with: b, before: end, otherEnd, limit: fewest, same), expected, "seed \(seed)")
    }
  }
}

extension NodeChunksTests {
  /// What a million items cost per item starts with these sizes.
  func testANodeIsAtMost40Bytes() {
    XCTAssertLessThanOrEqual(MemoryLayout<Node>.stride, 40)
    XCTAssertEqual(MemoryLayout<ItemPayload>.size, 8)
    XCTAssertEqual(MemoryLayout<StoredLocation>.stride, 12)
  }
}
