// Edit scripts: a list/edit batch that takes one snapshot to another, with the changeset diff gives.

extension ListSnapshot {
  /// A batch of edits that, applied to `old` as one `list/edit`, gives a snapshot equal to `new`
  /// whose changeset is `diff(old, new)` — reloads included: an item or section that `new`
  /// marks for reload or reconfigure since `old` is reloaded or reconfigured by the batch. Nil
  /// when the two differ in selection mode (no edit of the protocol changes it).
  ///
  /// The batch names what changed only: sections and siblings that keep their order are not
  /// named (a longest increasing subsequence of each group stays put, the rest move), new
  /// subtrees are inserted whole, payloads (`updateItems`), expansion and selection are set where
  /// they differ, what `new` lacks is deleted last. Sections whose storage `new` shares with
  /// `old` (same id table, same stamp) are skipped in O(1) each.
  /// O(items of the changed sections + the cost of the moves).
  public static func editScript(from old: ListSnapshot, to new: ListSnapshot) -> [ScriptEdit]? {
    guard old.selectionMode == new.selectionMode else { return nil }
    var builder = EditScriptBuilder(old: old, new: new)
    do {
      try builder.run()
    } catch {
      return nil
    }
    return builder.script
  }
}

/// One edit script being built: ``script`` so far, and `working`, `old` with it applied.
private struct EditScriptBuilder {
  /// New subtrees are inserted whole down to this depth, so an edit stays well inside the
  /// protocol's JSON nesting limit; deeper ones go level by level.
  static let maxInsertedDepth: Int32 = 40

  let old: ListSnapshot
  let new: ListSnapshot
  let sameTable: Bool
  var working: ListSnapshot
  var script: [ScriptEdit] = []
  /// Sections whose items may differ between `old` and `new`, in `new`'s order.
  var changedSections: [String] = []

  init(old: ListSnapshot, new: ListSnapshot) {
    self.old = old
    self.new = new
    sameTable = old.table === new.table
    working = old
  }

  mutating func run() throws(ListModelError) {
    // Columns: the new ones plus the old ones still named by cells first, so every payload on
    // the way is valid; the exact new columns once those payloads are gone.
    if old.columns != new.columns {
      let kept = old.columns.filter { column in !new.columns.contains { $0.id == column.id } }
      if new.columns + kept != old.columns { try emit(.setColumns(new.columns + kept)) }
    }
    try sections()
    for section in changedSections { try placeItems(inSection: section) }
    try deletions()
    try payloadsAndExpansion()
    if working.columns != new.columns { try emit(.setColumns(new.columns)) }
    if old.emptyState != new.emptyState { try emit(.setEmptyState(new.emptyState)) }
    if old.isEditing != new.isEditing { try emit(.setEditing(new.isEditing)) }
    try selection()
    try reloads()
  }

  /// Appends `edit` and applies it to `working`, one model edit at a time (no batch backup).
  mutating func emit(_ edit: ScriptEdit) throws(ListModelError) {
    script.append(edit)
    for model in edit.edits { try working.apply(model) }
  }

  // MARK: - Sections

  mutating func sections() throws(ListModelError) {
    let target = new.sectionIdentifiers
    var targetIndex: [String: Int32] = [:]
    for (index, id) in target.enumerated() { targetIndex[id] = Int32(index) }

    // Sections of both, into `new`'s relative order: those off a longest increasing
    // subsequence move after the previous one of `new` (or before the first).
    let common = working.sectionIdentifiers.filter { targetIndex[$0] != nil }
    let keep = longestIncreasingSubsequence(common.map { targetIndex[$0]! })
    var staying = Set<String>()
    for (index, id) in common.enumerated() where keep[index] { staying.insert(id) }
    var previous: String?
    for id in target where working.contains(section: id) {
      if !staying.contains(id) {
        if let previous {
          try emit(.moveSection(id, .after(previous)))
        } else if let first = working.firstSectionID, first != id {
          try emit(.moveSection(id, .before(first)))
        }
      }
      previous = id
    }

    // New sections, each run of them after the section `new` puts before it.
    var index = 0
    while index < target.count {
      guard !working.contains(section: target[index]) else {
        index += 1
        continue
      }
      var end = index
      var specs: [SectionSpec] = []
      while end < target.count && !working.contains(section: target[end]) {
        let id = target[end]
        specs.append(
          SectionSpec(
            id, header: new.header(ofSection: id), footer: new.footer(ofSection: id),
            kind: new.kind(ofSection: id), headerMode: new.headerMode(ofSection: id)))
        end += 1
      }
      if index > 0 {
        try emit(.insertSections(specs, .after(target[index - 1])))
      } else if let first = working.firstSectionID {
        try emit(.insertSections(specs, .before(first)))
      } else {
        try emit(.appendSections(specs))
      }
      index = end
    }

    for id in target {
      guard let oldSlot = old.sectionSlot(id), let newSlot = new.sectionSlot(id) else {
        if !old.contains(section: id) { changedSections.append(id) }
        continue
      }
      let before = old.slots[Int(oldSlot)]
      let after = new.slots[Int(newSlot)]
      if sameTable && before.stamp == after.stamp { continue }
      changedSections.append(id)
      if before.header != after.header || before.footer != after.footer || before.kind != after.kind
        || before.headerMode != after.headerMode
      {
        try emit(
          .updateSection(
            id, header: before.header != after.header ? .some(after.header) : nil,
            footer: before.footer != after.footer ? .some(after.footer) : nil,
            kind: before.kind != after.kind ? .some(after.kind) : nil,
            headerMode: before.headerMode != after.headerMode ? after.headerMode : nil))
      }
    }
  }

  // MARK: - Items

  /// Puts every item of `new`'s section `section` under its parent, in order, group by group
  /// (a parent's children once the parent is in place): the items of a group that keep their
  /// order stay, the others move after their predecessor, new ones are inserted. An item in
  /// place stays there for good (nothing later moves an ancestor of it), so when every group is
  /// done only what `new` lacks is left between them.
  mutating func placeItems(inSection section: String) throws(ListModelError) {
    guard let slot = new.sectionSlot(section) else { return }
    let nodes = new.slots[Int(slot)].nodes
    let mixed = mixedSubtrees(nodes)
    var groups: [Int?] = [nil]  // positions of parents whose children to place; nil: the roots
    while let parent = groups.popLast() {
      let positions = Self.childPositions(of: parent, in: nodes)
      let children = positions.map { new.string(nodes[$0].id) }
      let parentID = parent.map { new.string(nodes[$0].id) }
      var targetIndex: [String: Int32] = [:]
      for (index, id) in children.enumerated() { targetIndex[id] = Int32(index) }
      let current = working.childIDs(of: parentID, inSection: section).filter { targetIndex[$0] != nil }
      let keep = longestIncreasingSubsequence(current.map { targetIndex[$0]! })
      var staying = Set<String>()
      for (index, id) in current.enumerated() where keep[index] { staying.insert(id) }

      var index = 0
      while index < children.count {
        let id = children[index]
        if staying.contains(id) {
          groups.append(positions[index])
        } else if working.contains(item: id) {
          if !isPlaced(id, at: index, children, parent: parentID, section: section) {
            try emit(.moveItem(id, destination(at: index, children, parent: parentID, section: section)))
          }
          groups.append(positions[index])
        } else if !mixed.contains(positions[index]) {
          // A run of new subtrees, inserted whole.
          var end = index
          var trees: [OutlineNode] = []
          while end < children.count, !working.contains(item: children[end]), !mixed.contains(positions[end])
          {
            trees.append(tree(at: positions[end], in: nodes))
            end += 1
          }
          try emit(insertion(trees, at: index, children, parent: parentID, section: section))
          index = end
          continue
        } else {
          // New, but with old items below it: inserted alone; its group comes later.
          let node = nodes[positions[index]]
          let leaf = OutlineNode(ListItem(id, payload: node.payload), isExpanded: node.isExpanded)
          try emit(insertion([leaf], at: index, children, parent: parentID, section: section))
          groups.append(positions[index])
        }
        index += 1
      }
    }
  }

  /// Positions of `new`'s nodes that cannot be inserted as a whole subtree: an ancestor of an
  /// item `old` has, or of an item more than ``maxInsertedDepth`` levels below it. O(nodes).
  func mixedSubtrees(_ nodes: NodeChunks) -> Set<Int> {
    var mixed = Set<Int>()
    var ancestors: [Int] = []  // positions of the ancestors of the current node, outermost first
    for position in nodes.indices {
      let node = nodes[position]
      ancestors.removeLast(ancestors.count - Int(node.level))
      let known = working.contains(item: new.string(node.id))
      if known || (node.level > 0 && node.level % Self.maxInsertedDepth == 0) {
        for ancestor in ancestors.reversed() {
          guard mixed.insert(ancestor).inserted else { break }
        }
      }
      ancestors.append(position)
    }
    return mixed
  }

  /// The positions of the children of the node at `parent` (the roots when nil), in order.
  static func childPositions(of parent: Int?, in nodes: NodeChunks) -> [Int] {
    var result: [Int] = []
    var position = parent.map { $0 + 1 } ?? 0
    let end = parent.map { $0 + Int(nodes[$0].size) } ?? nodes.count
    while position < end {
      result.append(position)
      position += Int(nodes[position].size)
    }
    return result
  }

  /// `new`'s subtree at `position`, as new items.
  func tree(at position: Int, in nodes: NodeChunks) -> OutlineNode {
    let node = nodes[position]
    let children = Self.childPositions(of: position, in: nodes).map { tree(at: $0, in: nodes) }
    return OutlineNode(
      ListItem(new.string(node.id), payload: node.payload), children: children, isExpanded: node.isExpanded)
  }

  /// Whether `id` already sits at `index` of the group: first under its parent (or first root),
  /// or right after the group's previous item.
  func isPlaced(_ id: String, at index: Int, _ children: [String], parent: String?, section: String) -> Bool {
    if index == 0 { return working.firstChildID(of: parent, inSection: section) == id }
    return working.nextSiblingID(of: children[index - 1]) == id
  }

  /// Where `moveItem` puts the group's item `index`: after its predecessor, else before the
  /// first item of the group's parent, else as its parent's (or section's) only item.
  func destination(at index: Int, _ children: [String], parent: String?, section: String)
    -> ScriptEdit.Destination
  {
    if index > 0 { return .sibling(.after(children[index - 1])) }
    if let first = working.firstChildID(of: parent, inSection: section) { return .sibling(.before(first)) }
    return parent.map { .parent($0) } ?? .section(section)
  }

  /// The insertion of new subtrees at `index` of the group, placed as ``destination(at:_:parent:section:)`` says.
  func insertion(
    _ trees: [OutlineNode], at index: Int, _ children: [String], parent: String?, section: String
  )
    -> ScriptEdit
  {
    switch destination(at: index, children, parent: parent, section: section) {
    case .sibling(let anchor): return .insertItems(trees, anchor)
    case .parent(let parent): return .appendChildren(trees, parent: parent)
    case .section(let section): return .appendItems(trees, section: section)
    }
  }

  /// Deletes what `new` lacks: the outermost such items of the changed sections (their
  /// subtrees hold nothing `new` has: every item of `new` is in place by now), then the
  /// sections `new` lacks, with what is left in them.
  mutating func deletions() throws(ListModelError) {
    var doomed: [String] = []
    for section in changedSections {
      guard let slot = working.sectionSlot(section) else { continue }
      let nodes = working.slots[Int(slot)].nodes
      var position = 0
      while position < nodes.count {
        let id = working.string(nodes[position].id)
        if new.contains(item: id) {
          position += 1
        } else {
          doomed.append(id)
          position += Int(nodes[position].size)
        }
      }
    }
    if !doomed.isEmpty { try emit(.deleteItems(doomed)) }
    let gone = working.sectionIdentifiers.filter { !new.contains(section: $0) }
    if !gone.isEmpty { try emit(.deleteSections(gone)) }
  }

  // MARK: - Payloads, expansion, selection, reloads

  mutating func payloadsAndExpansion() throws(ListModelError) {
    var updated: [ListItem] = []
    var expansion: [ScriptEdit] = []
    for section in changedSections {
      guard let slot = new.sectionSlot(section) else { continue }
      for node in new.slots[Int(slot)].nodes {
        let id = new.string(node.id)
        guard let at = working.itemID(id) else { continue }
        let current = working.node(at)
        if current.payload != node.payload { updated.append(ListItem(id, payload: node.payload)) }
        if current.isExpanded != node.isExpanded {
          expansion.append(node.isExpanded ? .expand(id) : .collapse(id))
        }
      }
    }
    if !updated.isEmpty { try emit(.updateItems(updated)) }
    for edit in expansion { try emit(edit) }
  }

  /// Deselects what `new` does not select, then selects what it does (in index-path order).
  mutating func selection() throws(ListModelError) {
    let target = new.selectedItems
    let wanted = Set(target)
    let extra = working.selectedItems.filter { !wanted.contains($0) }
    if !extra.isEmpty { try emit(.deselect(extra)) }
    let missing = target.filter { !working.isSelected($0) }
    if !missing.isEmpty { try emit(.select(missing)) }
  }

  /// The reloads `diff(old, new)` reports by marks: sections and visible items of both whose
  /// mark in `new` is set and differs from `old`'s (any set mark when the id tables differ: the
  /// diff then re-interns `new`, giving every mark a fresh stamp).
  mutating func reloads() throws(ListModelError) {
    var sections: [String] = []
    var reloaded: [String] = []
    var reconfigured: [String] = []
    for section in changedSections {
      guard let newSlot = new.sectionSlot(section), let oldSlot = old.sectionSlot(section) else { continue }
      let store = new.slots[Int(newSlot)]
      if store.mark != 0 && (!sameTable || old.slots[Int(oldSlot)].mark != store.mark) {
        sections.append(section)
      }
      for node in store.nodes where node.mark != 0 && node.isVisible {
        let id = new.string(node.id)
        if sameTable {
          guard old.location(node.id).slot >= 0, old.node(node.id).mark != node.mark else { continue }
        } else {
          guard old.contains(item: id) else { continue }
        }
        if node.mark & 1 == 1 { reloaded.append(id) } else { reconfigured.append(id) }
      }
    }
    if !sections.isEmpty { try emit(.reloadSections(sections)) }
    if !reconfigured.isEmpty { try emit(.reconfigureItems(reconfigured)) }
    if !reloaded.isEmpty { try emit(.reloadItems(reloaded)) }
  }
}

extension ListSnapshot {
  /// The id of the first section, or nil. O(1).
  fileprivate var firstSectionID: String? {
    order.first.map { string(slots[Int($0)].id) }
  }

  /// The children of `parent` (the roots of `section` when nil), in order. O(children).
  fileprivate func childIDs(of parent: String?, inSection section: String) -> [String] {
    guard let parent else { return rootIDs(inSection: section) }
    guard let item = itemID(parent) else { return [] }
    let at = location(item)
    let nodes = slots[Int(at.slot)].nodes
    var result: [String] = []
    var position = Int(at.position) + 1
    let end = Int(at.position) + Int(nodes[Int(at.position)].size)
    while position < end {
      result.append(string(nodes[position].id))
      position += Int(nodes[position].size)
    }
    return result
  }

  /// The roots of a section, reading ids one by one (no copy of the whole id table). O(roots).
  private func rootIDs(inSection section: String) -> [String] {
    guard let slot = sectionSlot(section) else { return [] }
    let nodes = slots[Int(slot)].nodes
    var result: [String] = []
    var position = 0
    while position < nodes.count {
      result.append(string(nodes[position].id))
      position += Int(nodes[position].size)
    }
    return result
  }

  /// The first child of `parent` (the first root of `section` when nil), or nil. O(1).
  fileprivate func firstChildID(of parent: String?, inSection section: String) -> String? {
    if let parent {
      guard let item = itemID(parent) else { return nil }
      let at = location(item)
      let nodes = slots[Int(at.slot)].nodes
      return nodes[Int(at.position)].size > 1 ? string(nodes[Int(at.position) + 1].id) : nil
    }
    guard let slot = sectionSlot(section), let first = slots[Int(slot)].nodes.first else { return nil }
    return string(first.id)
  }

  /// The sibling right after an item and its subtree, or nil. O(1).
  fileprivate func nextSiblingID(of id: String) -> String? {
    guard let item = itemID(id) else { return nil }
    let at = location(item)
    let nodes = slots[Int(at.slot)].nodes
    let next = Int(at.position) + Int(nodes[Int(at.position)].size)
    guard next < nodes.count, nodes[next].parent == nodes[Int(at.position)].parent else { return nil }
    return string(nodes[next].id)
  }
}
