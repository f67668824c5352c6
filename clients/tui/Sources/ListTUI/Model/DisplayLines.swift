// The list as the screen shows it: section headers, rows and footers flattened into display lines.

/// One display line of an open list.
public enum DisplayEntry: Equatable, Sendable {
  /// The header of section `index`.
  case header(Int)
  /// The flattened row `absolute`.
  case row(Int)
  /// The footer of section `index`.
  case footer(Int)
}

extension ListLayout {
  /// The number of display lines: every row, plus a line for each header shown and footer.
  /// O(sections).
  public var displayLineCount: Int {
    sections.indices.reduce(0) {
      $0 + sections[$1].rows + (showsHeader($1) ? 1 : 0) + (sections[$1].footer == nil ? 0 : 1)
    }
  }

  /// The display line of flattened row `absolute`. O(sections).
  public func displayLine(ofRow absolute: Int) -> Int {
    var line = 0
    for (index, section) in sections.enumerated() {
      if showsHeader(index) { line += 1 }
      let first = firstRow(ofSection: index)
      if absolute < first + section.rows { return line + absolute - first }
      line += section.rows + (section.footer == nil ? 0 : 1)
    }
    return line
  }

  /// `count` display entries from line `start` (fewer at the end). O(sections + count).
  public func displayEntries(from start: Int, count: Int) -> [DisplayEntry] {
    var entries: [DisplayEntry] = []
    entries.reserveCapacity(max(0, count))
    var line = 0
    let end = start + count
    func add(_ entry: DisplayEntry) {
      if line >= start && line < end { entries.append(entry) }
      line += 1
    }
    for (index, section) in sections.enumerated() where line < end {
      if showsHeader(index) { add(.header(index)) }
      let first = firstRow(ofSection: index)
      // Skip the rows above the window in one step: a section can hold a million rows.
      let skip = min(section.rows, max(0, start - line))
      line += skip
      var row = skip
      while row < section.rows && line < end {
        add(.row(first + row))
        row += 1
      }
      line += section.rows - row
      if section.footer != nil { add(.footer(index)) }
    }
    return entries
  }

  /// The rows shown on display lines `lines`, as a range of flattened rows (empty when none).
  /// O(sections).
  public func rows(onDisplayLines lines: Range<Int>) -> Range<Int> {
    var low: Int?
    var high = 0
    var line = 0
    for (index, section) in sections.enumerated() {
      if showsHeader(index) { line += 1 }
      let first = firstRow(ofSection: index)
      let start = max(line, lines.lowerBound)
      let end = min(line + section.rows, lines.upperBound)
      if start < end {
        if low == nil { low = first + start - line }
        high = first + end - line
      }
      line += section.rows + (section.footer == nil ? 0 : 1)
      if line >= lines.upperBound { break }
    }
    guard let low else { return 0..<0 }
    return low..<high
  }
}
