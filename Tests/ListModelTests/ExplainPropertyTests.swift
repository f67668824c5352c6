// Explanations on seeded random batches: every changeset row covered once, each reason true of its rows.
import SeededRandom
import XCTest

@testable import ListModel

final class ExplainPropertyTests: XCTestCase {
  static let caseCount = 10_000

  /// A random list, a random batch (one edit in a third of the cases): the explanation of
  /// `diff(old, new)` covers every entry exactly, in order, each reason holds for its rows, and
  /// a one-edit batch names edit 0 for every cause but the moves the diff inferred.
  func testExplanationsCoverEveryChangeAndTheirReasonsHold() {
    var failures = 0
    var explainedMoves = 0
    for seed in PropertySeeds.seeds("LISTD_MODEL_EXPLAIN_SEED", default: 0..<UInt64(Self.caseCount))
    where failures < 3 {
      var generator = RandomEdits(seed: seed &+ 0xE4A1)
      let old = generator.list()
      var new = old
      var batch: [ListEdit] = []
      let single = seed % 3 == 0
      for _ in 0..<(single ? 1 : generator.random.int(1..<6)) {
        let edit = generator.edit(new)
        if (try? new.apply(edit)) != nil { batch.append(edit) }
      }
      // Reload marks are set by the batch apply: replay the kept edits as one batch.
      new = old
      guard (try? new.apply(batch)) != nil else { continue }
      let changes = diff(old, new)
      let causes = ListSnapshot.explain(changes, from: old, to: new, edits: batch)
      explainedMoves += causes.filter { $0.change == .itemMoves }.count
      if let problem = ExplanationCheck(changes: changes, old: old, new: new, causes: causes).problem(
        singleEdit: single && batch.count == 1)
      {
        failures += 1
        XCTFail(
          "seed \(seed &+ 0xE4A1): \(problem)\nbatch: \(batch)\nchanges: \(changes)\ncauses: \(causes)\nold:\n\(old)\nnew:\n\(new)"
        )
      }
      // Without the batch: still a full explanation, naming no edit.
      let plain = ListSnapshot.explain(changes, from: old, to: new)
      let plainProblem = ExplanationCheck(changes: changes, old: old, new: new, causes: plain).problem(
        singleEdit: false)
      if plain.contains(where: { $0.edit != nil }) || plainProblem != nil {
        failures += 1
        XCTFail("seed \(seed &+ 0xE4A1): without edits: \(plainProblem ?? "a cause names an edit")")
      }
    }
    XCTAssertGreaterThan(explainedMoves, 100, "the generator must produce moves")
  }

  /// `list/replace`-like changes: two independent random lists sharing ids, no batch.
  func testExplanationsOfRandomReplacesCoverEveryChange() {
    var failures = 0
    for seed in PropertySeeds.seeds(
      "LISTD_MODEL_EXPLAIN_REPLACE_SEED", default: 0..<UInt64(Self.caseCount / 2))
    where failures < 3 {
      var generator = RandomEdits(seed: seed &+ 0xA11CE)
      let old = generator.list()
      var new = old
      for _ in 0..<generator.random.int(1..<12) { _ = try? new.apply(generator.edit(new)) }
      let rebuilt = new.rebased(onto: IdentifierTable())  // as if decoded from a new content
      let changes = diff(old, rebuilt)
      let causes = ListSnapshot.explain(changes, from: old, to: rebuilt)
      if let problem = ExplanationCheck(changes: changes, old: old, new: rebuilt, causes: causes).problem(
        singleEdit: false)
      {
        failures += 1
        XCTFail("seed \(seed &+ 0xA11CE): \(problem)\nchanges: \(changes)\ncauses: \(causes)")
      }
    }
  }
}

/// Checks one explanation against its changeset and snapshots.
struct ExplanationCheck {
  let changes: Changeset
  let old: ListSnapshot
  let new: ListSnapshot
  let causes: [ChangeCause]

  /// The first problem found, or nil.
  func problem(singleEdit: Bool) -> String? {
    let order = ChangeCause.Change.allCases
    var last = (change: 0, entry: -1)
    for cause in causes {
      let rank = order.firstIndex(of: cause.change)!
      if rank < last.change || (rank == last.change && cause.entry < last.entry) {
        return "causes out of changeset order at \(cause)"
      }
      last = (rank, cause.entry)
      if singleEdit && cause.edit != 0 && cause.reason != .reordered && cause.reason != .changedSection {
        return "a one-edit batch's cause does not name edit 0: \(cause)"
      }
      if let reason = wrongReason(cause) { return reason }
      if let first = cause.ids.first, cause.change.rawValue.hasPrefix("item") || isIDList(cause.change) {
        let covering = ListSnapshot.causes(
          causes, coveringItem: first, changeset: changes, from: old, to: new)
        if !covering.contains(cause) { return "causes(coveringItem: \(first)) misses \(cause)" }
      }
    }
    return coverage()
  }

  func isIDList(_ change: ChangeCause.Change) -> Bool {
    [.selected, .deselected, .expanded, .collapsed].contains(change)
  }

  /// The run lengths of each entry of a member.
  func entryCounts(_ change: ChangeCause.Change) -> [Int] {
    switch change {
    case .sectionDeletes: return changes.sectionDeletes.map(\.count)
    case .sectionInserts: return changes.sectionInserts.map { _ in 1 }
    case .sectionMoves: return changes.sectionMoves.map { _ in 1 }
    case .sectionReloads: return changes.sectionReloads.map { _ in 1 }
    case .itemDeletes: return changes.itemDeletes.map(\.rows.count)
    case .itemInserts: return changes.itemInserts.map(\.rows.count)
    case .itemMoves: return changes.itemMoves.map(\.count)
    case .itemReloads: return changes.itemReloads.map(\.rows.count)
    case .itemReconfigures: return changes.itemReconfigures.map(\.rows.count)
    case .selectionMode: return changes.selectionMode == nil ? [] : [1]
    case .columns: return changes.columns == nil ? [] : [1]
    case .emptyState: return changes.emptyState == nil ? [] : [1]
    case .isEditing: return changes.isEditing == nil ? [] : [1]
    default: return []
    }
  }

  func coverage() -> String? {
    for change in ChangeCause.Change.allCases {
      let mine = causes.filter { $0.change == change }
      if isIDList(change) {
        let expected: [String] =
          switch change {
          case .selected: changes.selected
          case .deselected: changes.deselected
          case .expanded: changes.expanded
          default: changes.collapsed
          }
        if mine.flatMap(\.ids) != expected { return "\(change) ids \(mine.flatMap(\.ids)) != \(expected)" }
        continue
      }
      for (entry, count) in entryCounts(change).enumerated() {
        var next = 0
        for cause in mine where cause.entry == entry {
          if cause.offset != next || cause.count < 1 {
            return "\(change)[\(entry)] gap or overlap at \(cause)"
          }
          next += cause.count
        }
        if next != count { return "\(change)[\(entry)] covers \(next) of \(count)" }
      }
      if mine.contains(where: { $0.entry >= entryCounts(change).count }) {
        return "\(change) cause past the entries"
      }
    }
    return nil
  }

  /// The ids of the rows a run cause covers.
  func rowIDs(_ cause: ChangeCause) -> [String] {
    let k = cause.entry
    let range = cause.offset..<(cause.offset + cause.count)
    switch cause.change {
    case .itemDeletes:
      let delete = changes.itemDeletes[k]
      return old.rows(inSectionAt: delete.section, range: delete.rows).map(\.id)[range].map { $0 }
    case .itemInserts: return changes.itemInserts[k].rows[range].map(\.id)
    case .itemMoves:
      let move = changes.itemMoves[k]
      return new.rows(inSectionAt: move.to.section, range: move.to.item..<(move.to.item + move.count)).map(
        \.id)[
          range
        ].map { $0 }
    case .itemReloads: return changes.itemReloads[k].rows[range].map(\.id)
    case .itemReconfigures: return changes.itemReconfigures[k].rows[range].map(\.id)
    default: return cause.ids
    }
  }

  func wrongReason(_ cause: ChangeCause) -> String? {
    let ids = rowIDs(cause)
    if cause.change.rawValue.hasPrefix("item"), ids.first != cause.ids.first {
      return "cause names \(cause.ids) but its first row is \(ids.first ?? "-")"
    }
    for id in ids {
      let inOld = old.contains(item: id)
      let inNew = new.contains(item: id)
      let sameParent = old.parent(of: id) == new.parent(of: id)
      let ok: Bool
      switch (cause.change, cause.reason) {
      case (.itemDeletes, .removed), (.deselected, .removed): ok = !inNew
      case (.itemDeletes, .hidden), (.deselected, .hidden):
        ok =
          inNew && !new.isVisible(id) && (sameParent || cause.change == .deselected)
          && cause.related.map { isCollapsedAncestor($0, of: id, in: new) } == true
      case (.itemDeletes, .reparented): ok = inNew && !new.isVisible(id) && !sameParent
      case (.itemDeletes, .toInsertedSection):
        ok = new.sectionIdentifier(containingItem: id).map { !old.contains(section: $0) } == true
      case (.itemInserts, .added): ok = !inOld
      case (.itemInserts, .revealed):
        ok =
          inOld && !old.isVisible(id) && sameParent
          && cause.related.map { isCollapsedAncestor($0, of: id, in: old) } == true
      case (.itemInserts, .reparented): ok = inOld && !old.isVisible(id) && !sameParent
      case (.itemInserts, .fromDeletedSection):
        ok = old.sectionIdentifier(containingItem: id).map { !new.contains(section: $0) } == true
      case (.itemDeletes, .reloadedAndMoved), (.itemInserts, .reloadedAndMoved): ok = inOld && inNew
      case (.itemMoves, .reordered), (.itemMoves, .changedSection):
        let move = changes.itemMoves[cause.entry]
        let same = old.sectionIdentifiers[move.from.section] == new.sectionIdentifiers[move.to.section]
        let after =
          move.to.item > 0
          ? new.item(at: ListIndexPath(section: move.to.section, item: move.to.item - 1)) : nil
        let before = new.item(at: ListIndexPath(section: move.to.section, item: move.to.item + move.count))
        ok =
          (cause.reason == .reordered) == same && cause.after == after && cause.before == before
          && cause.related == (same ? nil : old.sectionIdentifiers[move.from.section])
      case (.itemReloads, .requested): ok = inOld && inNew
      case (.itemReloads, .changed):  // a change of kind reloads without being asked
        let fields = FieldChange.between(old.row(ofItem: id)!, new.row(ofItem: id)!)
        ok = fields == cause.fields && fields.contains { $0.field == .kind }
      case (.itemReconfigures, .changed), (.itemReconfigures, .requested):
        let fields = FieldChange.between(old.row(ofItem: id)!, new.row(ofItem: id)!)
        ok = cause.reason == .changed ? fields == cause.fields && !fields.isEmpty : fields.isEmpty
      case (.deselected, .unselectable): ok = new.payload(of: id)?.isSelectable == false
      case (.deselected, .selectionMode): ok = old.selectionMode != new.selectionMode
      case (.deselected, .deselected): ok = inNew && new.isVisible(id)
      case (.selected, .requested), (.expanded, .requested), (.collapsed, .requested): ok = inNew
      case (.columns, .requested): ok = old.columns != new.columns
      case (.emptyState, .requested): ok = old.emptyState != new.emptyState
      case (.isEditing, .requested): ok = old.isEditing != new.isEditing
      default: ok = cause.change.rawValue.hasPrefix("section") || cause.change == .selectionMode
      }
      if !ok { return "reason \(cause.reason) does not hold for \(id) in \(cause)" }
    }
    return nil
  }

  /// Whether `ancestor` is the outermost collapsed ancestor of `id` in `snapshot`.
  func isCollapsedAncestor(_ ancestor: String, of id: String, in snapshot: ListSnapshot) -> Bool {
    var outermost: String?
    var current = snapshot.parent(of: id)
    while let parent = current {
      if !snapshot.isExpanded(parent) { outermost = parent }
      current = snapshot.parent(of: parent)
    }
    return outermost == ancestor
  }
}
