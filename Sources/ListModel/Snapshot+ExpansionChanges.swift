// expandAll, collapseAll and expandToLevel with their changeset built from one walk of the nodes, not a diff.

extension ListSnapshot {
  /// Applies an `expandAll`, `collapseAll` or `expandToLevel` and returns the changeset, equal to
  /// `diff(before, after)`, built from each touched section's visibility before and after: rows
  /// that appear are inserts, rows that disappear deletes (and leave the selection), rows whose
  /// expansion changed in place reconfigures. Nothing moves, so no matching is needed, and the
  /// old snapshot is not kept (nothing is copied when the storage is uniquely referenced).
  /// O(items of the sections named + rows that change).
  mutating func setExpansionReturningChangeset(_ edit: ListEdit) throws(ListModelError) -> Changeset {
    let section: String?
    let state: (Node) -> Bool
    switch edit {
    case .expandAll(let named):
      section = named
      state = { $0.hasChildren || $0.isExpanded }
    case .collapseAll(let named):
      section = named
      state = { _ in false }
    case .expandToLevel(let level, let named):
      section = named
      let limit = Int32(clamping: max(level, 0))
      state = { $0.level < limit && ($0.hasChildren || $0.isExpanded) }
    default: preconditionFailure("not an expansion edit: \(edit)")
    }
    var named = try slotsNamed(section)
    named.sort { indexOfSlot[Int($0)] < indexOfSlot[Int($1)] }
    let oldSelection = selection
    let strings = table.strings()
    var changes = Changeset()
    var expanded: [String] = []
    var collapsed: [String] = []
    var deselected: [String] = []
    for slot in named {
      let s = Int(slot)
      // Bit 0: visible before, bit 1: expanded before.
      let before: [UInt8] = slots[s].nodes.map { ($0.isVisible ? 1 : 0) | ($0.isExpanded ? 2 : 0) }
      guard setExpanded(inSlot: slot, positions: 0..<before.count, state) else { continue }
      let section = Int(indexOfSlot[s])
      var oldRow = 0
      var newRow = 0
      let nodes = slots[s].nodes
      nodes.forEach(in: 0..<nodes.count) { position, node in
        do {
          let wasVisible = before[position] & 1 != 0
          let wasExpanded = before[position] & 2 != 0
          if wasExpanded != node.pointee.isExpanded {
            if node.pointee.isExpanded {
              expanded.append(strings[Int(node.pointee.id)])
            } else {
              collapsed.append(strings[Int(node.pointee.id)])
            }
          }
          switch (wasVisible, node.pointee.isVisible) {
          case (true, true):
            if wasExpanded != node.pointee.isExpanded {
              Self.appendRow(&changes.itemReconfigures, section, oldRow, Self.row(node, strings: strings))
            }
            oldRow += 1
            newRow += 1
          case (false, true):
            Self.appendRow(&changes.itemInserts, section, newRow, Self.row(node, strings: strings))
            newRow += 1
          case (true, false):
            let last = changes.itemDeletes.count - 1
            if last >= 0, changes.itemDeletes[last].section == section,
              changes.itemDeletes[last].rows.upperBound == oldRow
            {
              changes.itemDeletes[last].rows = changes.itemDeletes[last].rows.lowerBound..<(oldRow + 1)
            } else {
              changes.itemDeletes.append(.init(section: section, rows: oldRow..<(oldRow + 1)))
            }
            if oldSelection.contains(node.pointee.id) && !selection.contains(node.pointee.id) {
              deselected.append(strings[Int(node.pointee.id)])
            }
            oldRow += 1
          case (false, false): break
          }
        }
      }
    }
    changes.expanded = expanded
    changes.collapsed = collapsed
    changes.deselected = deselected
    return changes
  }

  /// Appends a row at `row` of `section`, extending the last run when it ends just there.
  private static func appendRow(_ runs: inout [Changeset.ItemRun], _ section: Int, _ row: Int, _ data: Row) {
    let last = runs.count - 1  // by index: a copy of the run would make every append copy its rows
    if last >= 0, runs[last].section == section, runs[last].start + runs[last].rows.count == row {
      runs[last].rows.append(data)
    } else {
      runs.append(.init(section: section, start: row, rows: [data]))
    }
  }
}
