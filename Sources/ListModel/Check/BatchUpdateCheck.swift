// checkBatchUpdate: what UIKit's performBatchUpdates would say about a batch update — after counts, or every problem.

/// One violation of a batch-update (or snapshot) rule: its id, UIKit's message, and where.
public struct CheckProblem: Hashable, Sendable {
  /// Where a problem is: a section index, an index path, or identifiers (snapshot checks).
  /// The section-count rule has no location.
  public enum Location: Hashable, Sendable {
    case section(Int)
    case indexPath(ListIndexPath)
    case identifiers([String])
  }

  public var rule: CheckRule
  public var message: String
  public var at: Location?

  public init(_ rule: CheckRule, _ message: String, at: Location? = nil) {
    self.rule = rule
    self.message = message
    self.at = at
  }
}

/// The answer of a check: valid with the section item counts after the update, or every problem found.
public enum BatchUpdateCheckResult: Hashable, Sendable {
  case valid(after: [Int])
  case invalid([CheckProblem])
}

/// Checks a batch update as UIKit's `performBatchUpdates` would, given the item count of each
/// section before it and, optionally, after it (without `after`, the after counts are computed
/// from the update, so the count rules cannot fail).
///
/// UIKit's processing order: section and item deletes and reloads in old coordinates, inserts in
/// new coordinates, moves from old to new; a reload is a delete plus an insert of the same index
/// path (a reconfigure is not). Every problem is reported, not only the first UIKit would raise,
/// in this order: section counts, sections, items in old coordinates (by section, then row),
/// items in new coordinates, item counts. When the sections do not add up (a section-level
/// problem), the old → new section mapping is undefined, so new-coordinate item checks and item
/// counts are skipped.
///
/// Counts and indexes must fit in 32 bits (as UIKit's do; the daemon's decoder refuses larger
/// ones), so that no sum of them overflows.
///
/// O(sections + entries log entries): runs of rows are checked as runs, never expanded (a
/// conflict between two runs is reported once, at its first index path).
public func checkBatchUpdate(before: [Int], _ update: BatchUpdate, after: [Int]? = nil)
  -> BatchUpdateCheckResult
{
  var checker = BatchUpdateChecker(before: before, update: update, after: after)
  return checker.run()
}

/// The state of one check; see ``checkBatchUpdate(before:_:after:)``.
private struct BatchUpdateChecker {
  let before: [Int]
  let update: BatchUpdate
  let after: [Int]?
  var problems: [CheckProblem] = []

  init(before: [Int], update: BatchUpdate, after: [Int]?) {
    self.before = before
    self.update = update
    self.after = after
  }

  mutating func report(_ rule: CheckRule, _ message: String, at: CheckProblem.Location? = nil) {
    problems.append(CheckProblem(rule, message, at: at))
  }

  mutating func run() -> BatchUpdateCheckResult {
    let mapping = checkSections()
    checkOldItems(deletedSections: mapping.deleted)
    if let map = mapping.map {
      let counts = checkNewItems(map)
      if problems.isEmpty { return .valid(after: counts) }
    }
    return .invalid(problems)
  }

  // MARK: Sections

  /// The section-level checks; the old → new mapping (nil when the sections do not add up) and
  /// which old sections are deleted.
  mutating func checkSections() -> (map: SectionMap?, deleted: [Bool]) {
    let oldCount = before.count
    let deletes = Set(update.deleteSections)
    let inserts = Set(update.insertSections)
    let computed = oldCount - deletes.count + inserts.count
    let newCount = after?.count ?? computed
    let start = problems.count
    if newCount != computed {
      report(
        .sectionCount,
        UIKitMessages.sectionCount(
          after: newCount, before: oldCount, inserted: inserts.count, deleted: deletes.count))
    }
    var deleted = [Bool](repeating: false, count: oldCount)
    for section in deletes.sorted() {
      if (0..<oldCount).contains(section) {
        deleted[section] = true
      } else {
        report(
          .deleteSectionOutOfBounds, UIKitMessages.deleteSection(section, sections: oldCount),
          at: .section(section))
      }
    }
    var inserted = [Bool](repeating: false, count: max(newCount, 0))
    for section in inserts.sorted() {
      if (0..<newCount).contains(section) {
        inserted[section] = true
      } else {
        report(
          .insertSectionOutOfBounds, UIKitMessages.insertSection(section, sections: newCount),
          at: .section(section))
      }
    }
    // A section reload that moves is allowed: listd reloads a moved section whose header changed.
    for section in Set(update.reloadSections).sorted() {
      guard (0..<oldCount).contains(section) else {
        report(
          .reloadSectionOutOfBounds, UIKitMessages.deleteSection(section, sections: oldCount),
          at: .section(section))
        continue
      }
      if deleted[section] {
        report(.deleteAndReloadSection, UIKitMessages.deleteAndReloadSection(section), at: .section(section))
      }
    }
    var movedFrom = [Bool](repeating: false, count: oldCount)
    var movedTo = [Bool](repeating: false, count: max(newCount, 0))
    for move in update.moveSections {
      if !(0..<oldCount).contains(move.from) {
        report(
          .moveSectionOutOfBounds, UIKitMessages.moveSectionFrom(move.from, sections: oldCount),
          at: .section(move.from))
      } else if deleted[move.from] {
        report(.deleteAndMoveSection, UIKitMessages.deleteAndMoveSection(move.from), at: .section(move.from))
      } else if movedFrom[move.from] {
        report(.moveSectionTwice, UIKitMessages.moveSectionTwice(move.from), at: .section(move.from))
      } else {
        movedFrom[move.from] = true
      }
      if !(0..<newCount).contains(move.to) {
        report(
          .moveSectionOutOfBounds, UIKitMessages.moveSectionTo(move.from, move.to, sections: newCount),
          at: .section(move.to))
      } else if inserted[move.to] {
        report(.insertAndMoveSection, UIKitMessages.insertAndMoveSection(move.to), at: .section(move.to))
      } else if movedTo[move.to] {
        report(
          .moveSectionsToSameIndex, UIKitMessages.moveSectionsToSameIndex(move.to), at: .section(move.to))
      } else {
        movedTo[move.to] = true
      }
    }
    guard problems.count == start else { return (nil, deleted) }
    // Old sections that stay put fill the new indexes no insert or move takes, in order.
    var map = SectionMap(
      newToOld: [Int](repeating: -1, count: newCount), oldToNew: [Int](repeating: -1, count: oldCount))
    for move in update.moveSections {
      map.newToOld[move.to] = move.from
      map.oldToNew[move.from] = move.to
    }
    var next = 0
    for old in 0..<oldCount where !deleted[old] && !movedFrom[old] {
      while next < newCount && (inserted[next] || movedTo[next]) { next += 1 }
      guard next < newCount else { break }
      map.newToOld[next] = old
      map.oldToNew[old] = next
      next += 1
    }
    return (map, deleted)
  }

  // MARK: Items

  /// An item run of one kind, as an interval of rows of one section.
  struct Interval {
    enum Kind: Int { case delete, moveFrom, reload, reconfigure, insert, moveTo }
    var start: Int
    var end: Int
    var kind: Kind
    /// For moves: the index of the move in `update.moveItems`.
    var move: Int = -1
  }

  /// Bounds and conflicts of deletes, move sources, reloads and reconfigures (old coordinates).
  mutating func checkOldItems(deletedSections: [Bool]) {
    let oldCount = before.count
    var bySection: [Int: [Interval]] = [:]
    func add(_ run: BatchUpdate.ItemRun, _ kind: Interval.Kind, move: Int = -1) -> Bool {
      guard run.count > 0 else { return false }
      let first = ListIndexPath(section: run.section, item: run.row)
      guard (0..<oldCount).contains(run.section) else {
        switch kind {
        case .delete:
          report(
            .deleteItemOutOfBounds, UIKitMessages.deleteItem(first, sections: oldCount), at: .indexPath(first)
          )
        case .reload:
          report(
            .reloadItemOutOfBounds, UIKitMessages.deleteItem(first, sections: oldCount), at: .indexPath(first)
          )
        case .reconfigure:
          report(
            .reconfigureItemOutOfBounds, UIKitMessages.reconfigureItem(first, sections: oldCount),
            at: .indexPath(first))
        default:
          report(
            .moveItemOutOfBounds, UIKitMessages.moveItemFrom(first, sections: oldCount), at: .indexPath(first)
          )
        }
        return false
      }
      let items = before[run.section]
      guard run.row >= 0, run.row + run.count <= items else {
        let bad = ListIndexPath(section: run.section, item: run.row < 0 ? run.row : max(run.row, items))
        switch kind {
        case .delete:
          report(.deleteItemOutOfBounds, UIKitMessages.deleteItem(bad, items: items), at: .indexPath(bad))
        case .reload:
          report(.reloadItemOutOfBounds, UIKitMessages.deleteItem(bad, items: items), at: .indexPath(bad))
        case .reconfigure:
          report(
            .reconfigureItemOutOfBounds, UIKitMessages.reconfigureItem(bad, items: items), at: .indexPath(bad)
          )
        default:
          report(.moveItemOutOfBounds, UIKitMessages.moveItemFrom(bad, items: items), at: .indexPath(bad))
        }
        return false
      }
      bySection[run.section, default: []].append(
        Interval(start: run.row, end: run.row + run.count, kind: kind, move: move))
      return true
    }
    for run in update.deleteItems { _ = add(run, .delete) }
    for (index, move) in update.moveItems.enumerated() {
      let run = BatchUpdate.ItemRun(section: move.from.section, row: move.from.item, count: move.count)
      if add(run, .moveFrom, move: index), deletedSections[move.from.section] {
        report(
          .moveItemFromDeletedSection, UIKitMessages.moveItemFromDeletedSection(move.from.section),
          at: .indexPath(move.from))
      }
    }
    for run in update.reloadItems { _ = add(run, .reload) }
    for run in update.reconfigureItems { _ = add(run, .reconfigure) }
    for section in bySection.keys.sorted() {
      sweep(section, bySection[section]!) { a, b in
        switch (min(a.rawValue, b.rawValue), max(a.rawValue, b.rawValue)) {
        case (0, 0): return (.deleteItemTwice, UIKitMessages.deleteItemTwice)
        case (0, 1): return (.deleteAndMoveItem, UIKitMessages.deleteAndMoveItem)
        case (0, 2): return (.deleteAndReloadItem, UIKitMessages.deleteAndReloadItem)
        case (0, 3): return (.deleteAndReconfigureItem, UIKitMessages.deleteAndReconfigureItem)
        case (1, 1): return (.moveItemTwice, UIKitMessages.moveItemTwice)
        case (1, 2): return (.reloadAndMoveItem, UIKitMessages.deleteAndMoveItem)
        default: return nil
        }
      }
    }
  }

  /// Bounds and conflicts of inserts and move destinations (new coordinates), then the item
  /// counts of every section present before and after. Returns the after counts.
  mutating func checkNewItems(_ map: SectionMap) -> [Int] {
    let newCount = map.newToOld.count
    var deleted = [Int](repeating: 0, count: before.count)
    var movedOut = [Int](repeating: 0, count: before.count)
    var inserted = [Int](repeating: 0, count: newCount)
    var movedIn = [Int](repeating: 0, count: newCount)
    // Runs out of bounds (already reported) count for nothing.
    func inBounds(_ section: Int, _ row: Int, _ count: Int) -> Bool {
      (0..<before.count).contains(section) && row >= 0 && count > 0 && row + count <= before[section]
    }
    for run in update.deleteItems
    where inBounds(run.section, run.row, run.count) && map.oldToNew[run.section] >= 0 {
      deleted[run.section] += run.count
    }
    for run in update.insertItems where (0..<newCount).contains(run.section) {
      inserted[run.section] += max(run.count, 0)
    }
    for move in update.moveItems
    where inBounds(move.from.section, move.from.item, move.count) && (0..<newCount).contains(move.to.section)
    {
      // A move within one section (the old section's new index) is neither in nor out.
      if map.oldToNew[move.from.section] != move.to.section {
        movedOut[move.from.section] += max(move.count, 0)
        movedIn[move.to.section] += max(move.count, 0)
      }
    }
    // The after counts: given, or computed as UIKit's rule requires them to be.
    var counts = [Int](repeating: 0, count: newCount)
    for new in 0..<newCount {
      let old = map.newToOld[new]
      if old >= 0 {
        counts[new] = before[old] - deleted[old] - movedOut[old] + inserted[new] + movedIn[new]
      } else {
        counts[new] = update.insertedSectionCounts[new] ?? inserted[new]
      }
    }
    let afterCounts = after ?? counts

    var bySection: [Int: [Interval]] = [:]
    for run in update.insertItems where run.count > 0 {
      let first = ListIndexPath(section: run.section, item: run.row)
      guard (0..<newCount).contains(run.section) else {
        report(
          .insertItemOutOfBounds, UIKitMessages.insertItem(first, sections: newCount), at: .indexPath(first))
        continue
      }
      let items = afterCounts[run.section]
      guard run.row >= 0, run.row + run.count <= items else {
        let bad = ListIndexPath(section: run.section, item: run.row < 0 ? run.row : max(run.row, items))
        report(.insertItemOutOfBounds, UIKitMessages.insertItem(bad, items: items), at: .indexPath(bad))
        continue
      }
      bySection[run.section, default: []].append(
        Interval(start: run.row, end: run.row + run.count, kind: .insert))
    }
    for (index, move) in update.moveItems.enumerated() where move.count > 0 {
      guard (0..<newCount).contains(move.to.section) else {
        report(
          .moveItemOutOfBounds, UIKitMessages.moveItemTo(move.from, move.to, sections: newCount),
          at: .indexPath(move.to))
        continue
      }
      if map.newToOld[move.to.section] < 0 {
        report(
          .moveItemIntoInsertedSection, UIKitMessages.moveItemIntoInsertedSection(move.to.section),
          at: .indexPath(move.to))
        continue
      }
      let items = afterCounts[move.to.section]
      guard move.to.item >= 0, move.to.item + move.count <= items else {
        let bad = ListIndexPath(
          section: move.to.section, item: move.to.item < 0 ? move.to.item : max(move.to.item, items))
        report(
          .moveItemOutOfBounds, UIKitMessages.moveItemTo(move.from, bad, items: items), at: .indexPath(bad))
        continue
      }
      bySection[move.to.section, default: []].append(
        Interval(start: move.to.item, end: move.to.item + move.count, kind: .moveTo, move: index))
    }
    for section in bySection.keys.sorted() {
      sweep(section, bySection[section]!) { a, b in
        switch (min(a.rawValue, b.rawValue), max(a.rawValue, b.rawValue)) {
        case (4, 4): return (.insertItemTwice, UIKitMessages.insertItemTwice)
        case (4, 5): return (.insertAndMoveItem, UIKitMessages.insertAndMoveItem)
        case (5, 5): return (.moveItemsToSameIndexPath, UIKitMessages.moveItemsToSameIndexPath)
        default: return nil
        }
      }
    }
    if let after {
      for new in 0..<newCount where map.newToOld[new] >= 0 && after[new] != counts[new] {
        let old = map.newToOld[new]
        report(
          .itemCount,
          UIKitMessages.itemCount(
            section: new, after: after[new], before: before[old], inserted: inserted[new],
            deleted: deleted[old],
            movedIn: movedIn[new], movedOut: movedOut[old]),
          at: .section(new))
      }
    }
    return afterCounts
  }

  /// Reports each run that overlaps an earlier run of a conflicting kind, once per pair, at the
  /// first row they share. O(runs log runs) when runs do not overlap.
  mutating func sweep(
    _ section: Int, _ intervals: [Interval],
    _ conflict: (Interval.Kind, Interval.Kind) -> (CheckRule, (ListIndexPath) -> String)?
  ) {
    let sorted = intervals.sorted { ($0.start, $0.kind.rawValue) < ($1.start, $1.kind.rawValue) }
    var active: [Interval] = []
    for interval in sorted {
      active.removeAll { $0.end <= interval.start }
      for other in active {
        guard let (rule, message) = conflict(other.kind, interval.kind) else { continue }
        let path = ListIndexPath(section: section, item: interval.start)
        report(rule, message(path), at: .indexPath(path))
      }
      active.append(interval)
    }
  }
}

/// Where each section goes: new index → old index (-1 for an inserted section) and old → new
/// (-1 for a deleted one).
private struct SectionMap {
  var newToOld: [Int]
  var oldToNew: [Int]
}
