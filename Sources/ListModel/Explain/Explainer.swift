// explain(changeset, old, new, edits): the cause of every changeset entry, run by run.

extension ListSnapshot {
  /// Why each entry of `changeset` — which must be `diff(old, new)` — is there: causes in the
  /// changeset's member order, each covering a run of one entry (see ``ChangeCause``). With the
  /// `edits` of the batch that turned `old` into `new`, each cause also names the last edit of
  /// the batch that could have caused it.
  ///
  /// Nothing here runs unless asked: the diff itself computes no explanation. Rows are read
  /// from the snapshots' storage by position and matched by interned id, so a cause that
  /// continues costs no allocation. Complexity: O(sections + entries × log n + rows the
  /// changeset names × depth + size of the changed payloads), plus O(edit operands) and
  /// O(depth) hashed lookups per row with `edits`.
  public static func explain(
    _ changeset: Changeset, from old: ListSnapshot, to new: ListSnapshot, edits: [ListEdit]? = nil
  ) -> [ChangeCause] {
    var explainer = Explainer(old: old, new: new, attribution: edits.map { EditAttribution($0, old: old) })
    explainer.run(changeset)
    explainer.flush()
    return explainer.causes
  }
}

/// One explanation in progress.
private struct Explainer {
  typealias Family = EditAttribution.Family
  typealias Reason = ChangeCause.Reason

  /// An item or section id of one of the snapshots, resolved to a string only when a cause
  /// starts (so extending a run costs no lookup).
  enum Ref: Equatable {
    case none
    case old(Int32)
    case new(Int32)
  }

  /// The cause being extended.
  struct Pending {
    var change: ChangeCause.Change
    var entry: Int
    var offset: Int
    var count: Int
    var first: Ref
    var reason: Reason
    var related: Ref
    var fields: [FieldChange]
    var edit: Int?
    var after: String?
    var before: String?
  }

  let old: ListSnapshot
  let new: ListSnapshot
  let attribution: EditAttribution?
  let sameTable: Bool
  /// Every interned string of each snapshot's table (shared storage, read without a lock).
  let oldStrings: [String]
  let newStrings: [String]
  let oldSections: [String]
  let newSections: [String]
  var causes: [ChangeCause] = []
  var pending: Pending?

  init(old: ListSnapshot, new: ListSnapshot, attribution: EditAttribution?) {
    self.old = old
    self.new = new
    self.attribution = attribution
    sameTable = old.table === new.table
    oldStrings = old.table.strings()
    newStrings = sameTable ? oldStrings : new.table.strings()
    oldSections = old.sectionIdentifiers
    newSections = new.sectionIdentifiers
  }

  mutating func run(_ changes: Changeset) {
    // At least one cause per entry: growing the array of these large values as it fills cost a
    // fifth of the time (copies and fresh pages).
    causes.reserveCapacity(
      changes.sectionDeletes.count + changes.sectionInserts.count + changes.sectionMoves.count
        + changes.sectionReloads.count + changes.itemDeletes.count + changes.itemInserts.count
        + changes.itemMoves.count + changes.itemReloads.count + changes.itemReconfigures.count + 8)
    for (k, range) in changes.sectionDeletes.enumerated() {
      for (offset, index) in range.enumerated() {
        let id = oldSections[index]
        addSection(.sectionDeletes, k, offset, id, .removed, edit: edit([.sectionDelete], sections: [id]))
      }
    }
    for (k, insert) in changes.sectionInserts.enumerated() {
      let id = newSections[insert.index]
      addSection(.sectionInserts, k, 0, id, .added, edit: edit([.sectionInsert], sections: [id]))
    }
    for (k, move) in changes.sectionMoves.enumerated() {
      let id = newSections[move.to]
      addSection(
        .sectionMoves, k, 0, id, .reordered, edit: edit([.sectionMove], sections: [id]),
        after: move.to > 0 ? newSections[move.to - 1] : nil,
        before: move.to + 1 < newSections.count ? newSections[move.to + 1] : nil)
    }
    for (k, reload) in changes.sectionReloads.enumerated() {
      let store = old.slots[Int(old.order[reload.index])]
      let fields = FieldChange.between(
        header: store.header, footer: store.footer, newHeader: reload.header, newFooter: reload.footer,
        kind: (store.kind, reload.kind), headerMode: (store.headerMode, reload.headerMode))
      addSection(
        .sectionReloads, k, 0, reload.id, fields.isEmpty ? .requested : .changed, fields: fields,
        edit: edit(
          fields.isEmpty ? [.sectionReload] : [.sectionHeader, .sectionReload], sections: [reload.id]))
    }
    for (k, delete) in changes.itemDeletes.enumerated() {
      Self.forEachNode(of: old, section: delete.section, rows: delete.rows) { offset, node in
        explainDelete(node, entry: k, offset: offset)
      }
    }
    for (k, run) in changes.itemInserts.enumerated() {
      Self.forEachNode(of: new, section: run.section, rows: run.range) { offset, node in
        explainInsert(node, entry: k, offset: offset)
      }
    }
    for (k, move) in changes.itemMoves.enumerated() { explainMove(move, entry: k) }
    for (k, run) in changes.itemReloads.enumerated() {
      Self.forEachNode(of: old, section: run.section, rows: run.range) { offset, node in
        // A change of kind is a reload without being asked: explained by the fields.
        if let newNode = counterpart(ofOld: node), newNode.payload.kind != node.payload.kind {
          explainReconfigure(node, newNode, oldStrings, newStrings, entry: k, offset: offset, reload: true)
          return
        }
        extend(
          .itemReloads, k, offset, .old(node.id), .requested,
          edit: attribution == nil ? nil : edit([.reload], item: old.string(node.id)))
      }
    }
    for (k, run) in changes.itemReconfigures.enumerated() {
      Self.forEachNode(of: old, section: run.section, rows: run.range) { offset, node in
        guard let newNode = counterpart(ofOld: node) else { return }
        explainReconfigure(node, newNode, oldStrings, newStrings, entry: k, offset: offset)
      }
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
      addSection(.selectionMode, 0, 0, new.selectionMode.rawValue, .requested, edit: edit([.mode]))
    }
    if changes.columns != nil {
      addSection(.columns, 0, 0, "", .requested, edit: edit([.columns]))
    }
    if changes.emptyState != nil {
      addSection(.emptyState, 0, 0, "", .requested, edit: edit([.emptyState]))
    }
    if changes.isEditing != nil {
      addSection(.isEditing, 0, 0, "", .requested, edit: edit([.editing]))
    }
  }

  // MARK: Rows

  /// Calls `body` with the offset and node of each visible row `rows` of a section. O(log n + rows).
  /// Static: a method of `self` taking a closure that mutates `self` would run on a copy of
  /// `self`, and every cause appended would then copy the causes.
  static func forEachNode(
    of snapshot: ListSnapshot, section: Int, rows: Range<Int>, _ body: (Int, Node) -> Void
  ) {
    guard !rows.isEmpty, section >= 0, section < snapshot.order.count else { return }
    let store = snapshot.slots[Int(snapshot.order[section])]
    guard let position = store.position(ofRow: rows.lowerBound) else { return }
    var offset = 0
    store.nodes.walk(from: position, to: store.nodes.count) { position, node in
      guard offset < rows.count else { return store.nodes.count }
      body(offset, node.pointee)
      offset += 1
      return position + (node.pointee.isExpanded ? 1 : Int(node.pointee.size))
    }
  }

  /// The node of the same item in the other snapshot, by interned id when they share a table.
  func counterpart(ofOld node: Node) -> Node? {
    Self.node(sameAs: node, from: old, in: new, sameTable: sameTable)
  }

  func counterpart(ofNew node: Node) -> Node? {
    Self.node(sameAs: node, from: new, in: old, sameTable: sameTable)
  }

  static func node(sameAs node: Node, from source: ListSnapshot, in target: ListSnapshot, sameTable: Bool)
    -> Node?
  {
    guard sameTable else { return target.itemID(source.string(node.id)).map { target.node($0) } }
    let at = target.location(node.id)
    return at.slot >= 0 ? target.slots[Int(at.slot)].nodes[Int(at.position)] : nil
  }

  mutating func explainDelete(_ oldNode: Node, entry: Int, offset: Int) {
    guard let newNode = counterpart(ofOld: oldNode) else {
      extend(
        .itemDeletes, entry, offset, .old(oldNode.id), .removed,
        edit: attributed([.delete], old.string(oldNode.id), in: old, section: slotSection(oldNode, in: old)))
      return
    }
    let (reason, related) = movedOrHidden(from: oldNode, to: newNode, leaving: true)
    let families: [Family] =
      switch reason {
      case .hidden: [.collapse, .move]  // collapsed, or moved under a collapsed item
      case .reloadedAndMoved: [.reload, .payload, .move]
      default: [.move]
      }
    extend(
      .itemDeletes, entry, offset, .old(oldNode.id), reason, related: related,
      edit: attributed(
        families, old.string(oldNode.id), in: reason == .hidden ? new : old,
        section: slotSection(newNode, in: new)))
  }

  mutating func explainInsert(_ newNode: Node, entry: Int, offset: Int) {
    guard let oldNode = counterpart(ofNew: newNode) else {
      extend(
        .itemInserts, entry, offset, .new(newNode.id), .added,
        edit: attributed([.insert], new.string(newNode.id), in: new, section: slotSection(newNode, in: new)))
      return
    }
    let (reason, related) = movedOrHidden(from: oldNode, to: newNode, leaving: false)
    let families: [Family] =
      switch reason {
      case .revealed: [.expand, .move]
      case .reloadedAndMoved: [.reload, .payload, .move]
      default: [.move]
      }
    extend(
      .itemInserts, entry, offset, .new(newNode.id), reason, related: related,
      edit: attributed(families, new.string(newNode.id), in: new, section: slotSection(newNode, in: new)))
  }

  /// Why an item in both snapshots is a delete (`leaving`) or an insert rather than a move.
  func movedOrHidden(from oldNode: Node, to newNode: Node, leaving: Bool) -> (Reason, Ref) {
    let invisible = leaving ? newNode : oldNode
    if !invisible.isVisible {
      if !sameParent(oldNode, newNode) {
        return (.reparented, newNode.parent >= 0 ? .new(newNode.parent) : .none)
      }
      let snapshot = leaving ? new : old
      let ancestor = outermostCollapsedAncestor(of: invisible, in: snapshot)
      return leaving ? (.hidden, .new(ancestor)) : (.revealed, .old(ancestor))
    }
    if leaving {
      let section = slotSection(newNode, in: new)
      if old.sectionSlot(section) == nil { return (.toInsertedSection, .new(sectionKey(newNode, in: new))) }
    } else {
      let section = slotSection(oldNode, in: old)
      if new.sectionSlot(section) == nil { return (.fromDeletedSection, .old(sectionKey(oldNode, in: old))) }
    }
    return (.reloadedAndMoved, .none)
  }

  func sameParent(_ oldNode: Node, _ newNode: Node) -> Bool {
    if oldNode.parent < 0 || newNode.parent < 0 { return oldNode.parent < 0 && newNode.parent < 0 }
    return sameTable
      ? oldNode.parent == newNode.parent : old.string(oldNode.parent) == new.string(newNode.parent)
  }

  mutating func explainMove(_ move: Changeset.ItemMove, entry: Int) {
    let from = oldSections[move.from.section]
    let sameSection = from == newSections[move.to.section]
    let after = move.to.item > 0 ? item(at: move.to.section, move.to.item - 1) : nil
    let before = item(at: move.to.section, move.to.item + move.count)
    let reason: Reason = sameSection ? .reordered : .changedSection
    let related: Ref = sameSection ? .none : .old(old.slots[Int(old.order[move.from.section])].id)
    Self.forEachNode(of: new, section: move.to.section, rows: move.to.item..<(move.to.item + move.count)) {
      offset, node in
      let edit = attribution == nil ? nil : edit([.move], item: new.string(node.id), ancestorsIn: new)
      extend(
        .itemMoves, entry, offset, .new(node.id), reason, related: related, edit: edit, after: after,
        before: before)
    }
  }

  mutating func explainReconfigure(
    _ oldNode: Node, _ newNode: Node, _ oldStrings: [String], _ newStrings: [String], entry: Int, offset: Int,
    reload: Bool = false
  ) {
    let fields = FieldChange.between(oldNode, newNode, oldStrings, newStrings)
    var edit: Int?
    if attribution != nil {
      var families: [Family] = [.reconfigure]
      for change in fields {
        switch change.field {
        case .expanded: families += [.expand, .collapse]
        case .level, .parent: families.append(.move)
        case .hasChildren: families.append(.children)
        default: if change.isPayload { families.append(.payload) }
        }
      }
      edit = attributed(families, new.string(newNode.id), in: new, section: slotSection(newNode, in: new))
    }
    extend(
      reload ? .itemReloads : .itemReconfigures, entry, offset, .old(oldNode.id),
      fields.isEmpty ? .requested : .changed,
      fields: fields,
      edit: edit)
  }

  mutating func explainDeselect(_ id: String) {
    guard let newNode = new.itemID(id).map({ new.node($0) }) else {
      let sections = old.itemID(id).map { [slotSection(old.node($0), in: old)] } ?? []
      addID(
        .deselected, id, .removed,
        edit: edit([.delete, .deselect], item: id, ancestorsIn: old, sections: sections))
      return
    }
    let section = [slotSection(newNode, in: new)]
    if !newNode.isVisible {
      let ancestor = outermostCollapsedAncestor(of: newNode, in: new)
      addID(
        .deselected, id, .hidden, related: ancestor >= 0 ? new.string(ancestor) : nil,
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

  /// The id of the visible row `row` of new section `section`, or nil. O(log n).
  func item(at section: Int, _ row: Int) -> String? {
    let store = new.slots[Int(new.order[section])]
    return store.position(ofRow: row).map { newStrings[Int(store.nodes[$0].id)] }
  }

  /// The id of the section holding a node.
  func slotSection(_ node: Node, in snapshot: ListSnapshot) -> String {
    snapshot.string(sectionKey(node, in: snapshot))
  }

  /// The interned id of the section holding a node.
  func sectionKey(_ node: Node, in snapshot: ListSnapshot) -> Int32 {
    snapshot.slots[Int(snapshot.location(node.id).slot)].id
  }

  /// The item's section in `new`, for section-scoped edits (none without a batch).
  func section(of id: String) -> [String] {
    guard attribution != nil, let section = new.sectionIdentifier(containingItem: id) else { return [] }
    return [section]
  }

  /// The outermost collapsed ancestor of a hidden node (the expansion that hides it), or -1.
  func outermostCollapsedAncestor(of node: Node, in snapshot: ListSnapshot) -> Int32 {
    var found: Int32 = -1
    var parent = node.parent
    while parent >= 0 {
      let ancestor = snapshot.node(parent)
      if !ancestor.isExpanded { found = parent }
      parent = ancestor.parent
    }
    return found
  }

  /// ``edit(_:item:ancestorsIn:sections:)`` for a row, computing nothing without a batch.
  func attributed(
    _ families: [Family], _ id: @autoclosure () -> String, in snapshot: ListSnapshot,
    section: @autoclosure () -> String
  ) -> Int? {
    guard attribution != nil else { return nil }
    return edit(families, item: id(), ancestorsIn: snapshot, sections: [section()])
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

  func string(_ ref: Ref) -> String? {
    switch ref {
    case .none: return nil
    case .old(let id): return id >= 0 ? oldStrings[Int(id)] : nil
    case .new(let id): return id >= 0 ? newStrings[Int(id)] : nil
    }
  }

  /// Extends the pending cause with one row, or starts a new one. O(1) (plus the fields' size).
  mutating func extend(
    _ change: ChangeCause.Change, _ entry: Int, _ offset: Int, _ first: Ref, _ reason: Reason,
    related: Ref = .none, fields: [FieldChange] = [], edit: Int?, after: String? = nil, before: String? = nil
  ) {
    if let last = pending, last.change == change, last.entry == entry, last.offset + last.count == offset,
      last.reason == reason, last.related == related, last.edit == edit, last.fields == fields
    {
      pending!.count += 1
      return
    }
    flush()
    pending = Pending(
      change: change, entry: entry, offset: offset, count: 1, first: first, reason: reason, related: related,
      fields: fields, edit: edit, after: after, before: before)
  }

  /// Moves the pending cause to `causes`.
  mutating func flush() {
    guard let last = pending else { return }
    pending = nil
    causes.append(
      ChangeCause(
        change: last.change, entry: last.entry, offset: last.offset, count: last.count,
        first: string(last.first),
        reason: last.reason, related: string(last.related), fields: last.fields, edit: last.edit,
        after: last.after,
        before: last.before))
  }

  /// A section change (or the selection mode), one cause each.
  mutating func addSection(
    _ change: ChangeCause.Change, _ entry: Int, _ offset: Int, _ id: String, _ reason: Reason,
    fields: [FieldChange] = [], edit: Int?, after: String? = nil, before: String? = nil
  ) {
    flush()
    let last = causes.count - 1
    if last >= 0, causes[last].change == change, causes[last].entry == entry,
      causes[last].offset + causes[last].count == offset, causes[last].reason == reason,
      causes[last].edit == edit,
      fields.isEmpty, causes[last].fields.isEmpty
    {
      causes[last].count += 1
      return
    }
    var cause = ChangeCause(
      change: change, entry: entry, offset: offset, ids: [id], reason: reason, fields: fields, edit: edit)
    cause.after = after
    cause.before = before
    causes.append(cause)
  }

  /// Appends an id to the last cause of an id list when the cause is the same.
  mutating func addID(
    _ change: ChangeCause.Change, _ id: String, _ reason: Reason, related: String? = nil, edit: Int?
  ) {
    flush()
    let last = causes.count - 1  // by index: a copy of the cause would make each append copy its ids
    if last >= 0, causes[last].change == change, causes[last].reason == reason,
      causes[last].related == related,
      causes[last].edit == edit
    {
      causes[last].rest.append(id)
      causes[last].count += 1
    } else {
      let offset = last >= 0 && causes[last].change == change ? causes[last].offset + causes[last].count : 0
      causes.append(
        ChangeCause(
          change: change, entry: 0, offset: offset, ids: [id], reason: reason, related: related, edit: edit))
    }
  }
}
