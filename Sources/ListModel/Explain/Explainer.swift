// explain(changeset, old, new, edits): the cause of every changeset entry, run by run.

extension ListSnapshot {
  /// Why each entry of `changeset` — which must be `diff(old, new)` — is there: causes in the
  /// changeset's member order, each covering a run of one entry (see ``ChangeCause``). With the
  /// `edits` of the batch that turned `old` into `new`, each cause also names the last edit of
  /// the batch that could have caused it.
  ///
  /// Nothing here runs unless asked: the diff itself computes no explanation. Complexity:
  /// O(sections + rows the changeset names × (log n + depth)), plus O(edit operands) and
  /// O(depth) per row with `edits`.
  public static func explain(
    _ changeset: Changeset, from old: ListSnapshot, to new: ListSnapshot, edits: [ListEdit]? = nil
  ) -> [ChangeCause] {
    var explainer = Explainer(old: old, new: new, attribution: edits.map { EditAttribution($0, old: old) })
    explainer.run(changeset)
    return explainer.causes
  }
}

/// One explanation in progress.
private struct Explainer {
  typealias Family = EditAttribution.Family
  let old: ListSnapshot
  let new: ListSnapshot
  let attribution: EditAttribution?
  let oldSections: [String]
  let newSections: [String]
  var causes: [ChangeCause] = []

  init(old: ListSnapshot, new: ListSnapshot, attribution: EditAttribution?) {
    self.old = old
    self.new = new
    self.attribution = attribution
    oldSections = old.sectionIdentifiers
    newSections = new.sectionIdentifiers
  }

  mutating func run(_ changes: Changeset) {
    for (k, range) in changes.sectionDeletes.enumerated() {
      for (offset, index) in range.enumerated() {
        let id = oldSections[index]
        add(.sectionDeletes, k, offset, id, .removed, edit: edit([.sectionDelete], sections: [id]))
      }
    }
    for (k, insert) in changes.sectionInserts.enumerated() {
      let id = newSections[insert.index]
      add(.sectionInserts, k, 0, id, .added, edit: edit([.sectionInsert], sections: [id]))
    }
    for (k, move) in changes.sectionMoves.enumerated() {
      let id = newSections[move.to]
      var cause = ChangeCause(change: .sectionMoves, entry: k, ids: [id], reason: .reordered)
      cause.after = move.to > 0 ? newSections[move.to - 1] : nil
      cause.before = move.to + 1 < newSections.count ? newSections[move.to + 1] : nil
      cause.edit = edit([.sectionMove], sections: [id])
      add(cause)
    }
    for (k, reload) in changes.sectionReloads.enumerated() {
      let store = old.slots[Int(old.order[reload.index])]
      let fields = FieldChange.between(
        header: store.header, footer: store.footer, newHeader: reload.header, newFooter: reload.footer)
      add(
        .sectionReloads, k, 0, reload.id, fields.isEmpty ? .requested : .changed, fields: fields,
        edit: edit(
          fields.isEmpty ? [.sectionReload] : [.sectionHeader, .sectionReload], sections: [reload.id]))
    }
    for (k, delete) in changes.itemDeletes.enumerated() {
      for (offset, row) in old.rows(inSectionAt: delete.section, range: delete.rows).enumerated() {
        explainDelete(row.id, entry: k, offset: offset)
      }
    }
    for (k, run) in changes.itemInserts.enumerated() {
      for (offset, row) in run.rows.enumerated() { explainInsert(row.id, entry: k, offset: offset) }
    }
    for (k, move) in changes.itemMoves.enumerated() { explainMove(move, entry: k) }
    for (k, run) in changes.itemReloads.enumerated() {
      for (offset, row) in run.rows.enumerated() {
        add(.itemReloads, k, offset, row.id, .requested, edit: edit([.reload], item: row.id))
      }
    }
    for (k, run) in changes.itemReconfigures.enumerated() {
      for (offset, row) in run.rows.enumerated() { explainReconfigure(row, entry: k, offset: offset) }
    }
    for id in changes.selected {
      addID(.selected, id, .requested, edit: edit([.select], item: id))
    }
    for id in changes.deselected { explainDeselect(id) }
    for id in changes.expanded {
      addID(
        .expanded, id, .requested,
        edit: edit([.expand], item: id, ancestorsIn: new, sections: section(of: id)))
    }
    for id in changes.collapsed {
      addID(
        .collapsed, id, .requested,
        edit: edit([.collapse], item: id, ancestorsIn: new, sections: section(of: id)))
    }
    if changes.selectionMode != nil {
      add(.selectionMode, 0, 0, new.selectionMode.rawValue, .requested, edit: edit([.mode]))
    }
  }

  // MARK: Rows

  mutating func explainDelete(_ id: String, entry: Int, offset: Int) {
    let oldNode = node(id, in: old)
    guard let oldNode, let newNode = node(id, in: new) else {
      let sections = oldNode.map { [sectionID(of: $0, in: old)] } ?? []
      add(
        .itemDeletes, entry, offset, id, .removed,
        edit: edit([.delete], item: id, ancestorsIn: old, sections: sections))
      return
    }
    let (reason, related) = movedOrHidden(from: oldNode, to: newNode, leaving: true)
    let families: [Family] =
      switch reason {
      case .hidden: [.collapse, .move]  // collapsed, or moved under a collapsed item
      case .reloadedAndMoved: [.reload, .move]
      default: [.move]
      }
    add(
      .itemDeletes, entry, offset, id, reason, related: related,
      edit: edit(
        families, item: id, ancestorsIn: reason == .hidden ? new : old,
        sections: [sectionID(of: newNode, in: new)]))
  }

  mutating func explainInsert(_ id: String, entry: Int, offset: Int) {
    let newNode = node(id, in: new)!
    guard let oldNode = node(id, in: old) else {
      add(
        .itemInserts, entry, offset, id, .added,
        edit: edit([.insert], item: id, ancestorsIn: new, sections: [sectionID(of: newNode, in: new)]))
      return
    }
    let (reason, related) = movedOrHidden(from: oldNode, to: newNode, leaving: false)
    let families: [Family] =
      switch reason {
      case .revealed: [.expand, .move]
      case .reloadedAndMoved: [.reload, .move]
      default: [.move]
      }
    add(
      .itemInserts, entry, offset, id, reason, related: related,
      edit: edit(families, item: id, ancestorsIn: new, sections: [sectionID(of: newNode, in: new)]))
  }

  /// Why an item in both snapshots is a delete (`leaving`) or an insert rather than a move.
  func movedOrHidden(from oldNode: Node, to newNode: Node, leaving: Bool) -> (ChangeCause.Reason, String?) {
    let invisible = leaving ? newNode : oldNode
    if !invisible.isVisible {
      let oldParent = oldNode.parent >= 0 ? old.string(oldNode.parent) : nil
      let newParent = newNode.parent >= 0 ? new.string(newNode.parent) : nil
      if oldParent != newParent { return (.reparented, newParent) }
      let snapshot = leaving ? new : old
      return (leaving ? .hidden : .revealed, outermostCollapsedAncestor(of: invisible, in: snapshot))
    }
    if leaving {
      let section = sectionID(of: newNode, in: new)
      if old.sectionSlot(section) == nil { return (.toInsertedSection, section) }
    } else {
      let section = sectionID(of: oldNode, in: old)
      if new.sectionSlot(section) == nil { return (.fromDeletedSection, section) }
    }
    return (.reloadedAndMoved, nil)
  }

  mutating func explainMove(_ move: Changeset.ItemMove, entry: Int) {
    let rows = new.rows(inSectionAt: move.to.section, range: move.to.item..<(move.to.item + move.count))
    let from = oldSections[move.from.section]
    let sameSection = from == newSections[move.to.section]
    let after =
      move.to.item > 0 ? new.item(at: ListIndexPath(section: move.to.section, item: move.to.item - 1)) : nil
    let before = new.item(at: ListIndexPath(section: move.to.section, item: move.to.item + move.count))
    for (offset, row) in rows.enumerated() {
      var cause = ChangeCause(
        change: .itemMoves, entry: entry, offset: offset, ids: [row.id],
        reason: sameSection ? .reordered : .changedSection, related: sameSection ? nil : from)
      cause.after = after
      cause.before = before
      cause.edit = edit([.move], item: row.id, ancestorsIn: new)
      add(cause)
    }
  }

  mutating func explainReconfigure(_ row: Row, entry: Int, offset: Int) {
    guard let oldRow = old.row(ofItem: row.id) else { return }
    let fields = FieldChange.between(oldRow, row)
    var families: [Family] = [.reconfigure]
    if attribution != nil {
      for change in fields {
        switch change.field {
        case .expanded: families += [.expand, .collapse]
        case .level, .parent: families.append(.move)
        case .hasChildren: families.append(.children)
        default: if change.isPayload { families.append(.payload) }
        }
      }
    }
    let section = new.sectionIdentifier(containingItem: row.id).map { [$0] } ?? []
    add(
      .itemReconfigures, entry, offset, row.id, fields.isEmpty ? .requested : .changed, fields: fields,
      edit: edit(families, item: row.id, ancestorsIn: new, sections: section))
  }

  mutating func explainDeselect(_ id: String) {
    guard let newNode = node(id, in: new) else {
      let sections = node(id, in: old).map { [sectionID(of: $0, in: old)] } ?? []
      addID(
        .deselected, id, .removed,
        edit: edit([.delete, .deselect], item: id, ancestorsIn: old, sections: sections))
      return
    }
    let section = [sectionID(of: newNode, in: new)]
    if !newNode.isVisible {
      addID(
        .deselected, id, .hidden, related: outermostCollapsedAncestor(of: newNode, in: new),
        edit: edit([.collapse, .move, .deselect], item: id, ancestorsIn: new, sections: section))
    } else if !newNode.payload.isSelectable {
      addID(.deselected, id, .unselectable, edit: edit([.payload], item: id))
    } else if old.selectionMode != new.selectionMode {
      addID(.deselected, id, .selectionMode, edit: edit([.mode]))
    } else {
      addID(.deselected, id, .deselected, edit: edit([.deselect], item: id, sections: section))
    }
  }

  // MARK: Lookups

  func node(_ id: String, in snapshot: ListSnapshot) -> Node? {
    snapshot.itemID(id).map { snapshot.node($0) }
  }

  /// The item's section in `new`, for section-scoped edits (none without a batch).
  func section(of id: String) -> [String] {
    guard attribution != nil, let section = new.sectionIdentifier(containingItem: id) else { return [] }
    return [section]
  }

  func sectionID(of node: Node, in snapshot: ListSnapshot) -> String {
    snapshot.string(snapshot.slots[Int(snapshot.location(node.id).slot)].id)
  }

  /// The outermost collapsed ancestor of a hidden node: the expansion that hides it.
  func outermostCollapsedAncestor(of node: Node, in snapshot: ListSnapshot) -> String? {
    var found: Int32 = -1
    var parent = node.parent
    while parent >= 0 {
      let ancestor = snapshot.node(parent)
      if !ancestor.isExpanded { found = parent }
      parent = ancestor.parent
    }
    return found >= 0 ? snapshot.string(found) : nil
  }

  /// The last edit of `families` naming the item, one of its ancestors in `snapshot`, one of
  /// `sections`, or nothing; nil without a batch.
  func edit(
    _ families: [Family], item id: String? = nil, ancestorsIn snapshot: ListSnapshot? = nil,
    sections: [String] = []
  ) -> Int? {
    guard let attribution else { return nil }
    var ancestors: [String] = []
    if let id, let snapshot, let item = snapshot.itemID(id) {
      var parent = snapshot.node(item).parent
      while parent >= 0 {
        ancestors.append(snapshot.string(parent))
        parent = snapshot.node(parent).parent
      }
    }
    return attribution.edit(families, item: id, ancestors: ancestors, sections: sections)
  }

  // MARK: Causes

  mutating func add(
    _ change: ChangeCause.Change, _ entry: Int, _ offset: Int, _ id: String, _ reason: ChangeCause.Reason,
    related: String? = nil, fields: [FieldChange] = [], edit: Int?
  ) {
    add(
      ChangeCause(
        change: change, entry: entry, offset: offset, ids: [id], reason: reason, related: related,
        fields: fields,
        edit: edit))
  }

  /// Appends a one-row cause, extending the last one when it continues it with the same cause.
  mutating func add(_ cause: ChangeCause) {
    if let last = causes.last, last.change == cause.change, last.entry == cause.entry,
      last.offset + last.count == cause.offset, last.reason == cause.reason, last.related == cause.related,
      last.edit == cause.edit, last.fields == cause.fields, last.after == cause.after,
      last.before == cause.before
    {
      causes[causes.count - 1].count += 1
    } else {
      causes.append(cause)
    }
  }

  /// Appends an id to the last cause of an id list when the cause is the same.
  mutating func addID(
    _ change: ChangeCause.Change, _ id: String, _ reason: ChangeCause.Reason, related: String? = nil,
    edit: Int?
  ) {
    let last = causes.count - 1  // by index: a copy of the cause would make each append copy its ids
    if last >= 0, causes[last].change == change, causes[last].reason == reason,
      causes[last].related == related,
      causes[last].edit == edit
    {
      causes[last].ids.append(id)
      causes[last].count += 1
    } else {
      let offset =
        causes.last?.change == change ? causes[causes.count - 1].offset + causes[causes.count - 1].count : 0
      causes.append(
        ChangeCause(
          change: change, entry: 0, offset: offset, ids: [id], reason: reason, related: related, edit: edit))
    }
  }
}
