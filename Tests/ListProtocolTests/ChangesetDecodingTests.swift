// The one Swift changeset decoder: the daemon's full, lean and windowed encodings decode to the same entries.
import JSON
import ListModel
import ListProtocol
import XCTest

final class ChangesetDecodingTests: XCTestCase {
  /// A list of two sections, then a change that inserts a styled section, restyles one and
  /// moves, deletes, inserts and reloads rows.
  private func change() throws -> (old: ListSnapshot, new: ListSnapshot) {
    var old = ListSnapshot(selectionMode: .multiple)
    try old.appendSections([SectionSpec("a", header: "A"), SectionSpec("b", footer: "B")])
    try old.appendItems(
      (0..<6).map { ListItem("a\($0)", payload: ItemPayload(text: "a \($0)")) }, toSection: "a")
    try old.appendItems(
      (0..<4).map { ListItem("b\($0)", payload: ItemPayload(text: "b \($0)")) }, toSection: "b")
    var new = old
    try new.insertSections([SectionSpec("c", header: "C", kind: "card", headerMode: .none)], before: "b")
    try new.appendItems([ListItem("c0", payload: ItemPayload(text: "c 0"))], toSection: "c")
    try new.updateSectionStyle("a", kind: "grid", headerMode: .firstItemInSection)
    try new.deleteItems(["a1"])
    try new.moveItem("a4", before: "a0")
    try new.insertItems([ListItem("n", payload: ItemPayload(text: "new"))], after: "b2")
    try new.reloadItems(["b0"])
    try new.select(["a2"])
    return (old, new)
  }

  /// Every form of one changeset decodes to the same structure; the full form carries every
  /// row, the lean form none, and the section descriptions (kind and header mode too) are the
  /// same `WireSection`s in all three.
  func testFullLeanAndWindowedFormsDecodeToTheSameEntries() throws {
    let (old, new) = try change()
    let changeset = diff(old, new)
    let full = try WireChangeset(ChangesetEncoding.changeset(changeset, rows: .all))
    let lean = try WireChangeset(ChangesetEncoding.changeset(changeset, rows: .none))
    let windowed = try WireChangeset(
      ChangesetEncoding.changeset(
        changeset, rows: .window(RowWindow(offset: 0, limit: 3), old: old, new: new)))
    for decoded in [full, lean, windowed] {
      XCTAssertEqual(
        decoded.sectionInserts.map(\.section),
        [WireSection(id: "c", header: "C", kind: "card", headerMode: "none")])
      XCTAssertEqual(decoded.sectionInserts.map(\.count), [1])
      XCTAssertEqual(
        decoded.sectionReloads.map(\.section),
        [WireSection(id: "a", header: "A", kind: "grid", headerMode: "firstItemInSection")])
      XCTAssertEqual(decoded.itemDeletes.map(\.rows), full.itemDeletes.map(\.rows))
      XCTAssertEqual(decoded.itemMoves.map(\.count), full.itemMoves.map(\.count))
      XCTAssertEqual(decoded.selected, ["a2"])
    }
    XCTAssertTrue(full.sectionInserts.allSatisfy(\.isFull))
    XCTAssertTrue(full.itemInserts.allSatisfy { $0.rows?.count == $0.count })
    XCTAssertTrue(lean.itemInserts.allSatisfy { $0.rows == nil })
    XCTAssertTrue(lean.itemReloads.allSatisfy { $0.rows == nil })
    XCTAssertEqual(
      full.itemInserts.map { [$0.section, $0.start, $0.count] },
      lean.itemInserts.map { [$0.section, $0.start, $0.count] })
  }

  /// Out-of-form JSON is a mismatch naming the member or value.
  func testOutOfFormChangesetsAreMismatchesNamingWhat() {
    let cases: [(JSONValue, String)] = [
      (["sectionDeletes": [[0, 1]], "surprise": true], "unknown changeset member 'surprise'"),
      (["itemDeletes": []], "'itemDeletes' must be a non-empty array when present, got []"),
      (["itemDeletes": [[0, 1, 0]]], "empty item delete [0,1,0]"),
      (["itemInserts": [["at": [0, 0], "rows": [["text": "x"]]]]], "row without id"),
      (
        ["itemReloads": [["at": [0, 0], "rows": [["id": "x"]], "count": 1]]],
        "row run with both rows and count"
      ),
      (["sectionReloads": [["index": 0, "id": "s", "kind": 3]]], "expected a string, got 3"),
      (["selected": [1]], "expected a string, got 1"),
    ]
    for (json, expected) in cases {
      XCTAssertThrowsError(try WireChangeset(json), "\(json)") { error in
        XCTAssertTrue("\(error)".contains(expected), "\(error) does not say \(expected)")
      }
    }
  }
}
