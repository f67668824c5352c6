// Encodes a model Changeset as the wire changeset of Protocol/README.md §4.
import JSON
import ListModel

/// Changeset → wire JSON. Empty lists are omitted; ranges are `[start, count]`, item ranges
/// `[section, start, count]`, moves `[from, to]` and `[fromSection, fromRow, toSection, toRow,
/// count]`; runs that carry rows are `{"at": [section, start], "rows": […]}`.
enum ChangesetEncoding {
  /// O(entries + size of the rows carried).
  static func changeset(_ changeset: Changeset) -> JSONValue {
    var object = JSONObject()
    func add(_ key: String, _ values: [JSONValue]) {
      if !values.isEmpty { object.append(key, .array(values)) }
    }
    func ints(_ values: Int...) -> JSONValue { .array(values.map { .int(Int64($0)) }) }
    func ids(_ values: [String]) -> [JSONValue] { values.map { .string($0) } }
    func runs(_ runs: [Changeset.ItemRun]) -> [JSONValue] {
      runs.map { run in
        ["at": ints(run.section, run.start), "rows": RowEncoding.rows(run.rows)]
      }
    }

    add("sectionDeletes", changeset.sectionDeletes.map { ints($0.lowerBound, $0.count) })
    add(
      "sectionInserts",
      changeset.sectionInserts.map { insert in
        ["index": .int(Int64(insert.index)), "section": RowEncoding.section(insert.section)]
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
    add("itemInserts", runs(changeset.itemInserts))
    add(
      "itemMoves",
      changeset.itemMoves.map { ints($0.from.section, $0.from.item, $0.to.section, $0.to.item, $0.count) })
    add("itemReloads", runs(changeset.itemReloads))
    add("itemReconfigures", runs(changeset.itemReconfigures))
    add("selected", ids(changeset.selected))
    add("deselected", ids(changeset.deselected))
    add("expanded", ids(changeset.expanded))
    add("collapsed", ids(changeset.collapsed))
    if let mode = changeset.selectionMode { object.append("selectionMode", .string(mode.rawValue)) }
    if let columns = changeset.columns { object.append("columns", ColumnCoding.columns(columns)) }
    return .object(object)
  }
}
