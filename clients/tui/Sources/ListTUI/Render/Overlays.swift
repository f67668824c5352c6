// Boxes drawn over the body: the key help, the actions popup and the explanation panel.

/// Overlay drawing.
public enum Overlays {
  /// The key help, two columns: key, what it does (`?` shows it; so does listd-tui(1)).
  public static let help: [(String, String)] = [
    ("j k ↓ ↑", "move"), ("PgDn PgUp", "page down / up"), ("g G", "first / last row"),
    ("Enter space", "select / deselect"), ("h l ← →", "collapse / expand (h: to parent)"),
    ("e E", "expand all / collapse all"), ("/ n N", "search, next / previous match"),
    ("/ (table)", "filter the table (a live view; empty: none)"),
    ("s (table)", "sort: next column ▲, ▼, then unsorted"),
    ("a", "actions (swipe, context menu, pop-up)"), ("t", "toggle"), ("d", "delete"),
    ("w", "why: the row's last change"),
    ("r", "refresh (asks the owner)"), ("Tab", "next list"), ("q Esc", "back / quit"),
    ("Ctrl-L", "redraw"), ("?", "this help"),
  ]

  /// `rows` in a box with `title`, centered over `body`.
  static func box(_ rows: [(String, String)], title: String, over body: [StyledLine], width: Int)
    -> [StyledLine]
  {
    let keyWidth = rows.map { TextWidth.of($0.0) }.max() ?? 0
    let lines = rows.map { key, text in
      StyledLine([
        (" " + key + String(repeating: " ", count: keyWidth - TextWidth.of(key)) + "  ", Style(bold: true)),
        (text, .plain),
      ])
    }
    return framed(lines, title: title, over: body, width: width, cursor: nil)
  }

  /// The actions popup: numbered actions, destructive ones in red, the highlighted one reversed.
  static func actions(_ menu: ActionMenu, over body: [StyledLine], width: Int) -> [StyledLine] {
    let lines = menu.actions.enumerated().map { index, action in
      StyledLine([
        (" \(index + 1) ", Style(dim: true)),
        (action.title, Style(color: action.destructive ? Style.red : nil, bold: action.destructive)),
        ("  \(action.origin)", Style(dim: true)),
      ])
    }
    return framed(lines, title: "Actions · \(menu.title)", over: body, width: width, cursor: menu.cursor)
  }

  /// `lines` in a frame of box-drawing characters, centered over `body`.
  static func framed(_ lines: [StyledLine], title: String, over body: [StyledLine], width: Int, cursor: Int?)
    -> [StyledLine]
  {
    let inner = min(
      width - 4, max(TextWidth.of(title) + 4, (lines.map { TextWidth.of($0.plainText) }.max() ?? 0) + 2))
    let left = max(0, (width - inner - 2) / 2)
    let pad = String(repeating: " ", count: left)
    let frameStyle = Style(color: Style.cyan)
    let titleText = TextWidth.truncate(" \(title) ", to: inner)
    var boxed: [StyledLine] = [
      StyledLine([
        (pad + "┌", frameStyle), (titleText, Style(bold: true)),
        (String(repeating: "─", count: max(0, inner - TextWidth.of(titleText))) + "┐", frameStyle),
      ])
    ]
    for (index, line) in lines.enumerated() {
      var content = StyledLine(line.spans)
      if index == cursor { content.overlay = Style(reverse: true) }
      let text = content.render(width: inner, colors: true)
      _ = text
      var row = StyledLine([(pad + "│", frameStyle)])
      // Keep styles: re-add the spans truncated to the inner width, then pad.
      var used = 0
      for span in line.spans {
        let piece = TextWidth.truncate(span.text, to: inner - used)
        used += TextWidth.of(piece)
        var style = span.style
        if index == cursor { style.reverse = true }
        row.add(piece, style)
      }
      row.add(String(repeating: " ", count: max(0, inner - used)), Style(reverse: index == cursor))
      row.add("│", frameStyle)
      boxed.append(row)
    }
    boxed.append(StyledLine(pad + "└" + String(repeating: "─", count: inner) + "┘", frameStyle))
    var result = body
    let start = max(0, (body.count - boxed.count) / 2)
    for (offset, line) in boxed.enumerated() where start + offset < result.count {
      result[start + offset] = line
    }
    return result
  }
}

extension Overlays {
  /// The explanation panel: the version and source in bold, then each cause and its fields;
  /// cut to the body's height with `…`.
  static func explain(_ panel: ExplainPanel, over body: [StyledLine], width: Int) -> [StyledLine] {
    var lines: [StyledLine]
    if let failure = panel.failure {
      lines = [StyledLine(" " + failure, Style(color: Style.red))]
    } else if let text = panel.lines {
      lines = text.enumerated().map { index, text in
        index == 0 ? StyledLine(" " + text, Style(bold: true)) : StyledLine(" " + text)
      }
    } else {
      lines = [StyledLine(" asking list/explain…", Style(dim: true))]
    }
    lines.append(StyledLine(" Esc · q · w close", Style(dim: true)))
    let room = max(1, body.count - 2)
    if lines.count > room { lines = Array(lines.prefix(room - 1)) + [StyledLine(" …", Style(dim: true))] }
    return framed(lines, title: "Why · \(panel.title)", over: body, width: width, cursor: nil)
  }
}
