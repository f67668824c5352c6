// One readable line per changeset, naming the items each change is about.
import JSON
import ListClient

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
  static func parts(_ changeset: JSONValue, before: Mirror? = nil) -> [String] {
    let old = before?.sections
    var parts: [String] = []
    func entries(_ key: String) -> [JSONValue] { changeset[key]?.arrayValue ?? [] }
    func numbers(_ value: JSONValue, _ count: Int) -> [Int]? {
      let numbers = (value.arrayValue ?? []).compactMap { $0.intValue.map(Int.init) }
      return numbers.count == count ? numbers : nil
    }
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
    for delete in entries("itemDeletes") {
      guard let n = numbers(delete, 3), let rows = oldRows(n[0], n[1], n[2]) else { continue }
      for (offset, row) in rows.enumerated() { leaving[id(row)] = (n[0], n[1] + offset, row) }
    }
    for delete in entries("sectionDeletes") {
      guard let n = numbers(delete, 2) else { continue }
      for section in n[0]..<(n[0] + max(n[1], 0)) {
        for (offset, row) in (oldRows(section, 0, old?[section].rows.count ?? 0) ?? []).enumerated() {
          leaving[id(row)] = (section, offset, row)
        }
      }
    }
    var arriving: [String: (section: Int, row: Int)] = [:]
    for insert in entries("itemInserts") {
      guard let at = numbers(insert["at"] ?? .null, 2) else { continue }
      for (offset, row) in (insert["rows"]?.arrayValue ?? []).enumerated() {
        arriving[id(row)] = (at[0], at[1] + offset)
      }
    }
    for insert in entries("sectionInserts") {
      let index = Int(insert["index"]?.intValue ?? 0)
      for (offset, row) in (insert["section"]?["rows"]?.arrayValue ?? []).enumerated() {
        arriving[id(row)] = (index, offset)
      }
    }
    let crossed = Set(leaving.keys).intersection(arriving.keys)

    for delete in entries("sectionDeletes") {
      guard let n = numbers(delete, 2) else { continue }
      guard let old, n[0] >= 0, n[0] + n[1] <= old.count else {
        parts.append(n[1] == 1 ? "−§ \(n[0])" : "−\(n[1])§ at \(n[0])")
        continue
      }
      for section in n[0]..<(n[0] + n[1]) {
        let rows = old[section].rows.filter { !crossed.contains(id($0)) }
        parts.append("−§ '\(old[section].id)'" + (rows.isEmpty ? "" : " with \(names(rows))"))
      }
    }
    for insert in entries("sectionInserts") {
      let rows = (insert["section"]?["rows"]?.arrayValue ?? []).filter { !crossed.contains(id($0)) }
      // A lean answer (`list/create`'s by default) counts the rows instead of carrying them.
      let counted = insert["section"]?["rows"] == nil ? insert["section"]?["rowCount"]?.intValue ?? 0 : 0
      parts.append(
        "+§ '\(insert["section"]?["id"]?.stringValue ?? "?")' at \(insert["index"]?.intValue ?? 0)"
          + (rows.isEmpty ? "" : " with \(names(rows))")
          + (counted == 0 ? "" : " with \(counted) row\(counted == 1 ? "" : "s")"))
    }
    for move in entries("sectionMoves") {
      guard let n = numbers(move, 2) else { continue }
      let name = old.flatMap { $0.indices.contains(n[0]) ? " '\($0[n[0]].id)'" : nil } ?? ""
      parts.append("↕§\(name) \(n[0])→\(n[1])")
    }
    for reload in entries("sectionReloads") { parts.append("~§ '\(reload["id"]?.stringValue ?? "?")'") }

    for insert in entries("itemInserts") {
      let all = insert["rows"]?.arrayValue ?? []
      guard let at = numbers(insert["at"] ?? .null, 2),
        let first = all.firstIndex(where: { !crossed.contains(id($0)) })
      else { continue }
      let rows = all.filter { !crossed.contains(id($0)) }
      parts.append("+\(rows.count) \(names(rows)) at \(at[0]):\(at[1] + first)")
    }
    for delete in entries("itemDeletes") {
      guard let n = numbers(delete, 3) else { continue }
      guard let all = oldRows(n[0], n[1], n[2]) else {
        parts.append("−\(n[2]) at \(n[0]):\(n[1])")
        continue
      }
      guard let first = all.firstIndex(where: { !crossed.contains(id($0)) }) else { continue }
      let rows = all.filter { !crossed.contains(id($0)) }
      parts.append("−\(rows.count) \(names(rows)) at \(n[0]):\(n[1] + first)")
    }
    for move in entries("itemMoves") {
      guard let n = numbers(move, 5) else { continue }
      let rows = oldRows(n[0], n[1], n[4])
      parts.append(
        "↕\(n[4] == 1 ? "" : "\(n[4])")\(rows.map { " " + names($0) } ?? "") \(n[0]):\(n[1])→\(n[2]):\(n[3])")
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
    for (key, sign) in [("itemReloads", "⟳"), ("itemReconfigures", "~")] {
      for entry in entries(key) {
        let rows = entry["rows"]?.arrayValue ?? []
        parts.append("\(sign)\(rows.count == 1 ? "" : "\(rows.count)") \(names(rows))")
      }
    }
    for (key, sign) in [("selected", "✓"), ("deselected", "✗"), ("expanded", "▾"), ("collapsed", "▸")] {
      let ids = entries(key).compactMap(\.stringValue)
      if !ids.isEmpty { parts.append(sign + " " + ids.joined(separator: " ")) }
    }
    if let mode = changeset["selectionMode"]?.stringValue { parts.append("mode \(mode)") }
    if let columns = changeset["columns"]?.arrayValue {
      let ids = columns.compactMap { $0["id"]?.stringValue }
      parts.append("columns " + (ids.isEmpty ? "none" : ids.joined(separator: ", ")))
    }
    if let state = changeset["emptyState"] {
      parts.append(state.isNull ? "no empty state" : "empty state '\(state["title"]?.stringValue ?? "")'")
    }
    if let editing = changeset["editing"]?.boolValue { parts.append(editing ? "editing" : "not editing") }
    return parts
  }

  /// `'A', 'B', 'C', …`: the labels of the first rows.
  static func names(_ rows: [JSONValue]) -> String {
    let shown = rows.prefix(shownNames).map { "'\(TreeRenderer.label($0))'" }
    return shown.joined(separator: ", ") + (rows.count > shownNames ? ", …" : "")
  }
}
