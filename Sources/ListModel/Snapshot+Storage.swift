// Structural primitives every edit is built from: claiming new ids, inserting and removing node blocks.

extension ListSnapshot {
  /// Interns `strings` and checks that none is already an item of the snapshot or repeated in
  /// the batch; marks them claimed. On error nothing is claimed. O(k).
  ///
  /// With `base` (a snapshot sharing the id table) each id is first guessed as the one after the
  /// last id found in `base` (same section, preorder), or the one after that (a deleted item),
  /// which skips the hash when `strings` mostly follow `base`'s order.
  mutating func claimNewItems(_ strings: [String], orderedLike base: ListSnapshot? = nil)
    throws(ListModelError)
    -> [Int32]
  {
    let ids: [Int32]
    if let base, base.table === table {
      var anchor = ItemLocation.absent  // the last item found in `base`
      ids = table.intern(strings) { previous in
        let at = base.location(previous)
        if at.slot >= 0 { anchor = at }
        guard anchor.slot >= 0 else { return (-1, -1) }
        let nodes = base.slots[Int(anchor.slot)].nodes
        let next = Int(anchor.position) + 1
        return (next < nodes.count ? nodes[next].id : -1, next + 1 < nodes.count ? nodes[next + 1].id : -1)
      }
    } else {
      ids = table.intern(strings)
    }
    if let maxID = ids.max() { ensureLocationCapacity(maxID) }
    // An id already here, then one repeated within the batch; pages are read a run at a time.
    if let index = locations.firstNotAbsent(ids) { throw ListModelError(.duplicateItem(strings[index])) }
    if let index = locations.claim(ids) {
      for claimed in ids[..<index] { locations[Int(claimed)] = .absent }
      throw ListModelError(.duplicateItem(strings[index]))
    }
    return ids
  }

  /// Nodes for flat items placed at `level` under `parent` (-1 for roots).
  func makeBlock(_ items: [ListItem], ids: [Int32], level: Int32, parent: Int32) -> [Node] {
    var block: [Node] = []
    block.reserveCapacity(items.count)
    for (item, id) in zip(items, ids) {
      block.append(Node(id: id, level: level, parent: parent, isExpanded: false, payload: item.payload))
    }
    return block
  }

  /// The item ids of trees in preorder (without recursion, so any depth is safe). O(nodes).
  static func preorderIDs(_ trees: [OutlineNode]) -> [String] {
    var ids: [String] = []
    ids.reserveCapacity(trees.count)
    // Fields are read in place (no whole-node copies); a level is pushed only for children.
    var stack: [(nodes: [OutlineNode], next: Int)] = [(trees, 0)]
    while !stack.isEmpty {
      let top = stack.count - 1
      let next = stack[top].next
      guard next < stack[top].nodes.count else {
        stack.removeLast()
        continue
      }
      stack[top].next = next + 1
      ids.append(stack[top].nodes[next].item.id)
      if !stack[top].nodes[next].children.isEmpty { stack.append((stack[top].nodes[next].children, 0)) }
    }
    return ids
  }

  /// Nodes for trees placed at `level` under `parent`, in preorder, with sizes and parents set;
  /// `ids` are their interned ids in preorder (``preorderIDs(_:)``). A node marked
  /// ``OutlineNode/inheritsExpansion`` takes its item's expansion in `base` when given (by
  /// interned id if `base` shares the table, else by string). Without recursion. O(nodes).
  func makeBlock(
    _ trees: [OutlineNode], ids: [Int32], level: Int32, parent: Int32,
    inheritingExpansionFrom base: ListSnapshot?
  ) -> [Node] {
    var block: [Node] = []
    block.reserveCapacity(ids.count)
    let sharing = base.map { $0.table === table } ?? false
    // Per open tree level: its nodes, the next to visit, and the position of their parent.
    var stack: [(nodes: [OutlineNode], next: Int, parentPosition: Int)] = [(trees, 0, -1)]
    while !stack.isEmpty {
      let top = stack.count - 1
      let next = stack[top].next
      let parentPosition = stack[top].parentPosition
      guard next < stack[top].nodes.count else {
        stack.removeLast()
        if parentPosition >= 0 { block[parentPosition].size = Int32(block.count - parentPosition) }
        continue
      }
      stack[top].next = next + 1
      let index = block.count
      let id = ids[index]
      var isExpanded = stack[top].nodes[next].isExpanded
      if stack[top].nodes[next].inheritsExpansion, let base {
        if sharing {
          let at = base.location(id)
          if at.slot >= 0 { isExpanded = base.slots[Int(at.slot)].nodes[Int(at.position)].isExpanded }
        } else if let baseID = base.itemID(stack[top].nodes[next].item.id) {
          isExpanded = base.node(baseID).isExpanded
        }
      }
      block.append(
        Node(
          id: id, level: level + Int32(top), parent: parentPosition >= 0 ? block[parentPosition].id : parent,
          isExpanded: isExpanded, payload: stack[top].nodes[next].item.payload))
      if !stack[top].nodes[next].children.isEmpty {
        stack.append((stack[top].nodes[next].children, 0, index))
      }
    }
    return block
  }

  /// Inserts a block of nodes (one or more sibling subtrees sharing `block[0].parent`) at
  /// `position` of section `slot`, fixing ancestor sizes, locations and visibility.
  /// O(block + chunk + chunks + depth); O(section size) in an outline section.
  mutating func insertBlock(_ block: [Node], into slot: Int32, at position: Int) {
    guard !block.isEmpty else { return }
    let s = Int(slot)
    let count = Int32(block.count)
    var ancestor = block[0].parent
    while ancestor >= 0 {
      let at = Int(location(ancestor).position)
      slots[s].nodes[at].size += count
      ancestor = slots[s].nodes[at].parent
    }
    let moved = slots[s].nodes.insert(contentsOf: block, at: position)
    var nested = 0
    for node in block where node.parent >= 0 { nested += 1 }
    let wasFlat = slots[s].visibility == nil
    slots[s].nestedCount += nested
    itemCount += block.count
    relocate(slot, moved)
    if slots[s].nestedCount == 0 && wasFlat {
      if block.contains(where: { !$0.isVisible }) {
        slots[s].nodes.modify(in: position..<(position + block.count)) { _, nodes in
          for index in nodes.indices { nodes[index].isVisible = true }
        }
      }
      slots[s].visibleCount = slots[s].nodes.count
    } else {
      slots[s].rebuildVisibility()
    }
    touch(slot)
  }

  /// Removes the `count` nodes at `position` of section `slot` (whole subtrees) and returns
  /// them; their ids leave the snapshot and the selection. O(count + chunk + chunks + depth);
  /// O(section size) in an outline section.
  @discardableResult
  mutating func removeBlock(from slot: Int32, at position: Int, count: Int, deselecting: Bool = true)
    -> [Node]
  {
    guard count > 0 else { return [] }
    let s = Int(slot)
    var ancestor = slots[s].nodes[position].parent
    while ancestor >= 0 {
      let at = Int(location(ancestor).position)
      slots[s].nodes[at].size -= Int32(count)
      ancestor = slots[s].nodes[at].parent
    }
    let (removed, moved) = slots[s].nodes.remove(position..<(position + count))
    var nested = 0
    var deselected = false
    for node in removed {
      locations[Int(node.id)] = .absent
      if node.parent >= 0 { nested += 1 }
      if deselecting, !selection.isEmpty, selection.remove(node.id) != nil { deselected = true }
    }
    if deselected { touchSelection() }
    slots[s].nestedCount -= nested
    itemCount -= count
    relocate(slot, moved)
    slots[s].rebuildVisibility()
    touch(slot)
    return removed
  }

  /// Re-levels a removed block so its roots sit at `level` under `parent`.
  static func reparent(_ block: inout [Node], level: Int32, parent: Int32) {
    guard let first = block.first else { return }
    let delta = level - first.level
    let oldParent = first.parent
    for index in block.indices {
      if block[index].level == first.level && block[index].parent == oldParent {
        block[index].parent = parent
      }
      block[index].level += delta
    }
  }

  /// Removes from the selection every item that is no longer visible and selectable.
  /// O(selected items).
  mutating func pruneSelection() {
    guard !selection.isEmpty else { return }
    var removed = false
    for id in selection {
      let location = location(id)
      if location.slot < 0 {
        selection.remove(id)
        removed = true
        continue
      }
      let node = slots[Int(location.slot)].nodes[Int(location.position)]
      if !node.isVisible || !node.payload.isSelectable {
        selection.remove(id)
        removed = true
      }
    }
    if removed { touchSelection() }
  }
}

extension ListSnapshot {
  /// Recomputes sizes (from levels), nested count, locations and visibility of section `slot`
  /// after a bulk change of its node array. O(section size).
  mutating func renormalize(_ slot: Int32) {
    let s = Int(slot)
    var nested = 0
    var open: [(position: Int, level: Int32)] = []
    let count = slots[s].nodes.count
    var sizes = [Int32](repeating: 1, count: count)
    slots[s].nodes.forEach(in: 0..<count) { index, node in
      while let top = open.last, top.level >= node.pointee.level {
        sizes[top.position] = Int32(index - top.position)
        open.removeLast()
      }
      if node.pointee.parent >= 0 { nested += 1 }
      open.append((index, node.pointee.level))
    }
    for top in open { sizes[top.position] = Int32(count - top.position) }
    slots[s].nodes.modify(in: 0..<count) { start, nodes in
      for index in nodes.indices where nodes[index].size != sizes[start + index] {
        nodes[index].size = sizes[start + index]
      }
    }
    relocate(slot, 0..<count)
    slots[s].nestedCount = nested
    slots[s].rebuildVisibility()
    touch(slot)
  }
}
