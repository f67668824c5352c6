// Which causes of an explanation concern one item: for "why did this row last change?".

extension ListSnapshot {
  /// The causes of `causes` (an explanation of `changeset` = `diff(old, new)`) that cover the
  /// item `id`: its row in a run, its id in an id list, or its section in a section change.
  /// O(causes + log n).
  public static func causes(
    _ causes: [ChangeCause], coveringItem id: String, changeset: Changeset, from old: ListSnapshot,
    to new: ListSnapshot
  ) -> [ChangeCause] {
    let oldPath = old.indexPath(for: id)
    let newPath = new.indexPath(for: id)
    let oldSection = old.sectionIdentifier(containingItem: id)
    let newSection = new.sectionIdentifier(containingItem: id)
    func covers(_ path: ListIndexPath?, section: Int, start: Int, _ cause: ChangeCause) -> Bool {
      guard let path, path.section == section else { return false }
      return path.item >= start + cause.offset && path.item < start + cause.offset + cause.count
    }
    return causes.filter { cause in
      let k = cause.entry
      switch cause.change {
      case .sectionDeletes:
        guard let index = oldSection.flatMap(old.index(ofSection:)) else { return false }
        let start = changeset.sectionDeletes[k].lowerBound + cause.offset
        return index >= start && index < start + cause.count
      case .sectionReloads:
        return oldSection != nil && cause.ids.first == oldSection
      case .sectionInserts, .sectionMoves:
        return newSection != nil && cause.ids.first == newSection
      case .itemDeletes:
        let delete = changeset.itemDeletes[k]
        return covers(oldPath, section: delete.section, start: delete.rows.lowerBound, cause)
      case .itemInserts:
        let run = changeset.itemInserts[k]
        return covers(newPath, section: run.section, start: run.start, cause)
      case .itemMoves:
        let move = changeset.itemMoves[k]
        return covers(newPath, section: move.to.section, start: move.to.item, cause)
      case .itemReloads:
        let run = changeset.itemReloads[k]
        return covers(oldPath, section: run.section, start: run.start, cause)
      case .itemReconfigures:
        let run = changeset.itemReconfigures[k]
        return covers(oldPath, section: run.section, start: run.start, cause)
      case .selected, .deselected, .expanded, .collapsed:
        return cause.ids.contains(id)
      case .selectionMode, .columns, .emptyState, .isEditing:
        return false
      }
    }
  }
}
