// Encodes a window of the flattened visible rows across sections, as a scrolling viewer needs.
import JSON
import ListModel

public enum WindowEncoding {
  /// `{offset, totalRows, rows, sections}` for rows `offset..<offset+limit` of the list's
  /// flattened visible rows. Each row carries its `section` id and `indexPath`; `sections`
  /// describes the sections the window meets (and empty sections inside it) with their
  /// `firstRow` and row count. O(sections + log n + rows returned).
  public static func window(_ snapshot: ListSnapshot, offset: Int, limit: Int) -> JSONObject {
    var rows: [JSONValue] = []
    var sections: [JSONValue] = []
    var first = 0  // flattened index of the current section's first row
    let end = offset + limit
    for (index, id) in snapshot.sectionIdentifiers.enumerated() {
      let count = snapshot.numberOfItems(inSection: id) ?? 0
      defer { first += count }
      // A window of no rows meets no non-empty section, not even one it lies inside.
      let meets = limit > 0 && first < end && first + count > offset
      let emptyInside = count == 0 && first >= offset && first < max(end, offset + 1)
      guard meets || emptyInside else { continue }
      var section = RowEncoding.sectionHeader(
        id: id, header: snapshot.header(ofSection: id), footer: snapshot.footer(ofSection: id))
      section.append("index", .int(Int64(index)))
      section.append("firstRow", .int(Int64(first)))
      section.append("rows", .int(Int64(count)))
      sections.append(.object(section))
      let range = max(offset - first, 0)..<min(end - first, count)
      guard !range.isEmpty else { continue }
      for (row, value) in zip(range, snapshot.rows(inSectionAt: index, range: range)) {
        guard case .object(var object) = RowEncoding.row(value) else { continue }
        object.append("section", .string(id))
        object.append("indexPath", [.int(Int64(index)), .int(Int64(row))])
        rows.append(.object(object))
      }
    }
    return [
      "offset": .int(Int64(offset)), "totalRows": .int(Int64(first)), "rows": .array(rows),
      "sections": .array(sections),
    ]
  }

  /// What a windowed subscription starts from: `window` (as `query/window`), `sections` (every
  /// section with its header, footer, kind, header mode and row count) and `selection`.
  /// O(sections + limit · log n + selected).
  public static func appendWindowed(_ snapshot: ListSnapshot, window: RowWindow, to object: inout JSONObject)
  {
    object.append("window", .object(Self.window(snapshot, offset: window.offset, limit: window.limit)))
    object.append(
      "sections",
      .array(
        snapshot.sectionIdentifiers.map { id in
          var section = RowEncoding.sectionHeader(
            id: id, header: snapshot.header(ofSection: id), footer: snapshot.footer(ofSection: id),
            kind: snapshot.kind(ofSection: id), headerMode: snapshot.headerMode(ofSection: id))
          section.append("rows", .int(Int64(snapshot.numberOfItems(inSection: id) ?? 0)))
          return .object(section)
        }))
    object.append("selection", .array(snapshot.selectedItems.map { .string($0) }))
  }
}
