// The status line: the list shown (and its view's sort and filter), version, rows, selection count, last change, messages, connection.

/// Draws the bottom line, and the lines of a message too long to share it.
enum StatusLine {
  /// The status line; its message only when ``messageLines(_:time:)`` is empty (it fits).
  static func line(_ app: TUIApp, time: Double) -> StyledLine {
    var line = withoutMessage(app, time: time)
    if let message = app.shownMessage(at: time), fits(message.text, line, width: app.width) {
      line.add("  " + message.text, style(error: message.error))
    }
    return line
  }

  /// A message too long for the status line, wrapped to the terminal's width: the lines shown
  /// just above it. Empty when there is none or it fits.
  static func messageLines(_ app: TUIApp, time: Double) -> [StyledLine] {
    guard let message = app.shownMessage(at: time),
      !fits(message.text, withoutMessage(app, time: time), width: app.width)
    else { return [] }
    return TextWidth.wrap(message.text, to: app.width - 2).map {
      StyledLine(" " + $0, style(error: message.error))
    }
  }

  private static func style(error: Bool) -> Style {
    Style(color: error ? Style.red : Style.green, bold: error)
  }

  /// Whether `text` fits after the left spans of `line`, before its right spans.
  private static func fits(_ text: String, _ line: StyledLine, width: Int) -> Bool {
    let left = line.spans.reduce(0) { $0 + TextWidth.of($1.text) }
    let right = line.right.reduce(0) { $0 + TextWidth.of($1.text) }
    return left + 2 + TextWidth.of(text) + 1 + right <= width
  }

  /// The last change (`v12 +3 −1`) without its version when that is the one shown already (or a
  /// view's, which means nothing to the user); nil when nothing else is left.
  private static func lastChange(_ view: ListViewState, derived: Bool) -> String? {
    guard let change = view.lastChange else { return nil }
    var words = change.split(separator: " ")
    if derived || words.first == "v\(view.version)" { words.removeFirst() }
    return words.isEmpty ? nil : words.joined(separator: " ")
  }

  private static func withoutMessage(_ app: TUIApp, time: Double) -> StyledLine {
    var line = StyledLine()
    if case .search(let text) = app.overlay {
      line.add("/", Style(bold: true))
      line.add(text + "▏", Style(underline: true))
      let table = app.view?.columns.isEmpty == false
      line.add(
        table ? "   Enter filter (a live view) · Esc cancel" : "   Enter search · Esc cancel",
        Style(dim: true))
      return line
    }
    if app.refreshingSince != nil {
      line.add(" " + Glyphs.spinner(at: time) + " refreshing…", Style(color: Style.cyan))
    }
    switch app.screen {
    case .picker:
      line.add(" Enter open · ? help · q quit", Style(dim: true))
    case .list:
      if let view = app.view {
        // The list the user opened, never the id of the view that sorts or filters it, and that
        // list's version (as the picker shows it): a view's versions are its own.
        let shown = app.shownList ?? view.list
        let version =
          app.derived == nil ? view.version : app.picker.entries.first { $0.list == shown }?.version ?? 0
        line.add(" \(shown)", Style(bold: true))
        line.add(" v\(Renderer.format(max(0, version)))", Style(color: Style.yellow))
        if let derived = Renderer.derivedDescription(app) { line.add(" (\(derived))") }
        line.add(" · \(Renderer.format(view.totalRows)) \(view.totalRows == 1 ? "row" : "rows")")
        line.add(" · \(Renderer.format(view.selection.count)) selected")
        if let change = lastChange(view, derived: app.derived != nil) {
          line.add(" · \(change)", Style(dim: true))
        }
      }
    }
    switch app.connection {
    case .connected: line.right = [("● connected ", Style(color: Style.green))]
    case .connecting: line.right = [("○ connecting… ", Style(color: Style.yellow))]
    case .disconnected: line.right = [("✕ disconnected — retrying ", Style(color: Style.red, bold: true))]
    }
    return line
  }
}
