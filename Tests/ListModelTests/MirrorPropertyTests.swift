// The mirror property on 20,000 seeded random cases: apply(diff(a, b), to: a.rows) == b.rows, and UIKit accepts it.
import SeededRandom
import XCTest

@testable import ListModel

final class MirrorPropertyTests: XCTestCase {
  static let caseCount = 20_000

  func testMirrorPropertyOnRandomEditBatches() {
    var failures = 0
    for seed in PropertySeeds.seeds("LISTD_MODEL_MIRROR_SEED", default: 0..<UInt64(Self.caseCount))
    where failures < 3 {
      if !runCase(seed: seed) { failures += 1 }
    }
  }

  /// One case: a random list, a random batch of edits applied one by one (failed edits must
  /// leave the snapshot identical), invariants, the mirror property, and special cases.
  /// Returns false (after recording a failure that names the seed) if anything is wrong.
  func runCase(seed: UInt64) -> Bool {
    var generator = RandomEdits(seed: seed)
    let old = generator.list()
    var new = old
    var log: [String] = []
    for _ in 0..<generator.random.int(1..<7) {
      let edit = generator.edit(new)
      let before = new
      do throws(ListModelError) {
        try new.apply(edit)
        log.append("ok   \(edit)")
      } catch {
        log.append("fail \(edit) -> \(error.message)")
        if !new.isIdentical(to: before) {
          return fail(seed, "failed edit changed the snapshot", log, old, new)
        }
      }
      if let broken = new.brokenInvariant() { return fail(seed, "invariant: \(broken)", log, old, new) }
    }
    let changes = diff(old, new)
    do {
      let mirrored = try apply(changes, to: old.rows)
      if mirrored != new.rows {
        return fail(seed, "mirror mismatch; changes: \(changes)", log, old, new)
      }
    } catch {
      return fail(seed, "apply threw \(error); changes: \(changes)", log, old, new)
    }
    if !diff(new, new).isEmpty { return fail(seed, "diff(new, new) is not empty", log, old, new) }
    // UIKit would accept it: the changeset passes the batch-update check with both sides' counts.
    let beforeCounts = old.rows.sections.map(\.rows.count)
    let afterCounts = new.rows.sections.map(\.rows.count)
    let check = checkBatchUpdate(before: beforeCounts, BatchUpdate(changes), after: afterCounts)
    if check != .valid(after: afterCounts) {
      return fail(seed, "check/batchUpdate: \(check); changes: \(changes)", log, old, new)
    }
    // Every tenth case: the same diff between independently interned snapshots agrees on rows.
    if seed % 10 == 0 {
      let rebuilt = new.rebased(onto: IdentifierTable())
      guard (try? apply(diff(old, rebuilt), to: old.rows)) == new.rows else {
        return fail(seed, "mirror mismatch across id tables", log, old, new)
      }
    }
    // The whole batch at once is atomic: replaying it with a poisoned last edit changes nothing.
    if seed % 7 == 0 {
      var replay = old
      var batch: [ListEdit] = []
      var generator2 = RandomEdits(seed: seed &+ 0x5EED)
      for _ in 0..<3 { batch.append(generator2.edit(replay)) }
      batch.append(.deleteSections(["no-such-section"]))
      do throws(ListModelError) {
        try replay.apply(batch)
        return fail(seed, "poisoned batch did not throw", log, old, new)
      } catch {
        if error.editIndex == nil || !replay.isIdentical(to: old) {
          return fail(seed, "poisoned batch changed the snapshot or lost its index", log, old, new)
        }
      }
    }
    // A single expand/collapse: the direct changeset equals the diff.
    if let target = generator.random.element(new.allItems) {
      var direct = new
      let edit: ListEdit = generator.random.chance(percent: 50) ? .expand([target]) : .collapse([target])
      guard let fast = try? direct.applyAndDiff([edit]) else {
        return fail(seed, "applyAndDiff(\(edit)) threw", log, old, new)
      }
      let slow = diff(new, direct)
      if fast != slow { return fail(seed, "direct \(edit) changeset \(fast) != diff \(slow)", log, old, new) }
      guard (try? apply(fast, to: new.rows)) == direct.rows else {
        return fail(seed, "direct \(edit) changeset does not mirror", log, old, new)
      }
    }
    // expandAll / collapseAll / expandToLevel, in one section or all: the direct changeset
    // (one walk, no diff) equals the diff and mirrors.
    do {
      let section =
        generator.random.chance(percent: 50) ? generator.random.element(new.sectionIdentifiers) : nil
      let edit: ListEdit
      switch generator.random.int(0..<3) {
      case 0: edit = .expandAll(section: section)
      case 1: edit = .collapseAll(section: section)
      default: edit = .expandToLevel(generator.random.int(-1..<4), section: section)
      }
      var direct = new
      guard let fast = try? direct.applyAndDiff([edit]) else {
        return fail(seed, "applyAndDiff(\(edit)) threw", log, old, new)
      }
      var slow = new
      try? slow.apply(edit)
      if direct != slow { return fail(seed, "direct \(edit) snapshot differs from apply", log, old, new) }
      let expected = diff(new, slow)
      if fast != expected {
        return fail(seed, "direct \(edit) changeset \(fast) != diff \(expected)", log, old, new)
      }
      guard (try? apply(fast, to: new.rows)) == direct.rows else {
        return fail(seed, "direct \(edit) changeset does not mirror", log, old, new)
      }
    }
    return true
  }

  func fail(_ seed: UInt64, _ what: String, _ log: [String], _ old: ListSnapshot, _ new: ListSnapshot) -> Bool
  {
    XCTFail(
      "seed \(seed): \(what)\nedits:\n\(log.joined(separator: "\n"))\nold:\n\(old)\nnew:\n\(new)")
    return false
  }
}
