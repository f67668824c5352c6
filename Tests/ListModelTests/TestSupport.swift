// Shared test helpers: a seeded random generator and small snapshot builders.
import SeededRandom
import XCTest

@testable import ListModel

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
