// Item edits: append, insert before/after, delete, delete all, move, replace, reload, reconfigure.

extension ListSnapshot {
  /// Appends items as roots at the end of a section (the last section if nil).
  /// O(k + c) in a flat section (c: a chunk of up to 1,024 nodes plus the section's chunk
  /// count, what a new version copies: the chunks' starts, as integers); O(section size) in an
  /// outline section.
  /// Throws `noSections` when there is no section, `unknownSection`, or `duplicateItem`.
  public mutating func appendItems(_ items: [ListItem], toSection section: String? = nil)
    throws(ListModelError)
  {
    let slot = try targetSection(section)
    if template != nil,
      items.withUnsafeBufferPointer({ items in
        let idOffset = MemoryLayout<ListItem>.offset(of: \ListItem.id)!
        return adoptTemplateSection(
          slot, count: items.count,
          { k, node, id in
            let itemID = (UnsafeRawPointer(items.baseAddress! + k) + idOffset).assumingMemoryBound(
              to: String.self)
            return !node.pointee.isExpanded && bytesEqual(id, itemID) && Self.holds(node, items[k].payload)
          })
      })
    {
      return
    }
    try appendBlock(items, into: slot)
  }

  /// Appends items with empty payloads (see the `[ListItem]` overload). O(k) in a flat section.
  public mutating func appendItems(_ ids: [String], toSection section: String? = nil) throws(ListModelError) {
    let slot = try targetSection(section)
    let empty = ItemPayload()
    if template != nil,
      ids.withUnsafeBufferPointer({ ids in
        adoptTemplateSection(
          slot, count: ids.count,
          { k, node, id in
            !node.pointee.isExpanded && bytesEqual(id, ids.baseAddress! + k) && Self.holds(node, empty)
          })
      })
    {
      return
    }
    // The ids are claimed as given and every node shares the one empty payload: no `[ListItem]`
    // (a retain and a release of each id and payload) in between.
    let claimed = try claimNewItems(ids)
    appendRoots(count: claimed.count, to: slot) {
      Node(id: claimed[$0], level: 0, parent: -1, isExpanded: false, payload: empty)
    }
  }

  /// Appends `count` roots made by `make(k)` at the end of section `slot`: in a flat section
  /// straight into its chunks (no block of nodes copied in between), else as ``insertBlock(_:into:at:)``.
  /// The ids must be claimed. O(count + c) in a flat section.
  private mutating func appendRoots(count: Int, to slot: Int32, _ make: (Int) -> Node) {
    let s = Int(slot)
    guard slots[s].visibility == nil, slots[s].nestedCount == 0 else {
      return insertBlock((0..<count).map(make), into: slot, at: slots[s].nodes.count)
    }
    guard count > 0 else { return }
    // As insertBlock for roots of a flat section: no ancestor, every node visible.
    let moved = slots[s].nodes.append(count: count, make)
    itemCount += count
    relocate(slot, moved)
    slots[s].visibleCount = slots[s].nodes.count
    touch(slot)
  }

  /// Appends flat items at the end of section `slot`, hashing their ids (guessing them from the
  /// template's order, as `appendTrees` does from its base, costs a position lookup per item
  /// and did not pay in the anchorbench's churn rows).
  private mutating func appendBlock(_ items: [ListItem], into slot: Int32) throws(ListModelError) {
    let ids = try claimNewItems(items.map(\.id))
    appendRoots(count: ids.count, to: slot) {
      Node(id: ids[$0], level: 0, parent: -1, isExpanded: false, payload: items[$0].payload)
    }
  }

  /// Inserts items as siblings just before `before` (same parent and level).
  /// O(k + c) in a flat section (see ``appendItems(_:toSection:)``); O(section size) in an
  /// outline section.
  public mutating func insertItems(_ items: [ListItem], before: String) throws(ListModelError) {
    let anchor = try requireItem(before)
    try insertItems(items, at: location(anchor), after: false)
  }

  /// Inserts items as siblings just after `after` and its subtree (same parent and level).
  /// O(k + c) in a flat section (see ``appendItems(_:toSection:)``); O(section size) in an
  /// outline section.
  public mutating func insertItems(_ items: [ListItem], after: String) throws(ListModelError) {
    let anchor = try requireItem(after)
    try insertItems(items, at: location(anchor), after: true)
  }

  private mutating func insertItems(_ items: [ListItem], at anchor: ItemLocation, after: Bool)
    throws(ListModelError)
  {
    let ids = try claimNewItems(items.map(\.id))
    let node = slots[Int(anchor.slot)].nodes[Int(anchor.position)]
    let position = Int(anchor.position) + (after ? Int(node.size) : 0)
    insertBlock(
      makeBlock(items, ids: ids, level: node.level, parent: node.parent), into: anchor.slot, at: position)
  }

  /// The slot named by `section`, or the last section if nil.
  func targetSection(_ section: String?) throws(ListModelError) -> Int32 {
    if let section { return try requireSection(section) }
    guard let last = order.last else { throw ListModelError(.noSections) }
    return last
  }

  /// Deletes items with their whole subtrees; they leave the selection. Naming an item that
  /// an earlier id's subtree already removed is fine. One id in a flat section: O(c) (see
  /// ``appendItems(_:toSection:)``); else O(k + size of the touched sections).
  public mutating func deleteItems(_ ids: [String]) throws(ListModelError) {
    var doomed: [Int32] = []
    doomed.reserveCapacity(ids.count)
    for id in ids { doomed.append(try requireItem(id)) }
    if doomed.count == 1 {
      let location = location(doomed[0])
      let size = Int(slots[Int(location.slot)].nodes[Int(location.position)].size)
      removeBlock(from: location.slot, at: Int(location.position), count: size)
      pruneSelection()
      return
    }
    // Mark every doomed subtree, then compact each touched section in one pass.
    var touched: [Int32] = []
    for id in doomed {
      let location = location(id)
      guard location.slot >= 0 else { continue }
      let s = Int(location.slot)
      if !touched.contains(location.slot) { touched.append(location.slot) }
      let start = Int(location.position)
      let end = start + Int(slots[s].nodes[start].size)
      for position in start..<end {
        let nodeID = slots[s].nodes[position].id
        if locations[Int(nodeID)].slot >= 0 {
          locations[Int(nodeID)] = .claimed
          itemCount -= 1
        }
      }
    }
    var deselected = false
    for slot in touched {
      let s = Int(slot)
      var kept: [Node] = []
      kept.reserveCapacity(slots[s].nodes.count)
      for node in slots[s].nodes {
        if locations[Int(node.id)].slot == -2 {
          locations[Int(node.id)] = .absent
          if !selection.isEmpty, selection.remove(node.id) != nil { deselected = true }
        } else {
          kept.append(node)
        }
      }
      slots[s].nodes = NodeChunks(kept)
      renormalize(slot)
    }
    if deselected { touchSelection() }
    pruneSelection()
  }

  /// Deletes every item and every section, as `NSDiffableDataSourceSnapshot.deleteAllItems()`
  /// does. To empty one section, use ``replaceItems(_:inSection:)`` with no items.
  /// O(items + sections).
  public mutating func deleteAllItems() {
    if !selection.isEmpty {
      selection.removeAll()
      touchSelection()
    }
    for slot in order {
      for node in slots[Int(slot)].nodes { locations[Int(node.id)] = .absent }
    }
    slots = []
    order = []
    indexOfSlot = []
    freeSlots = []
    slotOfSection = [:]
    itemCount = 0
  }

  /// Replaces a section's items (all of them, subtrees included) with flat items. Ids already
  /// in this section keep their identity (so a diff reports them as moved or unchanged, and
  /// they stay selected if still selectable); ids elsewhere in the list are duplicates.
  /// O(k + section size).
  public mutating func replaceItems(_ items: [ListItem], inSection section: String) throws(ListModelError) {
    try replaceItems(items.map { OutlineNode($0) }, inSection: section)
  }

  /// Replaces a section's items (all of them, subtrees included) with trees of items, as
  /// `list/replace` does for one section. Ids already in this section keep their identity and
  /// stay selected while visible and selectable; a node marked
  /// ``OutlineNode/inheritsExpansion`` keeps the expansion its item has now (in a batch: after
  /// the edits before this one). Ids elsewhere in the list are duplicates. Content equal to the
  /// section's changes nothing. O(nodes + section size).
  public mutating func replaceItems(_ trees: [OutlineNode], inSection section: String) throws(ListModelError)
  {
    let slot = try requireSection(section)
    let strings = Self.preorderIDs(trees)
    let ids = table.intern(strings)
    if let maxID = ids.max() { ensureLocationCapacity(maxID) }
    // Validate: new ids must be absent or in this section, and unique in the batch; an id in
    // another section is reported before one repeated within the batch.
    for (index, id) in ids.enumerated() {
      let location = locations[Int(id)]
      if location.slot >= 0 && location.slot != slot { throw ListModelError(.duplicateItem(strings[index])) }
    }
    var seen = Set<Int32>(minimumCapacity: ids.count)
    for (index, id) in ids.enumerated() where !seen.insert(id).inserted {
      throw ListModelError(.duplicateItem(strings[index]))
    }
    // Built before anything changes, so expansion is inherited from the state as it is now.
    let block = makeBlock(trees, ids: ids, level: 0, parent: -1, inheritingExpansionFrom: self)
    let s = Int(slot)
    var deselected = false
    for node in slots[s].nodes where !seen.contains(node.id) {
      locations[Int(node.id)] = .absent
      if !selection.isEmpty, selection.remove(node.id) != nil { deselected = true }
    }
    if deselected { touchSelection() }
    itemCount += ids.count - slots[s].nodes.count
    slots[s].nodes = NodeChunks(block)
    renormalize(slot)
    pruneSelection()
  }

  /// Moves an item (with its subtree) just before another, as its sibling; across sections
  /// too. O(subtree + c) between flat sections (see ``appendItems(_:toSection:)``); O(size of
  /// the touched sections) in outline sections.
  public mutating func moveItem(_ id: String, before: String) throws(ListModelError) {
    try moveItem(id, relativeTo: before, after: false)
  }

  /// Moves an item (with its subtree) just after another and its subtree, as its sibling;
  /// across sections too. O(subtree + c) between flat sections (see
  /// ``appendItems(_:toSection:)``); O(size of the touched sections) in outline sections.
  public mutating func moveItem(_ id: String, after: String) throws(ListModelError) {
    try moveItem(id, relativeTo: after, after: true)
  }

  private mutating func moveItem(_ id: String, relativeTo anchorString: String, after: Bool)
    throws(ListModelError)
  {
    let moving = try requireItem(id)
    let anchor = try requireItem(anchorString)
    if moving == anchor { throw ListModelError(.itemMovedRelativeToItself(id)) }
    try checkNotInSubtree(anchor, of: moving, names: (id, anchorString))
    var block = detach(moving)
    let target = location(anchor)
    let node = slots[Int(target.slot)].nodes[Int(target.position)]
    Self.reparent(&block, level: node.level, parent: node.parent)
    let position = Int(target.position) + (after ? Int(node.size) : 0)
    insertBlock(block, into: target.slot, at: position)
    pruneSelection()
  }

  /// Throws `itemMovedIntoOwnSubtree` if `target` is in the subtree of `moving`. O(1).
  func checkNotInSubtree(_ target: Int32, of moving: Int32, names: (String, String)) throws(ListModelError) {
    let from = location(moving)
    let to = location(target)
    guard from.slot == to.slot else { return }
    let size = slots[Int(from.slot)].nodes[Int(from.position)].size
    if to.position > from.position && to.position < from.position + size {
      throw ListModelError(.itemMovedIntoOwnSubtree(names.0, names.1))
    }
  }

  /// Removes an item's subtree for a move, keeping selection (pruned after reinsertion).
  mutating func detach(_ id: Int32) -> [Node] {
    let from = location(id)
    let size = Int(slots[Int(from.slot)].nodes[Int(from.position)].size)
    return removeBlock(from: from.slot, at: Int(from.position), count: size, deselecting: false)
  }

  /// Marks items for reload (the last of reload and reconfigure on an item wins): the next
  /// `diff` against a snapshot from before the mark reports each visible one in `itemReloads` (or, if
  /// it also moved, as a delete and an insert, since UIKit cannot move and reload one item).
  /// O(k).
  public mutating func reloadItems(_ ids: [String]) throws(ListModelError) {
    try mark(ids, reload: true)
  }

  /// Marks items for reconfiguration (the last of reload and reconfigure on an item wins): the
  /// next `diff` against a snapshot from before the mark reports each visible one in
  /// `itemReconfigures` even if its payload did not change. O(k).
  public mutating func reconfigureItems(_ ids: [String]) throws(ListModelError) {
    try mark(ids, reload: false)
  }

  private mutating func mark(_ ids: [String], reload: Bool) throws(ListModelError) {
    var marked: [Int32] = []
    for id in ids { marked.append(try requireItem(id)) }
    for id in marked {
      let location = location(id)
      let stamp = table.nextStamp() << 1
      slots[Int(location.slot)].nodes[Int(location.position)].mark = stamp | (reload ? 1 : 0)
      touch(location.slot)
    }
  }

  /// After a batch: marks again the items that a `reloadItems` or `reconfigureItems` of the batch
  /// named, that still exist, and whose node a later edit re-created (deleted and added again,
  /// or replaced by `replaceItems`), losing the mark. So a reload holds for the item through the
  /// whole batch (the last of reload and reconfigure wins); a deleted item is only deleted.
  /// The batch `apply` calls it; a caller that applies a batch's edits one by one calls
  /// it after the last. O(ids marked in the batch).
  public mutating func remarkReloadedItems(of edits: [ListEdit]) {
    var wanted: [String: Bool] = [:]
    for edit in edits {
      switch edit {
      case .reloadItems(let ids): for id in ids { wanted[id] = true }
      case .reconfigureItems(let ids): for id in ids { wanted[id] = false }
      default: continue
      }
    }
    for (id, reload) in wanted {
      guard let item = itemID(id), node(item).mark == 0 else { continue }
      try? mark([id], reload: reload)
    }
  }
}
