// The list attributes beside its sections: columns (every cell names one), empty state, editing.

extension ListSnapshot {
  /// Replaces the list's columns. Column ids must be unique, and no item may keep a cell for a
  /// column that goes away (patch those cells away first, in the same batch). A change is part
  /// of the next changeset (``Changeset/columns``). O(columns) when no column goes away, else
  /// O(items).
  public mutating func setColumns(_ columns: [ListColumn]) throws(ListModelError) {
    var ids = Set<String>(minimumCapacity: columns.count)
    for column in columns where !ids.insert(column.id).inserted {
      throw ListModelError(.duplicateColumn(column.id))
    }
    guard columns != self.columns else { return }
    if self.columns.contains(where: { !ids.contains($0.id) }) {
      try checkCells(known: ids)
    }
    self.columns = columns
  }

  /// Sets (nil: removes) the list's empty state. A change is part of the next changeset
  /// (``Changeset/emptyState``). O(1).
  public mutating func setEmptyState(_ state: EmptyState?) {
    emptyState = state
  }

  /// Turns editing mode on or off. A change is part of the next changeset
  /// (``Changeset/isEditing``). O(1).
  public mutating func setEditing(_ editing: Bool) {
    isEditing = editing
  }

  /// Throws `unknownColumn` for the first item (in list order) with a cell for a column the
  /// list does not have. O(items).
  public func checkCells() throws(ListModelError) {
    try checkCells(known: Set(columns.map(\.id)))
  }

  private func checkCells(known: Set<String>) throws(ListModelError) {
    for slot in order {
      for node in slots[Int(slot)].nodes where !node.payload.cells.isEmpty {
        for column in node.payload.cells.keys.sorted() where !known.contains(column) {
          throw ListModelError(.unknownColumn(string(node.id), column))
        }
      }
    }
  }

  /// Throws `unknownColumn` if an item an edit brings has a cell for a column the list lacks.
  /// O(items the edit carries).
  func checkCells(of edit: ListEdit) throws(ListModelError) {
    func check(_ item: ListItem) throws(ListModelError) {
      guard !item.payload.cells.isEmpty else { return }
      for column in item.payload.cells.keys.sorted() where !columns.contains(where: { $0.id == column }) {
        throw ListModelError(.unknownColumn(item.id, column))
      }
    }
    func check(_ trees: [OutlineNode]) throws(ListModelError) {
      var stack = trees
      while let node = stack.popLast() {
        try check(node.item)
        stack.append(contentsOf: node.children)
      }
    }
    switch edit {
    case .appendItems(let items, _), .insertItemsBefore(let items, _), .insertItemsAfter(let items, _),
      .replaceItems(let items, _), .appendChildren(let items, _):
      for item in items { try check(item) }
    case .replaceItemTrees(let trees, _), .appendTrees(let trees, _), .appendChildTrees(let trees, _):
      try check(trees)
    case .setPayload(let item, let payload):
      try check(ListItem(item, payload: payload))
    default:
      break
    }
  }
}
