// Edits that return their changeset: expand/collapse build it directly, other batches diff.

extension ListSnapshot {
  /// Applies a batch atomically and returns its changeset, equal to `diff(before, after)`.
  ///
  /// A batch that is a single `expand` or `collapse` of one item builds the changeset directly
  /// from the rows it shows or hides — one inserted or deleted run — in O(rows that appear or
  /// disappear + log n), without keeping a copy of the old snapshot (so nothing is copied when
  /// the storage is uniquely referenced). A single `expandAll`, `collapseAll` or `expandToLevel`
  /// builds it from one walk of the sections it names, also without a copy. Any other batch keeps the old snapshot, applies the
  /// edits and diffs (see `apply(_:)` and `diff(from:to:)`).
  public mutating func applyAndDiff(_ edits: [ListEdit]) throws(ListModelError) -> Changeset {
    if edits.count == 1 {
      switch edits[0] {
      case .expand(let ids) where ids.count == 1:
        do throws(ListModelError) { return try setExpandedReturningChangeset(ids[0], true) } catch {
          throw ListModelError(error.kind, editIndex: 0)
        }
      case .collapse(let ids) where ids.count == 1:
        do throws(ListModelError) { return try setExpandedReturningChangeset(ids[0], false) } catch {
          throw ListModelError(error.kind, editIndex: 0)
        }
      case .expandAll, .collapseAll, .expandToLevel:
        do throws(ListModelError) { return try setExpansionReturningChangeset(edits[0]) } catch {
          throw ListModelError(error.kind, editIndex: 0)
        }
      default: break
      }
    }
    let old = self
    try apply(edits)
    return ListSnapshot.diff(from: old, to: self)
  }

  /// Expands one item and returns the changeset. O(rows that appear + log n).
  public mutating func expandReturningChangeset(_ id: String) throws(ListModelError) -> Changeset {
    try setExpandedReturningChangeset(id, true)
  }

  /// Collapses one item and returns the changeset. O(rows that disappear + log n).
  public mutating func collapseReturningChangeset(_ id: String) throws(ListModelError) -> Changeset {
    try setExpandedReturningChangeset(id, false)
  }

  private mutating func setExpandedReturningChangeset(_ string: String, _ expanded: Bool)
    throws(ListModelError) -> Changeset
  {
    let id = try requireItem(string)
    var changes = Changeset()
    guard let effect = setExpanded(id, expanded) else { return changes }
    if expanded { changes.expanded = [string] } else { changes.collapsed = [string] }
    guard let row = effect.row else { return changes }
    let section = Int(indexOfSlot[Int(effect.slot)])
    let store = slots[Int(effect.slot)]
    let strings = table.strings()
    let position = Int(location(id).position)
    changes.itemReconfigures = [
      .init(section: section, start: row, rows: [Self.row(store.nodes[position], strings: strings)])
    ]
    guard effect.affectedRows > 0 else { return changes }
    if expanded {
      var rows: [Row] = []
      rows.reserveCapacity(effect.affectedRows)
      let end = position + Int(store.nodes[position].size)
      store.nodes.walk(from: position + 1, to: end) { current, node in
        rows.append(Self.row(node, strings: strings))
        return current + (node.pointee.isExpanded ? 1 : Int(node.pointee.size))
      }
      changes.itemInserts = [.init(section: section, start: row + 1, rows: rows)]
    } else {
      changes.itemDeletes = [.init(section: section, rows: (row + 1)..<(row + 1 + effect.affectedRows))]
      changes.deselected = effect.deselected.map { strings[Int($0)] }  // in row order already
    }
    return changes
  }
}
