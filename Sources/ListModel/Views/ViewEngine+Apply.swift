// Applying a view update to the view's snapshot, so queries of the view see what its changeset says.

extension ViewEngine {
  /// Applies `update` (from ``update(to:changeset:)``) to `snapshot`, the view's committed
  /// snapshot, and returns the view's changeset, with the rows that left the selection in
  /// `deselected`. The snapshot's own edits cost what the model's edits cost.
  public func apply(_ update: ViewUpdate, to snapshot: inout ListSnapshot) throws(ListModelError) -> Changeset
  {
    let before = snapshot
    if update.isRebuilt {
      var next = makeSnapshot(sharingIdentifiersWith: snapshot)
      let kept = snapshot.selectedItems.filter { next.payload(of: $0)?.isSelectable == true }
      // Nothing to keep selects nothing: in mode none even an empty select is refused.
      if !kept.isEmpty {
        try next.select(snapshot.selectionMode == .single ? Array(kept.prefix(1)) : kept)
      }
      let changeset = diff(snapshot, next)
      snapshot = next
      return changeset
    }
    try snapshot.deleteItems(update.removedItems)
    try snapshot.deleteSections(update.deletedSections)
    for (id, payload) in update.payloads { try snapshot.setPayload(payload, forItem: id) }
    if !update.reloads.isEmpty { try snapshot.reloadItems(update.reloads) }
    for (index, section) in update.insertedSections {
      let spec = SectionSpec(section.id, header: section.header, footer: section.footer)
      if index < snapshot.numberOfSections {
        try snapshot.insertSections([spec], before: snapshot.sectionID(at: index))
      } else {
        try snapshot.appendSections([spec])
      }
      try snapshot.appendItems(
        section.rows.map { ListItem($0.id, payload: $0.payload) }, toSection: section.id)
    }
    for (path, row) in update.placedRows {
      let item = [ListItem(row.id, payload: row.payload)]
      if path.item > 0,
        let previous = snapshot.item(at: ListIndexPath(section: path.section, item: path.item - 1))
      {
        try snapshot.insertItems(item, after: previous)
      } else if let first = snapshot.item(at: ListIndexPath(section: path.section, item: 0)) {
        try snapshot.insertItems(item, before: first)
      } else {
        try snapshot.appendItems(item, toSection: snapshot.sectionID(at: path.section))
      }
    }
    var changeset = update.changeset
    let left = update.touched.filter { before.isSelected($0) && !snapshot.isSelected($0) }
    changeset.deselected = left.sorted {
      (before.indexPath(for: $0) ?? .init(section: 0, item: 0))
        < (before.indexPath(for: $1) ?? .init(section: 0, item: 0))
    }
    return changeset
  }
}

extension ListSnapshot {
  /// The id of the section at `index`. O(1).
  func sectionID(at index: Int) -> String {
    string(slots[Int(order[index])].id)
  }
}
