// Draws the app as styled lines: title line, the screen's body, overlays, status line.

/// Pure rendering: an app state and a clock in, one ``StyledLine`` per terminal line out.
public enum Renderer {
  /// The frame for `app` at `time`: exactly `app.height` lines.
  public static func frame(_ app: TUIApp, time: Double) -> [StyledLine] {
    var body: [StyledLine]
    let bodyHeight = app.height - 2
    switch app.screen {
    case .picker: body = pickerBody(app, height: bodyHeight)
    case .list:
      body =
        app.view.map { listBody($0, height: bodyHeight, width: app.width, time: time, derived: app.derived) }
        ?? []
    }
    body += Array(repeating: StyledLine(), count: max(0, bodyHeight - body.count))
    body = Array(body.prefix(bodyHeight))
    switch app.overlay {
    case .help: body = Overlays.box(Overlays.help, title: "Keys", over: body, width: app.width)
    case .actions(let menu): body = Overlays.actions(menu, over: body, width: app.width)
    case .explain(let panel): body = Overlays.explain(panel, over: body, width: app.width)
    default: break
    }
    // A message too long for the status line is wrapped above it, over the body's last lines.
    let message = StatusLine.messageLines(app, time: time).suffix(max(0, bodyHeight - 1))
    body = Array(body.prefix(bodyHeight - message.count)) + message
    return [titleLine(app)] + body + [StatusLine.line(app, time: time)]
  }

  /// `sorted by PID ▲ · filter 'x'`: what the live view shown in the list's place does, nil
  /// when none is shown.
  static func derivedDescription(_ app: TUIApp) -> String? {
    let parts = derivedWords(app)
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }

  /// `["sorted by PID ▲", "filter 'x'"]`: the sort and filter of the view shown, if any.
  static func derivedWords(_ app: TUIApp) -> [String] {
    guard let derived = app.derived else { return [] }
    var parts: [String] = []
    if let sort = derived.sort {
      let title = app.view?.columns.first { $0.id == sort.column }?.title ?? sort.column
      parts.append("sorted by \(title) \(sort.descending ? "▼" : "▲")")
    }
    if !derived.filter.isEmpty { parts.append("filter '\(derived.filter)'") }
    return parts
  }

  /// Renders a frame to terminal text, one string per line, each `width` cells.
  public static func render(_ lines: [StyledLine], width: Int, colors: Bool) -> [String] {
    lines.map { $0.render(width: width, colors: colors) }
  }

  static func titleLine(_ app: TUIApp) -> StyledLine {
    var line = StyledLine()
    switch app.screen {
    case .picker:
      line.add(" listd · lists (\(app.picker.entries.count))", Style(bold: true))
      line.right = [("\(app.endpoint) ", .plain)]
    case .list:
      guard let view = app.view else { break }
      let shown = app.shownList ?? view.list
      let entry = app.picker.entries.first { $0.list == shown }
      line.add(" \(entry?.title ?? shown)", Style(bold: true))
      line.add(" · \(shown) · \(entry?.appearance ?? "plain")")
      if let derived = derivedDescription(app) { line.add(" · " + derived) }
      if let mode = view.selectionMode { line.add(" · selection \(mode)") }
      if view.isEditing { line.add(" · editing", Style(bold: true)) }
      let position =
        view.totalRows == 0 ? "empty" : "row \(format(view.cursorRow + 1)) of \(format(view.totalRows))"
      line.right = [("\(position) ", Style(bold: true))]
    }
    // A bar across the whole width, in reverse video (which NO_COLOR keeps).
    line.overlay = Style(reverse: true)
    return line
  }

  static func pickerBody(_ app: TUIApp, height: Int) -> [StyledLine] {
    if case .disconnected(let reason) = app.connection {
      // Why there is nothing to show, and what to do about it (the reason says how to start a
      // daemon when none answers).
      return TextWidth.wrap(reason, to: app.width - 4).map {
        StyledLine("  " + $0, Style(color: Style.red))
      } + [StyledLine("  retrying every second · q quits", Style(dim: true))]
    }
    if app.picker.entries.isEmpty {
      return [StyledLine(app.connection == .connected ? "  no lists" : "  …", Style(dim: true))]
    }
    let entries = app.picker.entries
    let top = max(0, min(app.picker.cursor - height / 2, entries.count - height))
    let titleWidth = min(32, entries.map { TextWidth.of($0.title) }.max() ?? 0)
    return entries.indices.dropFirst(top).prefix(height).map { index in
      let entry = entries[index]
      var line = StyledLine()
      let title = TextWidth.truncate(entry.title, to: titleWidth)
      if index == app.picker.cursor { line.add("▶", Style(color: Style.cyan)) } else { line.add(" ") }
      line.add(" ")
      line.add(
        title + String(repeating: " ", count: max(0, titleWidth - TextWidth.of(title))), Style(bold: true))
      line.add("  \(entry.list)", Style(dim: true))
      line.add("  \(entry.appearance)", Style(dim: true))
      if entry.owner == nil { line.add("  (no owner)", Style(dim: true)) }
      line.right = [
        ("\(format(entry.rows)) rows", .plain), ("  v\(format(entry.version)) ", Style(color: Style.yellow)),
      ]
      if index == app.picker.cursor { line.overlay = Style(reverse: true) }
      return line
    }
  }

  static func listBody(
    _ view: ListViewState, height: Int, width: Int, time: Double, derived: DerivedView? = nil
  ) -> [StyledLine] {
    guard let layout = view.layout else { return [StyledLine("  loading…", Style(dim: true))] }
    var lines: [StyledLine] = []
    var widths: [Int] = []
    if !view.columns.isEmpty {
      let shown = view.visibleRows.compactMap { view.rows[$0] }
      widths = TableLine.widths(view.columns, rows: shown, width: width)
      let sort = derived?.sort.map { (column: $0.column, descending: $0.descending) }
      lines.append(TableLine.header(view.columns, widths: widths, sort: sort))
    }
    if layout.totalRows == 0 {
      return lines
        + EmptyState.lines(view, filter: derived?.filter ?? "", width: width, height: height - lines.count)
    }
    return lines
      + layout.displayEntries(from: view.top, count: height - lines.count).map { entry in
        switch entry {
        case .header(let section):
          return StyledLine(
            " " + (layout.header(section) ?? ""), Style(color: Style.cyan, bold: true))
        case .footer(let section):
          return StyledLine("   " + (layout.sections[section].footer ?? ""), Style(dim: true))
        case .row(let index):
          return RowLine.line(view, row: index, time: time, widths: widths)
        }
      }
  }

  /// `1234567` → `1,234,567`.
  static func format(_ number: Int) -> String {
    let digits = String(abs(number))
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return number < 0 ? "-" + result : result
  }
}
