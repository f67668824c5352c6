// WindowedMirror: what a windowed subscriber holds of a list — section counts, its window's rows, the selection.
import JSON
import ListProtocol

/// A client-side copy of a list seen through a window (Protocol/README.md, Windowed
/// subscriptions): every section's id, header, footer and row count, the rows of the window
/// `[offset, offset + limit)` of the flattened visible rows, and the selection. Sections also
/// keep their kind and header mode.
///
/// Built from a windowed `list/subscribe` entry (or a `list/setWindow` answer) and advanced by
/// applying each filtered `list/didChange` on its wire JSON, following §4's five steps with
/// unknown rows as placeholders. Memory is O(sections + window + selection), whatever the size
/// of the list.
public struct WindowedMirror: Equatable, Sendable, CustomStringConvertible, ChangesetMirror {
  /// A section: its description (``WireSection``: `id`, `header`, `footer`, `kind`,
  /// `headerMode`, read as its own members, as the full ``Mirror`` holds it), its row count, and
  /// the rows known by row index.
  @dynamicMemberLookup
  public struct Section: Equatable, Sendable {
    /// The description the wire gives beside the rows.
    public var info: WireSection
    /// The number of visible rows.
    public var count: Int
    /// The rows known, by row index: those of the window after each change.
    public var known: [Int: JSONValue]

    /// A member of ``info``.
    public subscript<T>(dynamicMember member: WritableKeyPath<WireSection, T>) -> T {
      get { info[keyPath: member] }
      set { info[keyPath: member] = newValue }
    }
  }

  /// The list id.
  public let list: String
  /// The version the mirror is at.
  public internal(set) var version: Int
  /// The window's first flattened row.
  public private(set) var offset: Int
  /// The window's size in rows.
  public private(set) var limit: Int
  /// Every section, in order.
  public private(set) var sections: [Section]
  /// The selected ids.
  public private(set) var selection: Set<String>
  /// The list attributes the changes since the subscription carried (`columns`, `emptyState`,
  /// `editing`), each as its last changeset gave it (`null`: removed).
  public private(set) var attributes: [String: JSONValue] = [:]

  /// A mirror from a windowed `list/subscribe` entry `{list, version, window, sections,
  /// selection}` (or a `list/didCreate` carrying them); `limit` is the window's size asked for.
  public init(subscribed entry: JSONValue, limit: Int) throws {
    guard let list = entry["list"]?.stringValue, let version = entry["version"]?.intValue else {
      throw Mirror.Mismatch("windowed entry without list or version: \(entry)")
    }
    self.list = list
    self.version = Int(version)
    self.offset = 0
    self.limit = limit
    self.sections = []
    self.selection = []
    try reset(entry, limit: limit)
  }

  /// Starts afresh from a `list/setWindow` answer `{list, version, window, sections, selection}`
  /// for a window of `limit` rows.
  public mutating func apply(setWindow answer: JSONValue, limit: Int) throws {
    guard answer["list"]?.stringValue == list, let version = answer["version"]?.intValue else {
      throw Mirror.Mismatch("setWindow answer for another list or without version: \(answer)")
    }
    var copy = self
    copy.version = Int(version)
    try copy.reset(answer, limit: limit)
    self = copy
  }

  private mutating func reset(_ entry: JSONValue, limit: Int) throws {
    guard let window = entry["window"], let offset = window["offset"]?.intValue,
      let rows = window["rows"]?.arrayValue
    else { throw Mirror.Mismatch("windowed entry without window: \(entry)") }
    self.offset = Int(offset)
    self.limit = limit
    (self.sections, self.selection) = try ChangesetApplier.decode(entry)
    for row in rows {
      guard let path = row["indexPath"]?.arrayValue, path.count == 2, case .object(var object) = row else {
        throw Mirror.Mismatch("window row without indexPath: \(row)")
      }
      let (section, index) = (try WireValue.int(path[0]), try WireValue.int(path[1]))
      guard section >= 0, section < self.sections.count, index >= 0, index < self.sections[section].count
      else {
        throw Mirror.Mismatch("window row at [\(section), \(index)] is out of range")
      }
      object["section"] = nil
      object["indexPath"] = nil
      self.sections[section].known[index] = .object(object)
    }
    try checkWindow()
  }

  // MARK: - Applying notifications

  /// Applies one filtered `list/didChange` `{list, version, previousVersion, changeset}`.
  /// `previousVersion` must be the mirror's version; `version` is later (one more, or several for
  /// a composed change). Throws, changing nothing, if it does not fit.
  public mutating func apply(didChange params: JSONValue) throws {
    try advance(didChange: params)
  }

  /// Applies a filtered wire changeset in place (undefined if it throws): steps 1–5 with unknown
  /// rows as placeholders, then the rows entering the window.
  public mutating func apply(changeset json: JSONValue) throws {
    let changeset = try WireChangeset(json)
    for (key, value) in changeset.attributes { attributes[key] = value }
    try ChangesetApplier.apply(changeset, to: &sections, selection: &selection, complete: false)

    // Rows entering the window, then only the window is kept.
    for run in changeset.enter {
      let (section, start, count, rows) = (run.section, run.start, run.count, run.rows)
      guard let rows, section >= 0, section < sections.count, start >= 0,
        start + count <= sections[section].count
      else { throw Mirror.Mismatch("enter at [\(section), \(start)] is out of range or carries no rows") }
      for (offset, row) in rows.enumerated() { sections[section].known[start + offset] = row }
    }
    try checkWindow()
  }

  /// Drops the rows outside the window and checks every row inside it is known.
  private mutating func checkWindow() throws {
    var first = 0
    for index in sections.indices {
      let lower = max(offset - first, 0)
      let upper = min(offset + limit - first, sections[index].count)
      sections[index].known = sections[index].known.filter { $0.key >= lower && $0.key < upper }
      if lower < upper {
        for row in lower..<upper where sections[index].known[row] == nil {
          throw Mirror.Mismatch("window row [\(index), \(row)] of version \(version) is unknown")
        }
      }
      first += sections[index].count
    }
  }

  // MARK: - Reading

  /// The number of rows of all sections.
  public var totalRows: Int { sections.reduce(0) { $0 + $1.count } }

  /// The window's rows in order, as the wire carries them (without `section` and `indexPath`).
  public var windowRows: [JSONValue] {
    var rows: [JSONValue] = []
    for section in sections {
      for row in section.known.keys.sorted() { rows.append(section.known[row]!) }
    }
    return rows
  }

  public var description: String {
    "WindowedMirror('\(list)' v\(version): [\(offset), \(offset + limit)) of \(totalRows) rows, "
      + "\(sections.count) sections, \(selection.count) selected)"
  }
}

extension WindowedMirror.Section: MirroredSection {
  init(inserted insert: WireChangeset.SectionInsert) {
    var known: [Int: JSONValue] = [:]
    for (offset, row) in insert.rows.enumerated() { known[insert.rowsAt + offset] = row }
    self.init(info: insert.section, count: insert.count, known: known)
  }

  init(decoding value: JSONValue) throws(WireMismatch) {
    self.init(info: try WireSection(decoding: value), count: try WireValue.int(value["rows"]), known: [:])
  }

  var rowCount: Int { count }

  func row(at index: Int) -> JSONValue? { known[index] }

  mutating func setRow(_ row: JSONValue, at index: Int) { known[index] = row }

  func rows(in range: Range<Int>) -> [Int: JSONValue] {
    var carried: [Int: JSONValue] = [:]
    for (index, row) in known where range.contains(index) { carried[index - range.lowerBound] = row }
    return carried
  }

  /// O(known × ranges).
  mutating func removeRows(_ ranges: [Range<Int>]) {
    var kept: [Int: JSONValue] = [:]
    for (row, value) in known {
      var below = 0
      var isRemoved = false
      for range in ranges {
        if range.contains(row) { isRemoved = true }
        if range.upperBound <= row { below += range.count }
      }
      if !isRemoved { kept[row - below] = value }
    }
    known = kept
    count -= ranges.reduce(0) { $0 + $1.count }
  }

  /// O(known × runs).
  mutating func insertRows(_ runs: [RowRun]) {
    var shifted: [Int: JSONValue] = [:]
    for (row, value) in known {
      var position = row
      for run in runs where run.start <= position { position += run.count }
      shifted[position] = value
    }
    for run in runs {
      for (offset, value) in run.known { shifted[run.start + offset] = value }
    }
    known = shifted
    count += runs.reduce(0) { $0 + $1.count }
  }
}
