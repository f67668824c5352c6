// Edit scripts on 5,000 seeded random histories: the batch makes the target, with the changeset diff gives.
import Foundation
import SeededRandom
import XCTest

@testable import ListModel

final class EditScriptPropertyTests: XCTestCase {
  static let caseCount = 5_000

  /// For each case: a random list `a` and `b`, a few random edits later (reloads and
  /// reconfigures included). `editScript(a, b)` applied to `a` as one batch gives `b` with the
  /// changeset `diff(a, b)`; so does the script back from `b` to `a`; so does the script applied
  /// to a copy of `a` rebuilt from its content (no reload marks: what a replay starts from); and
  /// a script across id tables agrees with the diff across them.
  ///
  /// `LISTD_EDITSCRIPT_SEED=n` runs seed n alone.
  func testTheScriptMakesTheTargetWithTheDiffsChangeset() {
    let seeds = PropertySeeds.seeds("LISTD_EDITSCRIPT_SEED", default: 0..<UInt64(Self.caseCount))
    var failures = 0
    var scripted = 0
    for seed in seeds where failures < 3 {
      switch runCase(seed: seed) {
      case .some(true): scripted += 1
      case .some(false): failures += 1
      case .none: continue
      }
    }
    if seeds.count > 1 {
      XCTAssertGreaterThan(scripted, seeds.count * 3 / 4, "most cases keep their selection mode")
    }
  }

  /// One case; nil when the two snapshots differ in selection mode (no script, checked).
  func runCase(seed: UInt64) -> Bool? {
    var generator = RandomEdits(seed: seed)
    let a = generator.list()
    var b = a
    for _ in 0..<generator.random.int(1..<12) {
      let edit = generator.edit(b)
      try? b.apply(edit)
    }
    guard a.selectionMode == b.selectionMode else {
      if ListSnapshot.editScript(from: a, to: b) != nil {
        return fail(seed, "a script across selection modes", a, b)
      }
      return nil
    }
    if let problem = check(from: a, to: b) { return fail(seed, "forward: \(problem)", a, b) }
    if let problem = check(from: b, to: a) { return fail(seed, "backward: \(problem)", a, b) }
    // A replay starts from the content alone: no reload marks. The script still makes the
    // changeset the history recorded.
    let fresh = rebuilt(a)
    if fresh != a { return fail(seed, "rebuilding the content changed it", a, b) }
    if let problem = check(from: a, to: b, applyingTo: fresh) {
      return fail(seed, "from the content: \(problem)", a, b)
    }
    if seed % 10 == 0 {
      let other = b.rebased(onto: IdentifierTable())
      if let problem = check(from: a, to: other) { return fail(seed, "across id tables: \(problem)", a, b) }
    }
    return true
  }

  /// What is wrong with `editScript(old, new)` applied (as one batch) to `base` (default `old`),
  /// or nil: it must give `new`, with the changeset `diff(old, new)`, and the same script again
  /// must change nothing more than the reloads it asks for.
  func check(from old: ListSnapshot, to new: ListSnapshot, applyingTo base: ListSnapshot? = nil) -> String? {
    guard let script = ListSnapshot.editScript(from: old, to: new) else { return "no script" }
    var result = base ?? old
    let changeset: Changeset
    do throws(ListModelError) {
      changeset = try result.applyAndDiff(script.flatMap(\.edits))
    } catch {
      return "the script fails: \(error.message)\nscript: \(script)"
    }
    if result != new { return "the script makes\n\(result)\nscript: \(script)" }
    let expected = diff(old, new)
    if changeset != expected {
      return "changeset \(changeset)\nexpected \(expected)\nscript: \(script)"
    }
    if old == new && !script.allSatisfy(Self.isReload) { return "equal snapshots, yet \(script)" }
    return nil
  }

  static func isReload(_ edit: ScriptEdit) -> Bool {
    switch edit {
    case .reloadItems, .reconfigureItems, .reloadSections: return true
    default: return false
    }
  }

  /// `snapshot` built again from its content through the public API: sections, trees,
  /// expansion, selection — no reload marks, a fresh id table.
  func rebuilt(_ snapshot: ListSnapshot) -> ListSnapshot {
    var copy = ListSnapshot(selectionMode: snapshot.selectionMode)
    try! copy.setColumns(snapshot.columns)
    copy.setEmptyState(snapshot.emptyState)
    copy.setEditing(snapshot.isEditing)
    func tree(_ id: String) -> OutlineNode {
      OutlineNode(
        ListItem(id, payload: snapshot.payload(of: id)!), children: snapshot.children(of: id).map(tree),
        isExpanded: snapshot.isExpanded(id))
    }
    for section in snapshot.sectionIdentifiers {
      try! copy.appendSections([
        SectionSpec(
          section, header: snapshot.header(ofSection: section), footer: snapshot.footer(ofSection: section),
          kind: snapshot.kind(ofSection: section), headerMode: snapshot.headerMode(ofSection: section))
      ])
      try! copy.appendTrees(snapshot.rootItems(inSection: section).map(tree), toSection: section)
    }
    if !snapshot.selectedItems.isEmpty { try! copy.select(snapshot.selectedItems) }
    return copy
  }

  func fail(_ seed: UInt64, _ what: String, _ a: ListSnapshot, _ b: ListSnapshot) -> Bool {
    XCTFail("seed \(seed): \(what)\na:\n\(a)\nb:\n\(b)")
    return false
  }

  /// Hand-picked cases: the script names only what changed.
  func testTheScriptNamesOnlyWhatChanged() throws {
    let a = makeSnapshot([("s", ["a", "b", "c", "d"]), ("t", ["e"])])
    var b = a
    try b.moveItem("a", after: "d")
    XCTAssertEqual(ListSnapshot.editScript(from: a, to: b), [.moveItem("a", .sibling(.after("d")))])
    XCTAssertEqual(ListSnapshot.editScript(from: a, to: a), [])

    var c = a
    try c.setPayload(ItemPayload(text: "E"), forItem: "e")
    try c.insertItems([ListItem("x", payload: ItemPayload(text: "X"))], after: "b")
    try c.reloadItems(["c"])
    try c.moveSection("t", before: "s")
    XCTAssertEqual(
      ListSnapshot.editScript(from: a, to: c),
      [
        .moveSection("s", .after("t")),
        .insertItems([OutlineNode(ListItem("x", payload: ItemPayload(text: "X")))], .after("b")),
        .updateItems([ListItem("e", payload: ItemPayload(text: "E"))]),
        .reloadItems(["c"]),
      ])

    var d = a
    try d.deleteItems(["b", "c"])
    try d.select(["a"])
    XCTAssertEqual(ListSnapshot.editScript(from: a, to: d), [.deleteItems(["b", "c"]), .select(["a"])])
    XCTAssertEqual(
      ListSnapshot.editScript(from: d, to: a),
      [
        .insertItems([OutlineNode(ListItem("b")), OutlineNode(ListItem("c"))], .after("a")),
        .deselect(["a"]),
      ])
  }
}
