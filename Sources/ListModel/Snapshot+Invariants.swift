// Internal consistency checks of a snapshot's storage, used by the tests.

extension ListSnapshot {
  /// A description of the first broken storage invariant, or nil if the snapshot is consistent.
  /// O(items × log n).
  func brokenInvariant() -> String? {
    var seenItems = 0
    if indexOfSlot.count != slots.count { return "indexOfSlot size" }
    for (index, slot) in order.enumerated() {
      if indexOfSlot[Int(slot)] != Int32(index) { return "indexOfSlot of section \(index)" }
      let store = slots[Int(slot)]
      if slotOfSection[store.id] != slot { return "slotOfSection of section \(index)" }
      var open: [Int] = []
      var nested = 0
      var visible = 0
      for (position, node) in store.nodes.enumerated() {
        while let top = open.last, store.nodes[top].level >= node.level {
          if Int(store.nodes[top].size) != position - top { return "size of \(string(store.nodes[top].id))" }
          open.removeLast()
        }
        let expectedParent = open.last.map { store.nodes[$0].id } ?? -1
        if node.parent != expectedParent { return "parent of \(string(node.id))" }
        let expectedLevel = open.last.map { store.nodes[$0].level + 1 } ?? 0
        if node.level != expectedLevel { return "level of \(string(node.id))" }
        let parentShows = open.last.map { store.nodes[$0].isVisible && store.nodes[$0].isExpanded } ?? true
        if node.isVisible != parentShows { return "visibility of \(string(node.id))" }
        if node.parent >= 0 { nested += 1 }
        if location(node.id) != ItemLocation(slot: slot, position: Int32(position)) {
          return "location of \(string(node.id))"
        }
        if node.isVisible {
          if store.row(ofPosition: position) != visible { return "row of \(string(node.id))" }
          if store.position(ofRow: visible) != position { return "position of row \(visible)" }
          visible += 1
        }
        open.append(position)
      }
      for top in open where Int(store.nodes[top].size) != store.nodes.count - top {
        return "size of \(string(store.nodes[top].id))"
      }
      if nested != store.nestedCount { return "nestedCount of section \(index)" }
      if visible != store.visibleCount { return "visibleCount of section \(index)" }
      if (nested > 0) != (store.visibility != nil) { return "visibility index presence of section \(index)" }
      seenItems += store.nodes.count
    }
    if seenItems != itemCount { return "itemCount \(itemCount) != \(seenItems)" }
    var located = 0
    for id in 0..<locations.count {
      let location = locations[id]
      if location.slot == -2 { return "a claimed location was left behind" }
      if location.slot >= 0 { located += 1 }
    }
    if located != itemCount { return "\(located) locations for \(itemCount) items" }
    for id in selection {
      guard location(id).slot >= 0 else { return "selected item \(string(id)) is gone" }
      let node = node(id)
      if !node.isVisible || !node.payload.isSelectable { return "selected item \(string(id)) is hidden" }
    }
    if selectionMode == .none && !selection.isEmpty { return "selection in mode none" }
    if selectionMode == .single && selection.count > 1 { return "several selected in single mode" }
    do throws(ListModelError) { try checkCells() } catch { return error.message }
    return nil
  }

  /// Whether two snapshots have exactly the same storage (stamps and marks included), ignoring
  /// spare capacity of the location table. Used to check that failed edits change nothing.
  func isIdentical(to other: ListSnapshot) -> Bool {
    guard table === other.table, order == other.order, indexOfSlot == other.indexOfSlot,
      freeSlots == other.freeSlots, slotOfSection == other.slotOfSection, itemCount == other.itemCount,
      selection == other.selection, selectionStamp == other.selectionStamp,
      selectionMode == other.selectionMode, slots.count == other.slots.count
    else { return false }
    for (a, b) in zip(slots, other.slots) {
      guard a.id == b.id, a.header == b.header, a.footer == b.footer, a.stamp == b.stamp, a.mark == b.mark,
        a.visibility == b.visibility, a.nestedCount == b.nestedCount, a.visibleCount == b.visibleCount,
        a.nodes.count == b.nodes.count
      else { return false }
      for (m, n) in zip(a.nodes, b.nodes) {
        guard m.id == n.id, m.level == n.level, m.size == n.size, m.parent == n.parent,
          m.isExpanded == n.isExpanded, m.isVisible == n.isVisible, m.mark == n.mark,
          m.payload.isIdentical(to: n.payload)
        else { return false }
      }
    }
    for id in 0..<max(locations.count, other.locations.count) {
      let mine = id < locations.count ? locations[id] : .absent
      let theirs = id < other.locations.count ? other.locations[id] : .absent
      if mine != theirs { return false }
    }
    return true
  }
}
