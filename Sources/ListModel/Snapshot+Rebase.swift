// Re-interning a snapshot into another id table, so snapshots built apart can still be diffed.

extension ListSnapshot {
  /// An empty snapshot on a given table.
  init(table: IdentifierTable, selectionMode: SelectionMode) {
    self.table = table
    self.selectionMode = selectionMode
  }

  /// The same snapshot with its ids interned in `target`, and fresh stamps from it (stamps of
  /// different tables are not comparable). O(items), hashing each id once.
  func rebased(onto target: IdentifierTable) -> ListSnapshot {
    let strings = table.strings()
    var used: [Int32] = []
    used.reserveCapacity(itemCount + order.count)
    for slot in order {
      used.append(slots[Int(slot)].id)
      for node in slots[Int(slot)].nodes { used.append(node.id) }
    }
    let targetIDs = target.intern(used.map { strings[Int($0)] })
    var map = [Int32](repeating: -1, count: strings.count)
    for (source, destination) in zip(used, targetIDs) { map[Int(source)] = destination }

    var result = ListSnapshot(table: target, selectionMode: selectionMode)
    result.columns = columns
    result.emptyState = emptyState
    result.isEditing = isEditing
    result.order = order
    result.indexOfSlot = indexOfSlot
    result.freeSlots = freeSlots
    result.itemCount = itemCount
    result.slots = slots
    if let maxID = targetIDs.max() { result.ensureLocationCapacity(maxID) }
    for slot in order {
      let s = Int(slot)
      result.slots[s].id = map[Int(slots[s].id)]
      result.slots[s].stamp = target.nextStamp()
      if slots[s].mark != 0 { result.slots[s].mark = target.nextStamp() | 1 }
      result.slotOfSection[result.slots[s].id] = slot
      result.slots[s].nodes.modify(in: 0..<slots[s].nodes.count) { _, nodes in
        for position in nodes.indices {
          nodes[position].id = map[Int(nodes[position].id)]
          if nodes[position].parent >= 0 { nodes[position].parent = map[Int(nodes[position].parent)] }
          if nodes[position].mark != 0 {
            nodes[position].mark = target.nextStamp() << 1 | (nodes[position].mark & 1)
          }
        }
      }
      result.relocate(slot, 0..<slots[s].nodes.count)
    }
    result.selection = Set(selection.map { map[Int($0)] })
    result.selectionStamp = target.nextStamp()
    return result
  }
}

extension ListSnapshot {
  /// Whether the id table shared by this snapshot's lineage holds many more ids than the
  /// snapshot uses — ids of items since deleted, or interned by edits that failed — so that
  /// ``compacted()`` would give memory back. O(1).
  public var hasReclaimableIdentifiers: Bool {
    table.count > 2 * (itemCount + slotOfSection.count) + 4_096
  }

  /// The same snapshot on a fresh id table that holds only its own ids, so a long-lived list
  /// whose ids churn keeps memory proportional to its size, not to every id it ever saw.
  /// Equal to `self`; a diff against a snapshot of the old table stays correct (it re-interns).
  /// O(items).
  public func compacted() -> ListSnapshot {
    rebased(onto: IdentifierTable())
  }
}
