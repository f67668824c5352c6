// The status line: list id, version, rows, selection count, last change, messages, connection.

/// Draws the bottom line.
enum StatusLine {
  static func line(_ app: TUIApp, time: Double) -> StyledLine {
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
        line.add(" \(view.list)", Style(bold: true))
        line.add(" v\(Renderer.format(max(0, view.version)))", Style(color: Style.yellow))
        line.add(" · \(Renderer.format(view.totalRows)) rows")
        line.add(" · \(Renderer.format(view.selection.count)) selected")
        if let change = view.lastChange { line.add(" · \(change)", Style(dim: true)) }
      }
    }
    if let message = app.message, message.until > time {
      line.add(
        "  " + message.text, Style(color: message.error ? Style.red : Style.green, bold: message.error))
    }
    switch app.connection {
    case .connected: line.right = [("● connected ", Style(color: Style.green))]
    case .connecting: line.right = [("○ connecting… ", Style(color: Style.yellow))]
    case .disconnected: line.right = [("✕ disconnected — retrying ", Style(color: Style.red, bold: true))]
    }
    return line
  }
}
