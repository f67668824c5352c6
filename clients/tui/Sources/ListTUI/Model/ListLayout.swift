// The shape of an open list without its rows: sections with header, footer, kind, header mode and visible row count.
import JSON
import ListProtocol

/// One section of a ``ListLayout``: its description (``WireSection``: `id`, `header`, `footer`,
/// `kind`, `headerMode`, read as its own members) and number of visible rows.
@dynamicMemberLookup
public struct SectionShape: Equatable, Sendable {
  /// The description the wire gives beside the rows.
  public var info: WireSection
  /// The number of visible rows.
  public var rows: Int

  /// A section shape.
  public init(
    id: String, header: String? = nil, footer: String? = nil, kind: String? = nil, headerMode: String? = nil,
    rows: Int
  ) {
    self.init(
      WireSection(id: id, header: header, footer: footer, kind: kind, headerMode: headerMode), rows: rows)
  }

  /// A section shape of `info` with `rows` rows.
  public init(_ info: WireSection, rows: Int) {
    self.info = info
    self.rows = rows
  }

  /// A member of ``info``.
  public subscript<T>(dynamicMember member: WritableKeyPath<WireSection, T>) -> T {
    get { info[keyPath: member] }
    set { info[keyPath: member] = newValue }
  }

  /// Whether the section has a header line: header text shown as a supplementary view
  /// (Protocol/README.md, Presentation: `none` shows no header, `firstItemInSection` draws the
  /// first row as the header).
  public var showsHeader: Bool {
    info.header != nil && (info.headerMode ?? "supplementary") == "supplementary"
  }
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
      guard let info = try? WireSection(decoding: section), let rows = section["rows"]?.intValue else {
        return nil
      }
      shapes.append(SectionShape(info, rows: Int(rows)))
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
