// Selection: modes, select/deselect/selectAll/deselectAll, and the rule for hidden items.
//
// The rule: the selection only ever holds visible, selectable items. Selecting a hidden item
// (one under a collapsed ancestor) throws `itemNotVisible`; collapsing an ancestor of a
// selected item deselects it, and the changeset lists it in `deselected` (as UIKit does when
// an outline collapse removes selected rows). Re-expanding does not reselect it. Deleted items
// and items whose payload becomes non-selectable leave the selection too. Selection follows
// identity: moves and payload changes keep an item selected.

extension ListSnapshot {
  /// Selects items. In single mode the one item replaces the selection. Throws
  /// `selectionDisabled` in mode none, `multipleSelectionNotAllowed` for several distinct ids in
  /// single mode, `unknownItem`, `itemNotVisible` or `itemNotSelectable`. O(k).
  public mutating func select(_ ids: [String]) throws(ListModelError) {
    if selectionMode == .none { throw ListModelError(.selectionDisabled(ids.first)) }
    var resolved: [Int32] = []
    for id in ids {
      let item = try requireItem(id)
      let node = node(item)
      if !node.isVisible { throw ListModelError(.itemNotVisible(id)) }
      if !node.payload.isSelectable { throw ListModelError(.itemNotSelectable(id)) }
      resolved.append(item)
    }
    if selectionMode == .single {
      guard let first = resolved.first else { return }
      if resolved.contains(where: { $0 != first }) { throw ListModelError(.multipleSelectionNotAllowed) }
      if selection.count == 1 && selection.contains(first) { return }
      selection = [first]
      touchSelection()
      return
    }
    var changed = false
    for item in resolved where selection.insert(item).inserted { changed = true }
    if changed { touchSelection() }
  }

  /// Deselects items (selected or not). Throws `unknownItem`. O(k).
  public mutating func deselect(_ ids: [String]) throws(ListModelError) {
    var resolved: [Int32] = []
    for id in ids { resolved.append(try requireItem(id)) }
    var changed = false
    for item in resolved where selection.remove(item) != nil { changed = true }
    if changed { touchSelection() }
  }

  /// Selects every visible, selectable item. Throws `selectionDisabled` in mode none and
  /// `multipleSelectionNotAllowed` in single mode. O(rows).
  public mutating func selectAll() throws(ListModelError) {
    switch selectionMode {
    case .none: throw ListModelError(.selectionDisabled(nil))
    case .single: throw ListModelError(.multipleSelectionNotAllowed)
    case .multiple: break
    }
    var all = Set<Int32>(minimumCapacity: max(selection.count, 16))
    for slot in order {
      let store = slots[Int(slot)]
      store.forEachVisibleNode { _, node in
        if node.pointee.payload.isSelectable { all.insert(node.pointee.id) }
      }
    }
    if all != selection {
      selection = all
      touchSelection()
    }
  }

  /// Deselects everything. O(selected items).
  public mutating func deselectAll() {
    guard !selection.isEmpty else { return }
    selection.removeAll()
    touchSelection()
  }

  /// Changes the selection mode; switching to none, or to single with several items selected,
  /// deselects everything. O(selected items).
  public mutating func setSelectionMode(_ mode: SelectionMode) {
    selectionMode = mode
    if mode == .none || (mode == .single && selection.count > 1) { deselectAll() }
  }

  /// Whether an item is selected. O(1).
  public func isSelected(_ id: String) -> Bool {
    itemID(id).map { selection.contains($0) } ?? false
  }

  /// The selected items in index-path order. O(s log s) for s selected items.
  public var selectedItems: [String] {
    let strings = table.strings()
    return selectedIndexPathsAndIDs().map { strings[Int($0.id)] }
  }

  /// The index paths of the selected items, ascending. O(s log s).
  public var indexPathsForSelectedItems: [ListIndexPath] {
    selectedIndexPathsAndIDs().map(\.path)
  }

  /// Visible items (interned ids) sorted by index path. O(k log k + k log n).
  func inIndexPathOrder(_ ids: [Int32]) -> [Int32] {
    ids.count < 2 ? ids : indexPathsAndIDs(ids).map(\.id)
  }

  /// `ids` of present items, hidden ones included, in list order: by section, then preorder
  /// position. O(k log k).
  func inListOrder(_ ids: [Int32]) -> [Int32] {
    guard ids.count > 1 else { return ids }
    return ids.map { id -> (section: Int32, position: Int32, id: Int32) in
      let at = location(id)
      return (indexOfSlot[Int(at.slot)], at.position, id)
    }
    .sorted { ($0.section, $0.position) < ($1.section, $1.position) }
    .map(\.id)
  }

  private func selectedIndexPathsAndIDs() -> [(path: ListIndexPath, id: Int32)] {
    indexPathsAndIDs(selection)
  }

  private func indexPathsAndIDs<IDs: Collection<Int32>>(_ ids: IDs) -> [(path: ListIndexPath, id: Int32)] {
    var result: [(path: ListIndexPath, id: Int32)] = []
    result.reserveCapacity(ids.count)
    for id in ids {
      let at = location(id)
      let store = slots[Int(at.slot)]
      let path = ListIndexPath(
        section: Int(indexOfSlot[Int(at.slot)]), item: store.row(ofPosition: Int(at.position)))
      result.append((path, id))
    }
    return result.sorted { $0.path < $1.path }
  }
}
