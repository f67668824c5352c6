// Decides which rows of a change a windowed subscriber receives: those inside its window after the change.
import ListModel

/// A window over a list's flattened visible rows: `[offset, offset + limit)`.
public struct RowWindow: Hashable, Sendable {
  public var offset: Int
  public var limit: Int
  public var end: Int { offset + limit }

  /// Rows `offset..<offset + limit`.
  public init(offset: Int, limit: Int) {
    self.offset = offset
    self.limit = limit
  }
}

/// What one change looks like through one window (Protocol/README.md, Windowed subscriptions):
/// which pieces of each run carry rows, which rows of inserted sections are carried, and the
/// rows that enter the window without an entry carrying them.
///
/// Built once per change and window, in O(sections + limit · log n + entries): only the rows
/// inside the window after the change are looked at, never the rows a run carries outside it.
public struct WindowFilter {
  /// A row inside the window after the change.
  private struct WindowRow {
    var section: Int
    var row: Int
    var value: Row
    /// Its flattened index before the change, if it was visible then.
    var oldFlat: Int?
    var carried = false
  }

  public let window: RowWindow
  private let newFirst: [Int]
  private let newCounts: [Int]
  private var rows: [WindowRow] = []
  /// Per old section index: the old row indexes of window rows, ascending, with their index in `rows`.
  private var byOldPath: [Int: [(row: Int, index: Int)]] = [:]

  public init(from old: ListSnapshot, to new: ListSnapshot, window: RowWindow) {
    self.window = window
    let oldIDs = old.sectionIdentifiers
    var oldFirst: [Int] = []
    var first = 0
    for id in oldIDs {
      oldFirst.append(first)
      first += old.numberOfItems(inSection: id) ?? 0
    }
    var newFirst: [Int] = []
    var newCounts: [Int] = []
    first = 0
    for id in new.sectionIdentifiers {
      let count = new.numberOfItems(inSection: id) ?? 0
      newFirst.append(first)
      newCounts.append(count)
      first += count
    }
    self.newFirst = newFirst
    self.newCounts = newCounts
    for section in newCounts.indices {
      let local = Self.local(window, first: newFirst[section], count: newCounts[section])
      guard !local.isEmpty else { continue }
      for (offset, value) in new.rows(inSectionAt: section, range: local).enumerated() {
        var row = WindowRow(section: section, row: local.lowerBound + offset, value: value)
        if let path = old.indexPath(for: value.id) {
          row.oldFlat = oldFirst[path.section] + path.item
          byOldPath[path.section, default: []].append((path.item, rows.count))
        }
        rows.append(row)
      }
    }
    for key in byOldPath.keys { byOldPath[key]!.sort { $0.row < $1.row } }
  }

  /// The rows `[start, end)` of a section (first row `first`, `count` rows) that lie in `window`.
  private static func local(_ window: RowWindow, first: Int, count: Int) -> Range<Int> {
    let lower = max(window.offset - first, 0)
    let upper = min(window.end - first, count)
    return lower < upper ? lower..<upper : 0..<0
  }

  /// A piece of a run: `count` rows from `start`, carried (`rows` non-nil) or not.
  public struct Piece {
    public var start: Int
    public var count: Int
    public var rows: [Row]?
  }

  /// Splits a reload or reconfigure run (old coordinates) into pieces by whether each row is
  /// inside the window after the change, and marks the carried rows. O(log n + rows inside).
  public mutating func pieces(ofUpdate run: Changeset.ItemRun) -> [Piece] {
    let members = byOldPath[run.section] ?? []
    var low = 0
    var high = members.count
    while low < high {
      let mid = (low + high) / 2
      if members[mid].row < run.start { low = mid + 1 } else { high = mid }
    }
    var pieces: [Piece] = []
    var cursor = run.start
    var index = low
    let end = run.start + run.rows.count
    while index < members.count && members[index].row < end {
      let first = members[index].row
      if first > cursor { pieces.append(Piece(start: cursor, count: first - cursor, rows: nil)) }
      var last = first
      rows[members[index].index].carried = true
      index += 1
      while index < members.count && members[index].row == last + 1 && last + 1 < end {
        last += 1
        rows[members[index].index].carried = true
        index += 1
      }
      let carried = Array(run.rows[(first - run.start)...(last - run.start)])
      pieces.append(Piece(start: first, count: carried.count, rows: carried))
      cursor = last + 1
    }
    if cursor < end { pieces.append(Piece(start: cursor, count: end - cursor, rows: nil)) }
    return pieces
  }

  /// Splits an insert run (new coordinates) into the pieces before, inside and after the
  /// window, and marks the carried rows. O(1) plus the rows carried.
  public mutating func pieces(ofInsert run: Changeset.ItemRun) -> [Piece] {
    let inside = carriedRange(section: run.section, run.range)
    guard !inside.isEmpty else { return [Piece(start: run.start, count: run.rows.count, rows: nil)] }
    var pieces: [Piece] = []
    if inside.lowerBound > run.start {
      pieces.append(Piece(start: run.start, count: inside.lowerBound - run.start, rows: nil))
    }
    pieces.append(
      Piece(
        start: inside.lowerBound, count: inside.count,
        rows: Array(run.rows[(inside.lowerBound - run.start)..<(inside.upperBound - run.start)])))
    if inside.upperBound < run.range.upperBound {
      pieces.append(
        Piece(start: inside.upperBound, count: run.range.upperBound - inside.upperBound, rows: nil))
    }
    return pieces
  }

  /// The rows of an inserted section (new index `section`) inside the window, marked carried.
  public mutating func insertedRows(section: Int, count: Int) -> Range<Int> {
    carriedRange(section: section, 0..<count)
  }

  /// The part of `range` (rows of new section `section`) inside the window; marks it carried.
  private mutating func carriedRange(section: Int, _ range: Range<Int>) -> Range<Int> {
    guard section < newFirst.count else { return 0..<0 }
    let local = Self.local(window, first: newFirst[section], count: newCounts[section])
    let inside = range.clamped(to: local)
    guard !inside.isEmpty else { return 0..<0 }
    for row in inside { rows[newFirst[section] + row - window.offset].carried = true }
    return inside
  }

  /// The rows inside the window after the change that no entry carries and that were not inside
  /// it before, as runs of consecutive rows of one section (new coordinates). Call after every
  /// entry was split.
  public var enter: [Changeset.ItemRun] {
    var runs: [Changeset.ItemRun] = []
    for row in rows where !row.carried {
      if let old = row.oldFlat, old >= window.offset, old < window.end { continue }
      if var last = runs.last, last.section == row.section, last.range.upperBound == row.row {
        last.rows.append(row.value)
        runs[runs.count - 1] = last
      } else {
        runs.append(Changeset.ItemRun(section: row.section, start: row.row, rows: [row.value]))
      }
    }
    return runs
  }
}
