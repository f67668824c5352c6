// The changeset map against the real model: counts, row positions and neighbours, on random edits.
import JSON
import ListModel
import ListTUI
import XCTest

final class ChangesetMapPropertyTests: XCTestCase {
  /// For thousands of random edits diffed by the model and encoded as the daemon does, the map
  /// of the old layout must give exactly the new section ids, headers, footers, kinds, header
  /// modes and counts;
  /// every surviving old row must map to where its id now is; a gone row must land on the
  /// nearest survivor (the next old row still present, else the previous one); and the rows
  /// the changeset carries must be where the map says. `LISTD_TUI_SEED=n` replays a run.
  func testMapMatchesTheModelOnRandomEdits() throws {
    let seed = RandomLists.seed(for: "ChangesetMapPropertyTests")
    var lists = RandomLists(seed: seed)
    var cases = 0
    for _ in 0..<1000 {
      var fixture = ModelFixture(try lists.snapshot())
      for _ in 0..<10 {
        let old = ListLayout(sectionsAnswer: fixture.sectionsAnswer)!
        let oldIDs = fixture.rowIDs
        let change = try fixture.change { lists.edit(&$0) }
        let newIDs = fixture.rowIDs
        let map: ChangesetMap
        do {
          map = try ChangesetMap(old: old, changeset: change["changeset"]!)
        } catch {
          return XCTFail("seed \(seed): \(error) for \(change)")
        }
        XCTAssertEqual(map.new, ListLayout(sectionsAnswer: fixture.sectionsAnswer), "seed \(seed): \(change)")
        XCTAssertEqual(
          map.new.sections.map(SectionStyle.init), SectionStyle.of(fixture.snapshot),
          "seed \(seed): \(change)")
        let newIndex = Dictionary(uniqueKeysWithValues: newIDs.enumerated().map { ($1, $0) })
        for (index, id) in oldIDs.enumerated() {
          let expected: Int? =
            newIndex[id]
            ?? oldIDs[(index + 1)...].lazy.compactMap { newIndex[$0] }.first
            ?? oldIDs[..<index].reversed().lazy.compactMap { newIndex[$0] }.first
          let landing = map.landing(forOld: index) { oldIDs.indices.contains($0) ? oldIDs[$0] : nil }
          guard landing == expected else {
            return XCTFail(
              "seed \(seed): old row \(index) '\(id)' landed on \(String(describing: landing)), "
                + "expected \(String(describing: expected)); old \(oldIDs) new \(newIDs) changeset \(change)")
          }
          XCTAssertEqual(map.newRow(ofOld: index) ?? map.arrivedRow(ofItem: id), newIndex[id], "seed \(seed)")
        }
        for (row, json) in map.arrivedRows {
          XCTAssertEqual(newIDs[row], json["id"]?.stringValue, "seed \(seed)")
        }
        for (row, json) in map.updatedRows {
          XCTAssertEqual(oldIDs[row], json["id"]?.stringValue, "seed \(seed)")
        }
        cases += 1
      }
    }
    XCTAssertEqual(cases, 10_000)
  }
}
