// One row of the list view: selection mark, outline indentation and ▸/▾, text, accessories.

/// Draws rows.
enum RowLine {
  /// The line of flattened row `index`: a placeholder until it is fetched; reverse video on
  /// the cursor; a highlight while it flashes.
  static func line(_ view: ListViewState, row index: Int, time: Double) -> StyledLine {
    var line = StyledLine()
    guard let row = view.rows[index] else {
      line.add((index == view.cursorRow ? "▶" : " ") + "   ⋯", Style(dim: true))
      if index == view.cursorRow { line.overlay = Style(reverse: true) }
      return line
    }
    let selected = view.selection.contains(row.id)
    let multiselect = row.accessories.contains { $0["type"]?.stringValue == "multiselect" }
    // The cursor and selection marks are text too, so they survive NO_COLOR and screen readers.
    line.add(index == view.cursorRow ? "▶" : " ", Style(color: Style.cyan, bold: true))
    line.add(selected ? "● " : (multiselect ? "○ " : "  "), Style(color: Style.green, bold: true))
    line.add(String(repeating: "  ", count: min(row.level, 20)))
    line.add(
      Glyphs.disclosure(hasChildren: row.hasChildren, expanded: row.expanded), Style(color: Style.yellow))
    line.add(row.text ?? "#\(row.id)", Style(bold: selected, dim: !row.selectable))
    if let secondary = row.secondaryText { line.add("  " + secondary, Style(dim: true)) }
    var right: [(text: String, style: Style)] = []
    for accessory in row.accessories {
      guard let glyph = Glyphs.accessory(accessory, time: time) else { continue }
      if !right.isEmpty { right.append((" ", .plain)) }
      right.append(glyph)
    }
    if !right.isEmpty { right.append((" ", .plain)) }
    line.right = right
    if view.isFlashing(row.id, now: time) { line.overlay = Style(bold: true, background: Style.yellow) }
    if index == view.cursorRow {
      var overlay = line.overlay ?? Style()
      overlay.reverse = true
      line.overlay = overlay
    }
    return line
  }
}
