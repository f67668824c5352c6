// Shared test helpers: a seeded random generator and small snapshot builders.
import XCTest

@testable import ListModel

/// SplitMix64: a tiny, fast, seedable generator, so every random case can be replayed by seed.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
  mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }
  mutating func pick<T>(_ values: [T]) -> T? { values.isEmpty ? nil : values[int(0..<values.count)] }
}

/// A snapshot with the given sections, each holding flat items.
func makeSnapshot(_ sections: [(String, [String])], mode: SelectionMode = .multiple) -> ListSnapshot {
  var snapshot = ListSnapshot(selectionMode: mode)
  for (section, items) in sections {
    try! snapshot.appendSections([section])
    try! snapshot.appendItems(items, toSection: section)
  }
  return snapshot
}

/// Asserts the snapshot's storage is consistent.
func assertConsistent(_ snapshot: ListSnapshot, file: StaticString = #filePath, line: UInt = #line) {
  if let broken = snapshot.brokenInvariant() {
    XCTFail("broken invariant: \(broken)\n\(snapshot)", file: file, line: line)
  }
}

/// Asserts the mirror property for a pair of snapshots and returns the changeset.
@discardableResult
func assertMirror(
  _ old: ListSnapshot, _ new: ListSnapshot, file: StaticString = #filePath, line: UInt = #line
) -> Changeset {
  let changes = diff(old, new)
  do {
    let mirrored = try apply(changes, to: old.rows)
    if mirrored != new.rows {
      XCTFail("mirror mismatch\nold:\n\(old)\nnew:\n\(new)\nchanges: \(changes)", file: file, line: line)
    }
  } catch {
    XCTFail("apply failed: \(error)\nold:\n\(old)\nnew:\n\(new)\nchanges: \(changes)", file: file, line: line)
  }
  return changes
}

/// Runs `body`, expecting it to throw `expected`; returns nothing.
func assertThrows(
  _ expected: ListModelError.Kind, file: StaticString = #filePath, line: UInt = #line,
  _ body: () throws(ListModelError) -> Void
) {
  do throws(ListModelError) {
    try body()
    XCTFail("expected \(expected), nothing thrown", file: file, line: line)
  } catch {
    XCTAssertEqual(error.kind, expected, file: file, line: line)
  }
}
