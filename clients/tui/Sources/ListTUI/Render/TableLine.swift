// A table list's lines: column widths, the header row with ▲/▼ on the sort column, aligned cells cut with `…`.

/// Draws a list with columns as a table.
enum TableLine {
  /// The gutter before the first column: cursor mark, selection mark, a blank.
  static let gutter = 3
  /// The blanks between two columns.
  static let gap = 2
  /// The widest an automatic column grows.
  static let widestAutomatic = 40
  /// The narrowest a column shrinks to when the screen is too narrow.
  static let narrowest = 3

  /// The width of each column on a screen `width` cells wide, for `rows` (those on screen): a
  /// column's `width` hint, else as wide as its title (with room for ▲) and its widest cell;
  /// when they do not fit, the widest automatic columns shrink first, then the others.
  static func widths(_ columns: [TableColumn], rows: [ListRow], width: Int) -> [Int] {
    var widths = columns.enumerated().map { index, column -> Int in
      if let hint = column.width { return hint }
      var widest = TextWidth.of(column.title) + 2
      for row in rows {
        widest = max(
          widest, TextWidth.of(text(of: row, column: index, columns)) + (index == 0 ? indent(row) : 0))
      }
      return min(widestAutomatic, max(1, widest))
    }
    let available = width - gutter - gap * max(0, columns.count - 1)
    var excess = widths.reduce(0, +) - available
    for automaticOnly in [true, false] where excess > 0 {
      while excess > 0 {
        let candidates = widths.indices.filter {
          widths[$0] > narrowest && (!automaticOnly || columns[$0].width == nil)
        }
        guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
        widths[widest] -= 1
        excess -= 1
      }
    }
    return widths
  }

  /// The header row: each title aligned as its column, ▲ (ascending) or ▼ (descending) after
  /// the title of the column the view is sorted by.
  static func header(_ columns: [TableColumn], widths: [Int], sort: (column: String, descending: Bool)?)
    -> StyledLine
  {
    var line = StyledLine(String(repeating: " ", count: gutter), .plain)
    for (index, column) in columns.enumerated() {
      if index > 0 { line.add(String(repeating: " ", count: gap)) }
      let arrow = sort?.column == column.id ? (sort!.descending ? " ▼" : " ▲") : ""
      let title = TextWidth.truncate(column.title, to: max(1, widths[index] - TextWidth.of(arrow))) + arrow
      line.add(aligned(title, column.alignment, widths[index]), Style(bold: true, underline: true))
    }
    return line
  }

  /// A row's cells, aligned and cut to their widths; the first column is indented by the row's
  /// outline level, with ▸/▾ on a row with children.
  static func cells(_ row: ListRow, _ columns: [TableColumn], widths: [Int], selected: Bool) -> [(
    text: String, style: Style
  )] {
    var spans: [(text: String, style: Style)] = []
    for (index, column) in columns.enumerated() {
      if index > 0 { spans.append((String(repeating: " ", count: gap), .plain)) }
      var width = widths[index]
      if index == 0 {
        let pad = String(repeating: "  ", count: min(row.level, 20))
        spans.append((pad, .plain))
        width -= TextWidth.of(pad)
        if let triangle = Glyphs.disclosure(hasChildren: row.hasChildren, expanded: row.expanded) {
          spans.append((triangle + " ", Style(color: Style.yellow)))
          width -= 2
        }
      }
      let value = TextWidth.truncate(text(of: row, column: index, columns), to: max(0, width))
      spans.append(
        (
          aligned(value, column.alignment, max(0, width)),
          Style(bold: selected && index == 0, dim: !row.selectable)
        ))
    }
    return spans
  }

  /// What a cell shows: its value as text; a row without cells shows its text in the first column.
  static func text(of row: ListRow, column index: Int, _ columns: [TableColumn]) -> String {
    let cells = row.json["cells"]?.objectValue
    if index == 0, cells == nil || cells?.isEmpty == true { return row.text ?? "#\(row.id)" }
    return TableColumn.text(cells?[columns[index].id])
  }

  /// The indentation an outline row's first cell takes (its level and its disclosure glyph).
  static func indent(_ row: ListRow) -> Int {
    2 * min(row.level, 20)
      + (Glyphs.disclosure(hasChildren: row.hasChildren, expanded: row.expanded) == nil ? 0 : 2)
  }

  /// `text` padded to `width` cells as `alignment` says.
  static func aligned(_ text: String, _ alignment: TableColumn.Alignment, _ width: Int) -> String {
    let room = max(0, width - TextWidth.of(text))
    switch alignment {
    case .leading: return text + String(repeating: " ", count: room)
    case .trailing: return String(repeating: " ", count: room) + text
    case .center:
      return String(repeating: " ", count: room / 2) + text + String(repeating: " ", count: room - room / 2)
    }
  }
}
