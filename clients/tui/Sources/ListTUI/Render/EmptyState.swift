// An empty list's screen: its empty state centred (ContentUnavailableView), or the search variant when a filter matches nothing.
import JSON

/// Draws the body of a list without rows.
enum EmptyState {
  /// The lines of an empty list `height` lines high: the title (bold), the image's name and the
  /// description (dim), centred both ways (Protocol/README.md, Empty states and editing). A
  /// filtered view that matches nothing shows the search variant — the view's own `search` empty
  /// state, else one for the filter's text — with the search variant's defaults.
  static func lines(_ view: ListViewState, filter: String, width: Int, height: Int) -> [StyledLine] {
    var state = view.emptyState
    if !filter.isEmpty, state?["kind"]?.stringValue != "search" {
      state = ["kind": "search", "query": .string(filter)]
    }
    var title = state?["title"]?.stringValue ?? "No Items"
    var image = state?["image"]?.stringValue
    var description = state?["description"]?.stringValue
    if state?["kind"]?.stringValue == "search" {
      let query = state?["query"]?.stringValue ?? filter
      title = state?["title"]?.stringValue ?? "No Results for “\(query)”"
      image = image ?? "magnifyingglass"
      description = description ?? "Check the spelling or try a new search."
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
