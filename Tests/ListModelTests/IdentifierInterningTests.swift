// Interning ids by a keyed hash of their bytes: crafted collisions cost nothing extra, known ids are never re-stored.
import XCTest

@testable import ListModel

final class IdentifierInterningTests: XCTestCase {
  /// 32-byte ids whose first 8 bytes cancel the fixed key's first secret: under the unkeyed
  /// variant (``IdentifierHashKey/fixed``) the first block's product is 0, so every id hashes
  /// the same whatever its varying bytes 8–15.
  func collidingIDs(_ count: Int) -> [String] {
    (0..<count).map { index in
      let digits = String(index)
      return "01234567" + String(repeating: "0", count: 8 - digits.count) + digits + "-same-tail-bytes"
    }
  }

  /// The crafted ids really collide under the unkeyed variant: every one hashes alike.
  func testCraftedIDsCollideUnderTheUnkeyedHash() {
    let hashes = Set(
      collidingIDs(1_000).map { id in withUTF8(id) { IdentifierHash.hash($0, key: .fixed) } })
    XCTAssertEqual(hashes.count, 1)
  }

  /// 100,000 crafted ids intern in linear time with the process's key: the slots visited stay
  /// under 3 per id (load ≤ 1/2), where the unkeyed variant visits about n²/2 (shown on 2,000
  /// ids, which already take 1,000 probes an id there). Counts probes, not time.
  func testCollidingIDsInternInLinearTime() {
    let ids = collidingIDs(100_000)
    let keyed = IdentifierTable()
    let interned = keyed.intern(ids)
    XCTAssertEqual(interned, (0..<Int32(100_000)).map { $0 })
    XCTAssertLessThan(keyed.probeCount, 3 * ids.count, "keyed probes")
    // Looking every id up again finds the same integers, still in linear probes.
    let before = keyed.probeCount
    for (index, id) in ids.enumerated() where index % 10 == 0 {
      XCTAssertEqual(keyed.lookup(id), Int32(index))
    }
    XCTAssertLessThan(keyed.probeCount - before, 3 * ids.count / 10, "keyed lookups")

    let few = Array(ids.prefix(2_000))
    let unkeyed = IdentifierTable(key: .fixed)
    _ = unkeyed.intern(few)
    XCTAssertGreaterThan(
      unkeyed.probeCount, few.count * few.count / 4, "the unkeyed variant should be quadratic")
  }

  /// An id already known is found, not stored again; ids are compared by bytes ("é" and
  /// "e\u{301}" are distinct ids, as they are distinct JSON keys).
  func testKnownIDsAreNotStoredAgain() {
    let table = IdentifierTable()
    let a = table.intern("alpha")
    XCTAssertEqual(table.intern("alpha"), a)
    let bytes = Array("alpha".utf8)
    XCTAssertEqual(bytes.withUnsafeBytes { table.intern(bytes: $0) }, a)
    XCTAssertEqual(table.count, 1)
    let composed = table.intern("\u{E9}")
    let decomposed = table.intern("e\u{301}")
    XCTAssertNotEqual(composed, decomposed)
    XCTAssertEqual(table.count, 3)
    XCTAssertEqual(table.lookup("e\u{301}"), decomposed)
    XCTAssertNil(table.lookup("beta"))
    // Ids of every length the hash reads differently (0–3, 4–16, 17–48, beyond 48 bytes).
    let lengths = [0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 49, 95, 96, 97, 200]
    let strings =
      lengths.map { String(repeating: "x", count: $0) }
      + lengths.map { String(repeating: "y", count: $0) + "z" }
    let first = table.intern(strings)
    XCTAssertEqual(table.intern(strings), first)
    XCTAssertEqual(Set(first).count, Set(strings).count)
  }
}
