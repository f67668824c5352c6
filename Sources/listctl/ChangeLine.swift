// One readable line per changeset, naming the items each change is about.
import JSON
import ListClient
import ListProtocol

/// Describes wire changesets (Protocol/README.md §4) in one line.
enum ChangeLine {
  /// Item names shown per change before `…`.
  static let shownNames = 3

  /// `v12  +2 'Alice', 'Bob' at 0:4 · −1 'Carol' at 0:9 · ↕ 'Dave' 0:2→1:0 · ~ 'Eve'`;
  /// `v12  (no change)` for `{}`.
  ///
  /// Inserted, reloaded and reconfigured rows are named from the rows the changeset carries.
  /// Deleted and moved rows are only index paths on the wire: `before`, the list's rows before
  /// the change, names them, and tells an item that moved into an inserted section (or out of a
  /// deleted one), which the wire carries as a delete plus an insert, from one that went away.
  /// Without `before` those parts show index paths only. O(size of the changeset).
  static func describe(version: Int, changeset: JSONValue, before: Mirror? = nil) -> String {
    let parts = parts(changeset, before: before)
    return "v\(version)  " + (parts.isEmpty ? "(no change)" : parts.joined(separator: " · "))
  }

  /// The parts of ``describe(version:changeset:before:)``'s line, one per change, in its order:
  /// `+2 'Alice', 'Bob' at 0:4`, `−1 'Carol' at 0:9`, …; none for `{}`.
  static func parts(_ json: JSONValue, before: Mirror? = nil) -> [String] {
    let changeset: WireChangeset
    do { changeset = try WireChangeset(json) } catch { return ["(not a changeset: \(error))"] }
    let old = before?.sections
    var parts: [String] = []
    func oldRows(_ section: Int, _ start: Int, _ count: Int) -> [JSONValue]? {
      guard let old, old.indices.contains(section), start >= 0, count >= 0,
        start + count <= old[section].rows.count
      else { return nil }
      return Array(old[section].rows[start..<(start + count)])
    }
    func id(_ row: JSONValue) -> String { row["id"]?.stringValue ?? "" }

    // Rows that leave (deletes, rows of deleted sections) and rows that arrive (inserts, rows of
    // inserted sections), by id: an id in both moved, across a section inserted or deleted.
    var leaving: [String: (section: Int, row: Int, value: JSONValue)] = [:]
    for delete in changeset.itemDeletes {
      guard let rows = oldRows(delete.section, delete.rows.lowerBound, delete.rows.count) else { continue }
      for (offset, row) in rows.enumerated() {
        leaving[id(row)] = (delete.section, delete.rows.lowerBound + offset, row)
      }
    }
    for delete in changeset.sectionDeletes {
      for section in delete {
        for (offset, row) in (oldRows(section, 0, old?[section].rows.count ?? 0) ?? []).enumerated() {
          leaving[id(row)] = (section, offset, row)
        }
      }
    }
    var arriving: [String: (section: Int, row: Int)] = [:]
    for insert in changeset.itemInserts {
      for (offset, row) in (insert.rows ?? []).enumerated() {
        arriving[id(row)] = (insert.section, insert.start + offset)
      }
    }
    for insert in changeset.sectionInserts {
      for (offset, row) in insert.rows.enumerated() {
        arriving[id(row)] = (insert.index, insert.rowsAt + offset)
      }
    }
    let crossed = Set(leaving.keys).intersection(arriving.keys)

    for delete in changeset.sectionDeletes {
      guard let old, delete.upperBound <= old.count else {
        parts.append(
          delete.count == 1 ? "−§ \(delete.lowerBound)" : "−\(delete.count)§ at \(delete.lowerBound)")
        continue
      }
      for section in delete {
        let rows = old[section].rows.filter { !crossed.contains(id($0)) }
        parts.append("−§ '\(old[section].id)'" + (rows.isEmpty ? "" : " with \(names(rows))"))
      }
    }
    for insert in changeset.sectionInserts {
      let rows = insert.rows.filter { !crossed.contains(id($0)) }
      // A lean answer (`list/create`'s by default) counts the rows instead of carrying them.
      let counted = insert.rows.isEmpty ? insert.count : 0
      parts.append(
        "+§ '\(insert.section.id)' at \(insert.index)"
          + (rows.isEmpty ? "" : " with \(names(rows))")
          + (counted == 0 ? "" : " with \(counted) row\(counted == 1 ? "" : "s")"))
    }
    for move in changeset.sectionMoves {
      let name = old.flatMap { $0.indices.contains(move.from) ? " '\($0[move.from].id)'" : nil } ?? ""
      parts.append("↕§\(name) \(move.from)→\(move.to)")
    }
    for reload in changeset.sectionReloads { parts.append("~§ '\(reload.section.id)'") }

    for insert in changeset.itemInserts {
      let all = insert.rows ?? []
      guard let first = all.firstIndex(where: { !crossed.contains(id($0)) }) else { continue }
      let rows = all.filter { !crossed.contains(id($0)) }
      parts.append("+\(rows.count) \(names(rows)) at \(insert.section):\(insert.start + first)")
    }
    for delete in changeset.itemDeletes {
      let (section, start, count) = (delete.section, delete.rows.lowerBound, delete.rows.count)
      guard let all = oldRows(section, start, count) else {
        parts.append("−\(count) at \(section):\(start)")
        continue
      }
      guard let first = all.firstIndex(where: { !crossed.contains(id($0)) }) else { continue }
      let rows = all.filter { !crossed.contains(id($0)) }
      parts.append("−\(rows.count) \(names(rows)) at \(section):\(start + first)")
    }
    for move in changeset.itemMoves {
      let rows = oldRows(move.fromSection, move.fromRow, move.count)
      parts.append(
        "↕\(move.count == 1 ? "" : "\(move.count)")\(rows.map { " " + names($0) } ?? "") "
          + "\(move.fromSection):\(move.fromRow)→\(move.toSection):\(move.toRow)")
    }
    // Moves the wire carries as a delete plus an insert (into an inserted section, out of a
    // deleted one, or reloaded as they moved), in old order, marked as such: the changeset a
    // UIKit client applies has no move for them.
    let movedAcross = crossed.compactMap { itemID in
      leaving[itemID].flatMap { from in arriving[itemID].map { (from, $0) } }
    }
    .sorted { ($0.0.section, $0.0.row) < ($1.0.section, $1.0.row) }
    for (from, to) in movedAcross {
      parts.append(
        "↕ \(names([from.value])) \(from.section):\(from.row)→\(to.section):\(to.row) (sent as − and +)")
    }
    for (runs, sign) in [(changeset.itemReloads, "⟳"), (changeset.itemReconfigures, "~")] {
      for run in runs {
        let rows = run.rows ?? []
        parts.append("\(sign)\(rows.count == 1 ? "" : "\(rows.count)") \(names(rows))")
      }
    }
    for (ids, sign) in [
      (changeset.selected, "✓"), (changeset.deselected, "✗"), (changeset.expanded, "▾"),
      (changeset.collapsed, "▸"),
    ] {
      if !ids.isEmpty { parts.append(sign + " " + ids.joined(separator: " ")) }
    }
    if let mode = changeset.selectionMode { parts.append("mode \(mode)") }
    if let columns = json["columns"]?.arrayValue {
      let ids = columns.compactMap { $0["id"]?.stringValue }
      parts.append("columns " + (ids.isEmpty ? "none" : ids.joined(separator: ", ")))
    }
    if let state = json["emptyState"] {
      parts.append(state.isNull ? "no empty state" : "empty state '\(state["title"]?.stringValue ?? "")'")
    }
    if let editing = json["editing"]?.boolValue { parts.append(editing ? "editing" : "not editing") }
    return parts
  }

  /// `'A', 'B', 'C', …`: the labels of the first rows.
  static func names(_ rows: [JSONValue]) -> String {
    let shown = rows.prefix(shownNames).map { "'\(TreeRenderer.label($0))'" }
    return shown.joined(separator: ", ") + (rows.count > shownNames ? ", …" : "")
  }
}
