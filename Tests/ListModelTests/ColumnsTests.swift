// Columns, cells and kinds in the model: the cells rule, kind changes as reloads, and their causes.
import XCTest

@testable import ListModel

final class ColumnsTests: XCTestCase {
  let size = ListColumn(id: "size", title: "Size", alignment: .trailing)

  func table() throws -> ListSnapshot {
    var snapshot = ListSnapshot()
    try snapshot.setColumns([size])
    try snapshot.appendSections([SectionSpec("s", kind: "files")])
    try snapshot.appendItems(
      [
        ListItem("a", payload: ItemPayload(cells: ["size": .number(1)], kind: "file")),
        ListItem("b", payload: ItemPayload(cells: ["size": .null], kind: "folder")),
      ], toSection: "s")
    return snapshot
  }

  func testKindChangeIsAReloadEvenWhenAReconfigureWasAsked() throws {
    let old = try table()
    var new = old
    try new.apply([
      .setPayload(item: "a", payload: ItemPayload(cells: ["size": .number(2)], kind: "image")),
      .reconfigureItems(["a"]),
      .setPayload(item: "b", payload: ItemPayload(cells: ["size": .number(3)], kind: "folder")),
    ])
    let changes = diff(old, new)
    XCTAssertEqual(changes.itemReloads.map(\.range), [0..<1])
    XCTAssertEqual(changes.itemReconfigures.map(\.range), [1..<2])
    XCTAssertEqual(try apply(changes, to: old.rows), new.rows)
    let causes = ListSnapshot.explain(changes, from: old, to: new, edits: nil)
    let reload = try XCTUnwrap(causes.first { $0.change == .itemReloads })
    XCTAssertEqual(reload.reason, .changed)
    XCTAssertEqual(reload.fields.map(\.field), [.cells, .kind])
  }

  func testCellsMustNameAColumn() throws {
    var snapshot = try table()
    XCTAssertThrowsError(
      try snapshot.apply([
        .appendItems([ListItem("c", payload: ItemPayload(cells: ["date": .bool(true)]))], section: "s")
      ])
    ) { error in
      XCTAssertEqual((error as? ListModelError)?.kind, .unknownColumn("c", "date"))
    }
    XCTAssertThrowsError(try snapshot.setColumns([])) { error in
      XCTAssertEqual((error as? ListModelError)?.kind, .unknownColumn("a", "size"))
    }
    XCTAssertThrowsError(try snapshot.setColumns([size, size])) { error in
      XCTAssertEqual((error as? ListModelError)?.kind, .duplicateColumn("size"))
    }
    XCTAssertEqual(snapshot, try table())
    let old = snapshot
    try snapshot.apply([
      .setPayload(item: "a", payload: ItemPayload()), .setPayload(item: "b", payload: ItemPayload()),
      .setColumns([]),
    ])
    let changes = diff(old, snapshot)
    XCTAssertEqual(changes.columns, [])
    XCTAssertEqual(try apply(changes, to: old.rows).columns, [])
  }

  func testSectionKindAndHeaderModeAreSectionReloads() throws {
    let old = try table()
    var new = old
    try new.apply([.updateSectionStyle("s", kind: .some(nil), headerMode: .firstItemInSection)])
    let changes = diff(old, new)
    XCTAssertEqual(
      changes.sectionReloads,
      [.init(index: 0, id: "s", header: nil, footer: nil, kind: nil, headerMode: .firstItemInSection)])
    XCTAssertEqual(try apply(changes, to: old.rows), new.rows)
    XCTAssertEqual(ListSnapshot.editScript(from: old, to: new)?.count, 1)
  }
}
