// Maps a wire changeset over a layout: new section counts, and where each old row went.
import JSON
import ListProtocol

/// A changeset that does not fit the layout it was applied to: the viewer must resync.
public struct LayoutMismatch: Error, CustomStringConvertible {
  /// What did not fit.
  public let description: String
  init(_ description: String) { self.description = description }
}

/// The effect of one wire changeset (Protocol/README.md §4) on a ``ListLayout``, computed from
/// the changeset's ranges alone — without the rows — so it costs O(entries), not O(rows):
/// the new layout, where every old row is now, and which rows arrived or changed.
public struct ChangesetMap: Sendable {
  /// The layout before the change.
  public let old: ListLayout
  /// The layout after the change.
  public let new: ListLayout
  /// Per old section: rows removed by deletes, as sorted ranges.
  private var deleted: [[Range<Int>]]
  /// Per old section: rows removed by moves, with where they go.
  private var moved: [[(rows: Range<Int>, toSection: Int, toRow: Int)]]
  /// Per old section: its new index, nil if deleted.
  private var sectionTarget: [Int?]
  /// Per new section: rows placed by inserts and moves, as sorted ranges of new rows.
  private var placed: [[Range<Int>]]
  /// Rows the changeset carries in new coordinates (inserts, inserted sections), by flattened
  /// new index.
  public private(set) var arrivedRows: [Int: JSONValue] = [:]
  /// The rows of ``arrivedRows`` by item id.
  private var arrivedIndex: [String: Int] = [:]
  /// Rows the changeset carries in old coordinates (reloads, reconfigures), by flattened old index.
  public private(set) var updatedRows: [Int: JSONValue] = [:]
  /// Rows that entered a windowed subscriber's window without changing (`enter`: shifted or
  /// moved in), by flattened new index.
  public private(set) var enteredRows: [Int: JSONValue] = [:]
  /// The changeset, decoded.
  public let changeset: WireChangeset
  /// Ids that joined the selection.
  public var selected: [String] { changeset.selected }
  /// Ids that left the selection.
  public var deselected: [String] { changeset.deselected }

  /// Maps `changeset` over `old`. Throws ``LayoutMismatch`` when it does not fit. A windowed
  /// subscriber's changeset (Protocol/README.md, Windowed subscriptions) fits too: runs that
  /// carry a `count` instead of `rows`, inserted sections with `rowCount` and `rowsAt`, `enter`.
  /// O(entries + rows carried + sections).
  public init(old: ListLayout, changeset json: JSONValue) throws {
    self.old = old
    do { changeset = try WireChangeset(json) } catch { throw LayoutMismatch(error.description) }
    let oldCount = old.sections.count
    var sections = old.sections
    deleted = Array(repeating: [], count: oldCount)
    moved = Array(repeating: [], count: oldCount)

    // 1. Section reloads (the whole new header, footer, kind and header mode); row updates (old coordinates).
    for reload in changeset.sectionReloads {
      guard reload.index >= 0, reload.index < oldCount else {
        throw LayoutMismatch("section reload at \(reload.index) is out of range")
      }
      sections[reload.index].info = reload.section
    }
    for run in changeset.itemReloads + changeset.itemReconfigures {
      guard run.section >= 0, run.section < oldCount, run.start >= 0,
        run.start + run.count <= old.sections[run.section].rows
      else {
        throw LayoutMismatch("row update at [\(run.section), \(run.start)] is out of range")
      }
      for (offset, row) in (run.rows ?? []).enumerated() {
        updatedRows[old.absolute(section: run.section, row: run.start + offset)] = row
      }
    }

    // 2. Removals: deleted rows, moved rows, deleted and moved sections.
    var removedCount = [Int](repeating: 0, count: oldCount)
    for delete in changeset.itemDeletes {
      guard delete.section >= 0, delete.section < oldCount, delete.rows.lowerBound >= 0,
        delete.rows.upperBound <= old.sections[delete.section].rows
      else {
        throw LayoutMismatch("item delete of \(delete.rows) in section \(delete.section) is out of range")
      }
      deleted[delete.section].append(delete.rows)
      removedCount[delete.section] += delete.rows.count
    }
    var arrivingRows: [Int: Int] = [:]  // new section → rows placed
    var placements: [Int: [Range<Int>]] = [:]
    for move in changeset.itemMoves {
      let rows = move.fromRow..<(move.fromRow + move.count)
      guard move.fromSection >= 0, move.fromSection < oldCount, move.fromRow >= 0,
        rows.upperBound <= old.sections[move.fromSection].rows
      else {
        throw LayoutMismatch("item move of \(rows) in section \(move.fromSection) is out of range")
      }
      moved[move.fromSection].append((rows, move.toSection, move.toRow))
      removedCount[move.fromSection] += move.count
      placements[move.toSection, default: []].append(move.toRow..<(move.toRow + move.count))
    }
    for index in 0..<oldCount {
      deleted[index].sort { $0.lowerBound < $1.lowerBound }
      moved[index].sort { $0.rows.lowerBound < $1.rows.lowerBound }
      sections[index].rows -= removedCount[index]
    }
    var gone = Set<Int>()
    for delete in changeset.sectionDeletes {
      guard delete.upperBound <= oldCount else {
        throw LayoutMismatch("section delete of \(delete) is out of range")
      }
      gone.formUnion(delete)
    }
    var arriving: [(index: Int, shape: SectionShape, old: Int?, rowsAt: Int, rows: [JSONValue])] = []
    for move in changeset.sectionMoves {
      guard move.from >= 0, move.from < oldCount, !gone.contains(move.from) else {
        throw LayoutMismatch("section move [\(move.from), \(move.to)] is out of range")
      }
      gone.insert(move.from)
      arriving.append((move.to, sections[move.from], move.from, 0, []))
    }

    // 3. Inserted and moved sections at their new indexes; the others keep their order.
    // (A windowed subscriber gets an inserted section's row count and only its rows in the window.)
    for insert in changeset.sectionInserts {
      arriving.append(
        (insert.index, SectionShape(insert.section, rows: insert.count), nil, insert.rowsAt, insert.rows))
    }
    arriving.sort { $0.index < $1.index }
    var remaining = (0..<oldCount).filter { !gone.contains($0) }[...]
    var newShapes: [SectionShape] = []
    var target = [Int?](repeating: nil, count: oldCount)
    var insertedRows: [Int: (at: Int, rows: [JSONValue])] = [:]
    var next = 0
    while next < arriving.count || !remaining.isEmpty {
      if next < arriving.count, arriving[next].index == newShapes.count {
        if let oldIndex = arriving[next].old { target[oldIndex] = newShapes.count }
        if !arriving[next].rows.isEmpty {
          insertedRows[newShapes.count] = (arriving[next].rowsAt, arriving[next].rows)
        }
        newShapes.append(arriving[next].shape)
        next += 1
      } else if let oldIndex = remaining.popFirst() {
        target[oldIndex] = newShapes.count
        newShapes.append(sections[oldIndex])
      } else {
        throw LayoutMismatch("new section index \(arriving[next].index) is out of range")
      }
    }
    sectionTarget = target

    // 4. Inserted and moved rows.
    var insertRuns: [(section: Int, start: Int, count: Int, rows: [JSONValue])] = []
    for run in changeset.itemInserts {
      guard run.section >= 0, run.section < newShapes.count else {
        throw LayoutMismatch("item insert at [\(run.section), \(run.start)] is out of range")
      }
      placements[run.section, default: []].append(run.start..<(run.start + run.count))
      insertRuns.append((run.section, run.start, run.count, run.rows ?? []))
    }
    var placed = [[Range<Int>]](repeating: [], count: newShapes.count)
    for (section, ranges) in placements {
      guard section >= 0, section < newShapes.count else {
        throw LayoutMismatch("new section index \(section) is out of range")
      }
      placed[section] = ranges.sorted { $0.lowerBound < $1.lowerBound }
      arrivingRows[section] = ranges.reduce(0) { $0 + $1.count }
    }
    for (section, count) in arrivingRows { newShapes[section].rows += count }
    self.placed = placed
    new = ListLayout(sections: newShapes)
    for (section, inserted) in insertedRows {
      for (offset, row) in inserted.rows.enumerated() {
        arrivedRows[new.absolute(section: section, row: inserted.at + offset)] = row
      }
    }
    for run in insertRuns {
      guard run.start + run.count <= newShapes[run.section].rows else {
        throw LayoutMismatch("item insert at [\(run.section), \(run.start)] is out of range")
      }
      for (offset, row) in run.rows.enumerated() {
        arrivedRows[new.absolute(section: run.section, row: run.start + offset)] = row
      }
    }
    for (row, json) in arrivedRows { if let id = json["id"]?.stringValue { arrivedIndex[id] = row } }
    for run in changeset.enter {
      guard let rows = run.rows, run.section >= 0, run.section < newShapes.count, run.start >= 0,
        run.start + run.count <= newShapes[run.section].rows
      else { throw LayoutMismatch("enter at [\(run.section), \(run.start)] is out of range") }
      for (offset, row) in rows.enumerated() {
        enteredRows[new.absolute(section: run.section, row: run.start + offset)] = row
      }
    }
  }

  /// Where old row `[section, row]` is now, or nil if it was deleted (with its section, or
  /// hidden by a collapse). O(entries of its sections).
  public func newIndexPath(section: Int, row: Int) -> (section: Int, row: Int)? {
    guard let newSection = sectionTarget[section] else { return nil }
    if deleted[section].contains(where: { $0.contains(row) }) { return nil }
    var position = row
    for move in moved[section] {
      if move.rows.contains(row) { return (move.toSection, move.toRow + row - move.rows.lowerBound) }
      if move.rows.lowerBound < row { position -= move.rows.count }
    }
    for range in deleted[section] where range.lowerBound < row { position -= range.count }
    // Rows placed at or before the row's position push it down, in ascending order.
    for range in placed[newSection] where range.lowerBound <= position { position += range.count }
    return (newSection, position)
  }

  /// The new flattened index of old flattened row `absolute`, nil if it is gone.
  public func newRow(ofOld absolute: Int) -> Int? {
    guard let path = old.indexPath(ofRow: absolute),
      let moved = newIndexPath(section: path.section, row: path.row)
    else { return nil }
    return new.absolute(section: moved.section, row: moved.row)
  }

  /// Where a viewer's cursor on old row `absolute` belongs now: on the same item if it survived
  /// (moved, or deleted and inserted again elsewhere — recognised by the id, when `id` knows
  /// the old row's id); else on its nearest surviving neighbour — the next old row that
  /// survived, or failing that the previous one; nil when no old row survived. `id` gives the
  /// ids of the old rows the caller knows (its cache). Steps skip whole deleted ranges and
  /// sections where ids are unknown: O((entries + sections) × steps).
  public func landing(forOld absolute: Int, id: (Int) -> String? = { _ in nil }) -> Int? {
    func survivor(_ row: Int) -> Int? {
      if let target = newRow(ofOld: row) { return target }
      return id(row).flatMap { arrivedIndex[$0] }
    }
    if let row = survivor(absolute) { return row }
    var candidate = absolute + 1
    while candidate < old.totalRows {
      if let row = survivor(candidate) { return row }
      candidate = id(candidate + 1) != nil ? candidate + 1 : skipForward(from: candidate)
    }
    candidate = absolute - 1
    while candidate >= 0 {
      if let row = survivor(candidate) { return row }
      candidate = candidate > 0 && id(candidate - 1) != nil ? candidate - 1 : skipBackward(from: candidate)
    }
    return nil
  }

  /// The new flattened row of an item the changeset carries in new coordinates, if any.
  public func arrivedRow(ofItem id: String) -> Int? { arrivedIndex[id] }

  /// The next candidate after a gone row: past its deleted range or its deleted section.
  private func skipForward(from absolute: Int) -> Int {
    guard let path = old.indexPath(ofRow: absolute) else { return absolute + 1 }
    if sectionTarget[path.section] == nil {
      return old.firstRow(ofSection: path.section) + old.sections[path.section].rows
    }
    if let range = deleted[path.section].first(where: { $0.contains(path.row) }) {
      return old.firstRow(ofSection: path.section) + range.upperBound
    }
    return absolute + 1
  }

  /// The previous candidate before a gone row.
  private func skipBackward(from absolute: Int) -> Int {
    guard let path = old.indexPath(ofRow: absolute) else { return absolute - 1 }
    if sectionTarget[path.section] == nil { return old.firstRow(ofSection: path.section) - 1 }
    if let range = deleted[path.section].first(where: { $0.contains(path.row) }) {
      return old.firstRow(ofSection: path.section) + range.lowerBound - 1
    }
    return absolute - 1
  }
}
