// apply(changeset, to: rows): the client side of a changeset, and the check of the mirror property.

/// Applies a changeset to the row list it was computed from, as a client would (the steps are
/// listed on ``Changeset``). Throws `invalidChangeset` if an index is out of range, a reloaded
/// row's id does not match, or the pieces do not fit together; never traps.
/// O(rows of the touched sections + sections + entries log entries).
public func apply(_ changeset: Changeset, to rowList: RowList) throws(ListModelError) -> RowList {
  func fail(_ reason: String) -> ListModelError { ListModelError(.invalidChangeset(reason)) }
  var sections = rowList.sections
  let oldCount = sections.count

  // 1. Updates in old coordinates.
  for reload in changeset.sectionReloads {
    guard reload.index >= 0, reload.index < oldCount, sections[reload.index].id == reload.id else {
      throw fail("section reload at \(reload.index) does not match section '\(reload.id)'")
    }
    sections[reload.index].header = reload.header
    sections[reload.index].footer = reload.footer
    sections[reload.index].kind = reload.kind
    sections[reload.index].headerMode = reload.headerMode
  }
  for run in changeset.itemReloads + changeset.itemReconfigures {
    guard run.section >= 0, run.section < oldCount, run.start >= 0,
      run.start <= sections[run.section].rows.count - run.rows.count
    else { throw fail("row update at [\(run.section), \(run.start)] is out of range") }
    for (offset, row) in run.rows.enumerated() {
      guard sections[run.section].rows[run.start + offset].id == row.id else {
        throw fail("row update at [\(run.section), \(run.start + offset)] does not match item '\(row.id)'")
      }
      sections[run.section].rows[run.start + offset] = row
    }
  }

  // 2. Removals in old coordinates: rows first (moved ones kept aside), then sections.
  var removedRows = [[Bool]?](repeating: nil, count: oldCount)
  func markRow(_ section: Int, _ row: Int) throws(ListModelError) {
    guard section >= 0, section < oldCount, row >= 0, row < sections[section].rows.count else {
      throw fail("old index path [\(section), \(row)] is out of range")
    }
    if removedRows[section] == nil {
      removedRows[section] = [Bool](repeating: false, count: sections[section].rows.count)
    }
    guard removedRows[section]![row] == false else {
      throw fail("old index path [\(section), \(row)] is removed twice")
    }
    removedRows[section]![row] = true
  }
  for delete in changeset.itemDeletes {
    for row in delete.rows { try markRow(delete.section, row) }
  }
  var placedRows: [Int: [(row: Int, value: Row)]] = [:]
  for move in changeset.itemMoves {
    guard move.count > 0, move.from.section >= 0, move.from.section < oldCount, move.from.item >= 0,
      move.from.item <= sections[move.from.section].rows.count - move.count, move.to.item >= 0,
      move.to.item <= Int(Int32.max)
    else { throw fail("move from \(move.from) of \(move.count) rows is out of range") }
    for offset in 0..<move.count {
      try markRow(move.from.section, move.from.item + offset)
      placedRows[move.to.section, default: []].append(
        (move.to.item + offset, sections[move.from.section].rows[move.from.item + offset]))
    }
  }
  for (section, removed) in removedRows.enumerated() {
    guard let removed else { continue }
    var kept: [Row] = []
    kept.reserveCapacity(sections[section].rows.count)
    for (row, value) in sections[section].rows.enumerated() where !removed[row] { kept.append(value) }
    sections[section].rows = kept
  }
  var removedSections = [Bool](repeating: false, count: oldCount)
  for range in changeset.sectionDeletes {
    guard range.lowerBound >= 0, range.upperBound <= oldCount else {
      throw fail("section delete \(range) is out of range")
    }
    for index in range {
      guard !removedSections[index] else { throw fail("section \(index) is removed twice") }
      removedSections[index] = true
    }
  }
  for move in changeset.sectionMoves {
    guard move.from >= 0, move.from < oldCount, !removedSections[move.from] else {
      throw fail("section move from \(move.from) is out of range or removed twice")
    }
    removedSections[move.from] = true
  }

  // 3. Sections at their new indexes.
  let remaining = sections.indices.filter { !removedSections[$0] }.map { sections[$0] }
  let newCount = remaining.count + changeset.sectionInserts.count + changeset.sectionMoves.count
  var placed = [RowSection?](repeating: nil, count: newCount)
  func place(_ section: RowSection, at index: Int) throws(ListModelError) {
    guard index >= 0, index < newCount, placed[index] == nil else {
      throw fail("new section index \(index) is out of range or taken twice")
    }
    placed[index] = section
  }
  for insert in changeset.sectionInserts { try place(insert.section, at: insert.index) }
  for move in changeset.sectionMoves { try place(sections[move.from], at: move.to) }
  var next = remaining.makeIterator()
  var newSections: [RowSection] = []
  newSections.reserveCapacity(newCount)
  for section in placed {
    if let section {
      newSections.append(section)
    } else if let section = next.next() {
      newSections.append(section)
    }
  }
  guard newSections.count == newCount, next.next() == nil else {
    throw fail("section counts do not add up")
  }

  // 4. Rows at their new index paths, ascending.
  for run in changeset.itemInserts {
    guard run.start >= 0, run.start <= Int(Int32.max) else {
      throw fail("insert at [\(run.section), \(run.start)] is out of range")
    }
    for (offset, row) in run.rows.enumerated() {
      placedRows[run.section, default: []].append((run.start + offset, row))
    }
  }
  for (section, var placements) in placedRows {
    guard section >= 0, section < newSections.count else {
      throw fail("new section index \(section) is out of range")
    }
    placements.sort { $0.row < $1.row }
    let existing = newSections[section].rows
    let total = existing.count + placements.count
    var rows: [Row] = []
    rows.reserveCapacity(total)
    var existingIndex = 0
    var placementIndex = 0
    for index in 0..<total {
      if placementIndex < placements.count, placements[placementIndex].row == index {
        rows.append(placements[placementIndex].value)
        placementIndex += 1
      } else if existingIndex < existing.count {
        rows.append(existing[existingIndex])
        existingIndex += 1
      } else {
        throw fail("new index path [\(section), \(index)] is out of range")
      }
    }
    guard placementIndex == placements.count else {
      throw fail("new index paths of section \(section) are out of range or repeated")
    }
    newSections[section].rows = rows
  }

  // 5. Selection.
  var selected = rowList.selected
  for id in changeset.deselected { selected.remove(id) }
  for id in changeset.selected { selected.insert(id) }
  // 6. List attributes.
  return RowList(
    sections: newSections, selected: selected, columns: changeset.columns ?? rowList.columns,
    emptyState: changeset.emptyState ?? rowList.emptyState,
    isEditing: changeset.isEditing ?? rowList.isEditing)
}
