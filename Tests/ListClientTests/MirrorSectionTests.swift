// Mirror and WindowedMirror hold one section type, decoded by one decoder: kind and headerMode cannot drift.
import JSON
import ListClient
import ListModel
import ListProtocol
import XCTest

final class MirrorSectionTests: XCTestCase {
  /// The daemon's encodings of one list and one change, for a full and a windowed subscriber.
  private struct Wire {
    var old = ListSnapshot(selectionMode: .multiple)
    var new = ListSnapshot(selectionMode: .multiple)

    func didChange(_ rows: ChangesetEncoding.Rows) -> JSONValue {
      [
        "list": "l", "version": 1, "previousVersion": 0,
        "changeset": ChangesetEncoding.changeset(diff(old, new), rows: rows),
      ]
    }

    func windowedEntry(_ window: RowWindow) -> JSONValue {
      var object: JSONObject = ["list": "l", "version": 0]
      WindowEncoding.appendWindowed(old, window: window, to: &object)
      return .object(object)
    }
  }

  private func wire() throws -> Wire {
    var wire = Wire()
    try wire.old.appendSections([SectionSpec("a", header: "A"), SectionSpec("b", footer: "B", kind: "plain")])
    try wire.old.appendItems(
      (0..<5).map { ListItem("a\($0)", payload: ItemPayload(text: "a \($0)")) }, toSection: "a")
    try wire.old.appendItems(
      (0..<5).map { ListItem("b\($0)", payload: ItemPayload(text: "b \($0)")) }, toSection: "b")
    wire.new = wire.old
    try wire.new.insertSections([SectionSpec("c", header: "C", kind: "card", headerMode: .none)], after: "a")
    try wire.new.appendItems([ListItem("c0", payload: ItemPayload(text: "c 0"))], toSection: "c")
    try wire.new.updateSectionStyle("a", kind: "grid", headerMode: .firstItemInSection)
    try wire.new.updateSectionStyle("b", kind: .some(nil), headerMode: nil)
    try wire.new.deleteItems(["a1", "b3"])
    return wire
  }

  /// A full mirror and windowed mirrors (unbounded and small windows) of the same change hold
  /// equal section descriptions — kind and header mode included — and the full mirror's
  /// snapshot equals the daemon's encoding of the new content.
  func testFullAndWindowedMirrorsHoldTheSameSections() throws {
    let wire = try wire()
    var full = try Mirror(list: "l", version: 0, snapshot: RowEncoding.snapshot(wire.old))
    try full.apply(didChange: wire.didChange(.all))
    XCTAssertEqual(full.snapshot, RowEncoding.snapshot(wire.new))
    let expected = [
      WireSection(id: "a", header: "A", kind: "grid", headerMode: "firstItemInSection"),
      WireSection(id: "c", header: "C", kind: "card", headerMode: "none"),
      WireSection(id: "b", footer: "B"),
    ]
    XCTAssertEqual(full.sections.map(\.info), expected)
    for window in [RowWindow(offset: 0, limit: 1_000), RowWindow(offset: 2, limit: 3)] {
      var windowed = try WindowedMirror(subscribed: wire.windowedEntry(window), limit: window.limit)
      try windowed.apply(didChange: wire.didChange(.window(window, old: wire.old, new: wire.new)))
      XCTAssertEqual(windowed.sections.map(\.info), expected, "window \(window)")
      XCTAssertEqual(windowed.sections.map(\.count), full.sections.map(\.rows.count), "window \(window)")
    }
  }

  /// A full mirror refuses a lean or windowed changeset (rows it cannot know) instead of
  /// guessing, and is left unchanged.
  func testAFullMirrorRefusesCountedRows() throws {
    let wire = try wire()
    var full = try Mirror(list: "l", version: 0, snapshot: RowEncoding.snapshot(wire.old))
    let before = full
    XCTAssertThrowsError(try full.apply(didChange: wire.didChange(.none)))
    XCTAssertEqual(full, before)
  }
}
