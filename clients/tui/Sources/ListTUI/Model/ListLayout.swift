// The shape of an open list without its rows: sections with header, footer, kind, header mode and visible row count.
import JSON

/// One section of a ``ListLayout``: its id, header, footer, kind, header mode and number of
/// visible rows.
public struct SectionShape: Equatable, Sendable {
  /// The section id.
  public var id: String
  /// The header text, if any.
  public var header: String?
  /// The footer text, if any.
  public var footer: String?
  /// The section's kind (its cell type), if any.
  public var kind: String?
  /// How its header shows (`none`, `firstItemInSection`); nil for the default, `supplementary`.
  public var headerMode: String?
  /// The number of visible rows.
  public var rows: Int

  /// A section shape.
  public init(
    id: String, header: String? = nil, footer: String? = nil, kind: String? = nil, headerMode: String? = nil,
    rows: Int
  ) {
    self.id = id
    self.header = header
    self.footer = footer
    self.kind = kind
    self.headerMode = headerMode
    self.rows = rows
  }

  /// Whether the section has a header line: header text shown as a supplementary view
  /// (Protocol/README.md, Presentation: `none` shows no header, `firstItemInSection` draws the
  /// first row as the header).
  public var showsHeader: Bool { header != nil && (headerMode ?? "supplementary") == "supplementary" }
}

/// What a windowed viewer knows of a list without fetching its rows: the sections and their
/// counts. Kept exact by applying changesets (``ChangesetMap``), so a list of a million rows
/// never has to be fetched whole.
public struct ListLayout: Equatable, Sendable {
  /// The sections, in order.
  public private(set) var sections: [SectionShape]
  /// The first flattened row of each section (prefix sums of the counts).
  private var firstRows: [Int]
  /// The number of visible rows of all sections.
  public private(set) var totalRows: Int
  /// The header line of a section without header text (in the supplementary mode): a sorted or
  /// filtered view's one section says what it holds, as the list's own headers would.
  public var blankHeader: String?

  /// A layout of `sections`. O(sections).
  public init(sections: [SectionShape] = []) {
    self.sections = sections
    var first = 0
    firstRows = sections.map { section in
      defer { first += section.rows }
      return first
    }
    totalRows = first
  }

  /// Whether section `index` has a header line: its header text or ``blankHeader``.
  public func showsHeader(_ index: Int) -> Bool { header(index) != nil }

  /// The header line's text of section `index`, nil when it has none.
  public func header(_ index: Int) -> String? {
    let section = sections[index]
    guard (section.headerMode ?? "supplementary") == "supplementary" else { return nil }
    return section.header ?? blankHeader
  }

  /// The layout of a `query/sections` answer or a windowed subscription
  /// `{sections: [{id, header?, footer?, kind?, headerMode?, rows}]}`.
  public init?(sectionsAnswer answer: JSONValue) {
    guard let sections = answer["sections"]?.arrayValue else { return nil }
    var shapes: [SectionShape] = []
    for section in sections {
      guard let id = section["id"]?.stringValue, let rows = section["rows"]?.intValue else { return nil }
      shapes.append(
        SectionShape(
          id: id, header: section["header"]?.stringValue, footer: section["footer"]?.stringValue,
          kind: section["kind"]?.stringValue, headerMode: section["headerMode"]?.stringValue, rows: Int(rows)
        ))
    }
    self.init(sections: shapes)
  }

  /// The flattened index of the first row of section `index`.
  public func firstRow(ofSection index: Int) -> Int { firstRows[index] }

  /// The flattened index of `[section, row]`.
  public func absolute(section: Int, row: Int) -> Int { firstRows[section] + row }

  /// The index path `[section, row]` of flattened row `absolute`, nil when out of range.
  /// O(log sections).
  public func indexPath(ofRow absolute: Int) -> (section: Int, row: Int)? {
    guard absolute >= 0, absolute < totalRows else { return nil }
    // The last section whose first row is ≤ absolute and that has rows.
    var low = 0
    var high = sections.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if firstRows[mid] <= absolute { low = mid } else { high = mid - 1 }
    }
    while sections[low].rows == 0 || firstRows[low] + sections[low].rows <= absolute { low += 1 }
    return (low, absolute - firstRows[low])
  }
}
