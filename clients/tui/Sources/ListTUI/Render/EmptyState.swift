// An empty list's screen: its empty state centred (ContentUnavailableView), or the search variant when a filter matches nothing.
import JSON

/// Draws the body of a list without rows.
enum EmptyState {
  /// The lines of an empty list `height` lines high: the title (bold), the image's name and the
  /// description (dim), centred both ways. A filtered view that matches nothing shows the search
  /// variant — its own `emptyState` when it is a `search` one, else "No Results for '…'".
  static func lines(_ view: ListViewState, filter: String, width: Int, height: Int) -> [StyledLine] {
    var title = "No Items"
    var image: String?
    var description: String?
    if let state = view.emptyState, filter.isEmpty || state["kind"]?.stringValue == "search" {
      title = state["title"]?.stringValue ?? title
      image = state["image"]?.stringValue
      description = state["description"]?.stringValue
    } else if !filter.isEmpty {
      title = "No Results for '\(filter)'"
      image = "magnifyingglass"
      description = "Check the spelling or try a new search."
    }
    var content: [(String, Style)] = []
    if let image { content.append(("◌ " + image, Style(dim: true))) }
    content.append((title, Style(bold: true)))
    if let description {
      content.append(("", .plain))
      for line in wrap(description, width: max(10, width - 8)) { content.append((line, Style(dim: true))) }
    }
    let top = max(0, (height - content.count) / 2)
    var lines = Array(repeating: StyledLine(), count: top)
    for (text, style) in content {
      let cut = TextWidth.truncate(text, to: width)
      let pad = max(0, (width - TextWidth.of(cut)) / 2)
      lines.append(StyledLine(String(repeating: " ", count: pad) + cut, style))
    }
    return lines
  }

  /// `text` in lines of at most `width` cells, broken at spaces.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, TextWidth.of(line) + 1 + TextWidth.of(String(word)) > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
