// Encodes a model Changeset as the wire changeset of Protocol/README.md §4, with all, none or a window's rows.
import JSON
import ListModel

/// Changeset → wire JSON. Empty lists are omitted; ranges are `[start, count]`, item ranges
/// `[section, start, count]`, moves `[from, to]` and `[fromSection, fromRow, toSection, toRow,
/// count]`; runs that carry rows are `{"at": [section, start], "rows": […]}`, runs without them
/// `{"at": [section, start], "count": n}`.
public enum ChangesetEncoding {
  /// Which row payloads an encoded changeset carries.
  public enum Rows: Sendable {
    /// Every row (a full subscriber, a mutation's answer by default).
    case all
    /// None: runs are counts, inserted sections `{id, header?, footer?, kind?, headerMode?,
    /// rowCount}` (`rows: "none"`).
    case none
    /// The rows inside a window after the change, plus `enter` (a windowed subscriber).
    case window(RowWindow, old: ListSnapshot, new: ListSnapshot)
  }

  /// O(entries + size of the rows carried) (plus O(sections + limit · log n) for a window).
  public static func changeset(_ changeset: Changeset, rows form: Rows = .all) -> JSONValue {
    var object = JSONObject()
    func add(_ key: String, _ values: [JSONValue]) {
      if !values.isEmpty { object.append(key, .array(values)) }
    }
    func ints(_ values: Int...) -> JSONValue { .array(values.map { .int(Int64($0)) }) }
    func ids(_ values: [String]) -> [JSONValue] { values.map { .string($0) } }
    func piece(_ section: Int, _ start: Int, count: Int, rows: [Row]?) -> JSONValue {
      if let rows { return ["at": ints(section, start), "rows": RowEncoding.rows(rows)] }
      return ["at": ints(section, start), "count": .int(Int64(count))]
    }
    var filter: WindowFilter?
    if case .window(let window, let old, let new) = form {
      filter = WindowFilter(from: old, to: new, window: window)
    }
    func runs(_ runs: [Changeset.ItemRun], inserts: Bool) -> [JSONValue] {
      switch form {
      case .all: return runs.map { piece($0.section, $0.start, count: $0.rows.count, rows: $0.rows) }
      case .none: return runs.map { piece($0.section, $0.start, count: $0.rows.count, rows: nil) }
      case .window:
        return runs.flatMap { run in
          let pieces = inserts ? filter!.pieces(ofInsert: run) : filter!.pieces(ofUpdate: run)
          return pieces.map { piece(run.section, $0.start, count: $0.count, rows: $0.rows) }
        }
      }
    }
    func section(_ insert: Changeset.SectionInsert) -> JSONValue {
      let section = insert.section
      if case .all = form { return RowEncoding.section(section) }
      // Counted: lean (`none`), or with the rows inside a window.
      var object = RowEncoding.sectionHeader(section)
      object.append("rowCount", .int(Int64(insert.rowCount)))
      if case .window = form {
        let inside = filter!.insertedRows(section: insert.index, count: section.rows.count)
        if !inside.isEmpty { object.append("rowsAt", .int(Int64(inside.lowerBound))) }
        object.append("rows", RowEncoding.rows(Array(section.rows[inside])))
      }
      return .object(object)
    }

    add("sectionDeletes", changeset.sectionDeletes.map { ints($0.lowerBound, $0.count) })
    add(
      "sectionInserts",
      changeset.sectionInserts.map { insert in
        ["index": .int(Int64(insert.index)), "section": section(insert)]
      })
    add("sectionMoves", changeset.sectionMoves.map { ints($0.from, $0.to) })
    add(
      "sectionReloads",
      changeset.sectionReloads.map { reload in
        var section = RowEncoding.sectionHeader(
          id: reload.id, header: reload.header, footer: reload.footer, kind: reload.kind,
          headerMode: reload.headerMode)
        section.append("index", .int(Int64(reload.index)))
        return .object(section)
      })
    add("itemDeletes", changeset.itemDeletes.map { ints($0.section, $0.rows.lowerBound, $0.rows.count) })
    add("itemInserts", runs(changeset.itemInserts, inserts: true))
    add(
      "itemMoves",
      changeset.itemMoves.map { ints($0.from.section, $0.from.item, $0.to.section, $0.to.item, $0.count) })
    add("itemReloads", runs(changeset.itemReloads, inserts: false))
    add("itemReconfigures", runs(changeset.itemReconfigures, inserts: false))
    if let filter {
      add("enter", filter.enter.map { piece($0.section, $0.start, count: $0.rows.count, rows: $0.rows) })
    }
    add("selected", ids(changeset.selected))
    add("deselected", ids(changeset.deselected))
    add("expanded", ids(changeset.expanded))
    add("collapsed", ids(changeset.collapsed))
    if let mode = changeset.selectionMode { object.append("selectionMode", .string(mode.rawValue)) }
    if let columns = changeset.columns { object.append("columns", ColumnCoding.columns(columns)) }
    if let state = changeset.emptyState { object.append("emptyState", EmptyStateCoding.encode(state)) }
    if let editing = changeset.isEditing { object.append("editing", .bool(editing)) }
    return .object(object)
  }
}
