// One row of the list view: selection mark, outline indentation and ▸/▾, text or a table's cells, kind, accessories.

import JSON
import ListClient

/// Draws rows.
enum RowLine {
  /// A changed row's highlight: bold black on yellow, a pair that reads on dark and light themes
  /// alike (the terminal's default foreground on yellow does not on a dark one). NO_COLOR keeps
  /// the bold and adds an underline, which needs no colour.
  static let flash = Style(color: Style.black, bold: true, background: Style.yellow)

  /// The line of flattened row `index`: a placeholder until it is fetched; reverse video on
  /// the cursor; a highlight while it flashes.
  static func line(_ view: ListViewState, row index: Int, time: Double, widths: [Int] = []) -> StyledLine {
    var line = StyledLine()
    guard let row = view.rows[index] else {
      line.add((index == view.cursorRow ? "▶" : " ") + "   ⋯", Style(dim: true))
      if index == view.cursorRow { line.overlay = Style(reverse: true) }
      return line
    }
    let selected = view.selection.contains(row.id)
    let multiselect = row.accessories.contains { $0["type"]?.stringValue == "multiselect" }
    // The cursor and selection marks are text too, so they survive NO_COLOR and screen readers.
    // Only the glyphs are coloured: the cursor's reverse video would paint coloured blanks as blocks.
    if index == view.cursorRow { line.add("▶", Style(color: Style.cyan, bold: true)) } else { line.add(" ") }
    if selected || multiselect {
      line.add(selected ? "●" : "○", Style(color: Style.green, bold: true))
    } else {
      line.add(" ")
    }
    line.add(" ")
    // Accessories shown only while editing (or only while not) follow the list's `isEditing`;
    // those on the leading edge come before the text. Each edge in the spec's order, by type.
    let shown = AccessoryOrder.displayed(
      row.accessories.filter { accessory in
        switch accessory["displayed"]?.stringValue {
        case "whenEditing": return view.isEditing
        case "whenNotEditing": return !view.isEditing
        default: return true
        }
      })
    let leading = shown.filter {
      AccessoryOrder.isLeading($0) && $0["type"]?.stringValue != "multiselect"
    }
    for accessory in leading {
      guard let glyph = Glyphs.accessory(accessory, time: time) else { continue }
      line.add(glyph.text, glyph.style)
      line.add(" ")
    }
    if !view.columns.isEmpty {
      for span in TableLine.cells(row, view.columns, widths: widths, selected: selected) {
        line.add(span.text, span.style)
      }
    } else {
      line.add(String(repeating: "  ", count: min(row.level, 20)))
      if let triangle = Glyphs.disclosure(hasChildren: row.hasChildren, expanded: row.expanded) {
        line.add(triangle, Style(color: Style.yellow))
        line.add(" ")
      } else {
        line.add("  ")
      }
      line.add(row.text ?? "#\(row.id)", Style(bold: selected, dim: !row.selectable))
      if let secondary = row.secondaryText { line.add("  " + secondary, Style(dim: true)) }
    }
    // The kind (the cell type of a mixed list) is shown, dim, after the text — unless a cell of
    // the table shows it already (a Kind column).
    if let kind = row.json["kind"]?.stringValue,
      !view.columns.contains(where: { row.json["cells"]?[$0.id]?.stringValue == kind })
    {
      line.add("  ‹\(kind)›", Style(color: Style.magenta, dim: true))
    }
    var right: [(text: String, style: Style)] = []
    for accessory in shown where !leading.contains(accessory) {
      guard let glyph = Glyphs.accessory(accessory, time: time) else { continue }
      if !right.isEmpty { right.append((" ", .plain)) }
      right.append(glyph)
    }
    if !right.isEmpty { right.append((" ", .plain)) }
    line.right = right
    if view.isFlashing(row.id, now: time) { line.overlay = Self.flash }
    if index == view.cursorRow {
      var overlay = line.overlay ?? Style()
      overlay.reverse = true
      line.overlay = overlay
    }
    return line
  }
}
