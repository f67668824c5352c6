// Outline edits and queries: children, subtrees, moves under a parent, expand and collapse.

/// The rows an expand or collapse of one node showed or hid.
struct ExpansionEffect {
  var slot: Int32
  /// The node's row, if it is visible.
  var row: Int?
  /// Number of rows that appeared (expand) or disappeared (collapse) just after the node.
  var affectedRows: Int
  /// Selected items the collapse hid, now deselected.
  var deselected: [Int32]
}

extension ListSnapshot {
  /// Appends trees of new items as roots at the end of a section (the last if nil).
  /// O(nodes + section size).
  public mutating func appendTrees(_ trees: [OutlineNode], toSection section: String? = nil)
    throws(ListModelError)
  {
    try appendTrees(trees, toSection: section, inheritingExpansionFrom: nil)
  }

  /// Appends trees of new items as roots at the end of a section (the last if nil); each node
  /// marked ``OutlineNode/inheritsExpansion`` takes the expansion its item has in `base`
  /// (its own `isExpanded` if `base` is nil or lacks the item). When `base` shares this
  /// snapshot's id table, that costs no extra string hash, and items that follow `base`'s
  /// order are interned without hashing at all (one string comparison each).
  /// O(nodes + section size).
  public mutating func appendTrees(
    _ trees: [OutlineNode], toSection section: String? = nil, inheritingExpansionFrom base: ListSnapshot?
  ) throws(ListModelError) {
    let slot = try targetSection(section)
    if template != nil, base.map({ $0.table === table }) ?? true,
      adoptTemplateSection(
        slot, count: trees.count,
        { k, node, id in
          guard trees[k].children.isEmpty, bytesEqual(id.pointee, trees[k].item.id),
            Self.holds(node, trees[k].item.payload)
          else { return false }
          var isExpanded = trees[k].isExpanded
          if trees[k].inheritsExpansion, let placed = base?.placed(node.pointee.id) {
            isExpanded = placed.node.isExpanded
          }
          return isExpanded == node.pointee.isExpanded
        })
    {
      return
    }
    let ids = try claimNewItems(Self.preorderIDs(trees), orderedLike: base)
    let block = makeBlock(trees, ids: ids, level: 0, parent: -1, inheritingExpansionFrom: base)
    insertBlock(block, into: slot, at: slots[Int(slot)].nodes.count)
  }

  /// Appends trees of new items as the last children of `parent`. O(nodes + section size).
  public mutating func appendTrees(_ trees: [OutlineNode], under parent: String) throws(ListModelError) {
    let parentID = try requireItem(parent)
    let ids = try claimNewItems(Self.preorderIDs(trees))
    let at = location(parentID)
    let node = slots[Int(at.slot)].nodes[Int(at.position)]
    let block = makeBlock(
      trees, ids: ids, level: node.level + 1, parent: parentID, inheritingExpansionFrom: nil)
    insertBlock(block, into: at.slot, at: Int(at.position) + Int(node.size))
  }

  /// Appends new leaf items as the last children of `parent` (hidden until it is expanded;
  /// new parents start collapsed). O(k + section size).
  public mutating func appendChildren(_ items: [ListItem], to parent: String) throws(ListModelError) {
    try appendTrees(items.map { OutlineNode($0) }, under: parent)
  }

  /// Moves an item (with its subtree) to be the last child of `parent`. O(section sizes).
  public mutating func moveItem(_ id: String, toParent parent: String) throws(ListModelError) {
    let moving = try requireItem(id)
    let parentID = try requireItem(parent)
    if moving == parentID { throw ListModelError(.itemMovedRelativeToItself(id)) }
    try checkNotInSubtree(parentID, of: moving, names: (id, parent))
    var block = detach(moving)
    let at = location(parentID)
    let node = slots[Int(at.slot)].nodes[Int(at.position)]
    Self.reparent(&block, level: node.level + 1, parent: parentID)
    insertBlock(block, into: at.slot, at: Int(at.position) + Int(node.size))
    pruneSelection()
  }

  /// Moves an item (with its subtree) to be the last root of a section. O(section sizes).
  public mutating func moveItem(_ id: String, toSection section: String) throws(ListModelError) {
    let moving = try requireItem(id)
    let slot = try requireSection(section)
    var block = detach(moving)
    Self.reparent(&block, level: 0, parent: -1)
    insertBlock(block, into: slot, at: slots[Int(slot)].nodes.count)
    pruneSelection()
  }

  // MARK: - Expansion

  /// Expands items. Each costs O(rows that appear + log n): only the rows shown are visited,
  /// collapsed descendants are skipped by their subtree size, and the row index is a Fenwick
  /// tree (O(runs × log n) when the shown rows are split by collapsed descendants). Expanding an
  /// expanded item does nothing; expanding a leaf records the state for when it gets children.
  public mutating func expand(_ ids: [String]) throws(ListModelError) {
    var resolved: [Int32] = []
    for id in ids { resolved.append(try requireItem(id)) }
    for id in resolved { _ = setExpanded(id, true) }
  }

  /// Collapses items, hiding their descendants (whose own expansion state is kept); hidden
  /// selected items are deselected. Each costs O(rows that disappear + log n), as ``expand(_:)``.
  public mutating func collapse(_ ids: [String]) throws(ListModelError) {
    var resolved: [Int32] = []
    for id in ids { resolved.append(try requireItem(id)) }
    for id in resolved { _ = setExpanded(id, false) }
  }

  /// Expands or collapses one node, returning what changed (nil if nothing did).
  mutating func setExpanded(_ id: Int32, _ expanded: Bool) -> ExpansionEffect? {
    let at = location(id)
    let s = Int(at.slot)
    let position = Int(at.position)
    let node = slots[s].nodes[position]
    guard node.isExpanded != expanded else { return nil }
    slots[s].nodes[position].isExpanded = expanded
    touch(at.slot)
    var effect = ExpansionEffect(slot: at.slot, row: nil, affectedRows: 0, deselected: [])
    guard node.isVisible else { return effect }
    effect.row = slots[s].row(ofPosition: position)
    guard node.size > 1 else { return effect }
    let before = slots[s].visibleCount
    let runs = slots[s].setDescendantsVisible(of: position, expanded)
    var deselected: [Int32] = []
    if !expanded && !selection.isEmpty {
      for run in runs {
        slots[s].nodes.forEach(in: run) { _, node in
          if selection.contains(node.pointee.id) { deselected.append(node.pointee.id) }
        }
      }
    }
    if !deselected.isEmpty {
      for hidden in deselected { selection.remove(hidden) }
      touchSelection()
    }
    effect.deselected = deselected
    effect.affectedRows = abs(slots[s].visibleCount - before)
    return effect
  }

  /// Expands an item and all its descendants. O(section size).
  public mutating func expandSubtree(_ id: String) throws(ListModelError) {
    try setSubtreeExpanded(id, true)
  }

  /// Collapses an item and all its descendants; hidden selected items are deselected.
  /// O(section size).
  public mutating func collapseSubtree(_ id: String) throws(ListModelError) {
    try setSubtreeExpanded(id, false)
  }

  private mutating func setSubtreeExpanded(_ id: String, _ expanded: Bool) throws(ListModelError) {
    let at = location(try requireItem(id))
    let start = Int(at.position)
    let end = start + Int(slots[Int(at.slot)].nodes[start].size)
    // Leaves keep their state: expanding "everything" means the items that have children.
    setExpanded(inSlot: at.slot, positions: start..<end) {
      expanded ? ($0.hasChildren || $0.isExpanded) : false
    }
  }

  /// Expands every item that has children in a section (every section if nil); leaves keep
  /// their state. O(items of those sections).
  public mutating func expandAll(inSection section: String? = nil) throws(ListModelError) {
    for slot in try slotsNamed(section) {
      setExpanded(inSlot: slot, positions: 0..<slots[Int(slot)].nodes.count) {
        $0.hasChildren || $0.isExpanded
      }
    }
  }

  /// Collapses every item of a section (every section if nil); hidden selected items are
  /// deselected. O(items of those sections).
  public mutating func collapseAll(inSection section: String? = nil) throws(ListModelError) {
    for slot in try slotsNamed(section) {
      setExpanded(inSlot: slot, positions: 0..<slots[Int(slot)].nodes.count) { _ in false }
    }
  }

  /// Expands items above `level` and collapses the others, so exactly the rows of levels
  /// 0...level are visible (level 0 shows only roots; negative counts as 0). In one section,
  /// or all if nil. Like the other outline edits, expanding skips leaves (a leaf above `level`
  /// keeps its state) while collapsing includes them: level 0 is ``collapseAll(inSection:)``.
  /// O(items of those sections).
  public mutating func expand(toLevel level: Int, inSection section: String? = nil) throws(ListModelError) {
    let limit = Int32(clamping: max(level, 0))
    for slot in try slotsNamed(section) {
      setExpanded(inSlot: slot, positions: 0..<slots[Int(slot)].nodes.count) {
        $0.level < limit && ($0.hasChildren || $0.isExpanded)
      }
    }
  }

  func slotsNamed(_ section: String?) throws(ListModelError) -> [Int32] {
    if let section { return [try requireSection(section)] }
    return order
  }

  /// Sets the expansion of the nodes at `positions` of section `slot` to `state(node)`;
  /// whether any changed. O(section size).
  @discardableResult
  mutating func setExpanded(inSlot slot: Int32, positions: Range<Int>, _ state: (Node) -> Bool) -> Bool {
    let s = Int(slot)
    var changed = false
    slots[s].nodes.modify(in: positions) { _, nodes in
      for position in nodes.indices {
        let expanded = state(nodes[position])
        if nodes[position].isExpanded != expanded {
          nodes[position].isExpanded = expanded
          changed = true
        }
      }
    }
    guard changed else { return false }
    slots[s].rebuildVisibility()
    touch(slot)
    pruneSelection()
    return true
  }

  // MARK: - Queries

  /// The parent of an item, or nil for a root or an unknown item. O(1).
  public func parent(of id: String) -> String? {
    guard let item = itemID(id) else { return nil }
    let parent = node(item).parent
    return parent >= 0 ? string(parent) : nil
  }

  /// The children of an item, in order (hidden ones included); empty for a leaf or an
  /// unknown item. O(number of children).
  public func children(of id: String) -> [String] {
    guard let item = itemID(id) else { return [] }
    let at = location(item)
    let nodes = slots[Int(at.slot)].nodes
    let start = Int(at.position)
    let end = start + Int(nodes[start].size)
    var result: [String] = []
    var position = start + 1
    let strings = table.strings()
    while position < end {
      result.append(strings[Int(nodes[position].id)])
      position += Int(nodes[position].size)
    }
    return result
  }

  /// The depth of an item (0 for roots), or nil if unknown. O(1).
  public func level(of id: String) -> Int? {
    itemID(id).map { Int(node($0).level) }
  }

  /// The root items of a section, in order (empty for an unknown section).
  /// O(number of roots).
  public func rootItems(inSection section: String) -> [String] {
    guard let slot = sectionSlot(section) else { return [] }
    let nodes = slots[Int(slot)].nodes
    let strings = table.strings()
    var result: [String] = []
    var position = 0
    while position < nodes.count {
      result.append(strings[Int(nodes[position].id)])
      position += Int(nodes[position].size)
    }
    return result
  }

  /// Whether an item is expanded (its own state, even while an ancestor is collapsed). O(1).
  public func isExpanded(_ id: String) -> Bool {
    itemID(id).map { node($0).isExpanded } ?? false
  }

  /// Whether an item is visible (every ancestor expanded), i.e. has an index path. O(1).
  public func isVisible(_ id: String) -> Bool {
    itemID(id).map { node($0).isVisible } ?? false
  }

  /// Whether an item has children. O(1).
  public func hasChildren(_ id: String) -> Bool {
    itemID(id).map { node($0).hasChildren } ?? false
  }

  /// The visible items of a section, in row order. O(rows).
  public func visibleItems(inSection section: String) -> [String] {
    itemIdentifiers(inSection: section)
  }
}
