// WindowedMirror: what a windowed subscriber holds of a list — section counts, its window's rows, the selection.
import JSON

/// A client-side copy of a list seen through a window (Protocol/README.md, Windowed
/// subscriptions): every section's id, header, footer and row count, the rows of the window
/// `[offset, offset + limit)` of the flattened visible rows, and the selection. Sections also
/// keep their kind and header mode.
///
/// Built from a windowed `list/subscribe` entry (or a `list/setWindow` answer) and advanced by
/// applying each filtered `list/didChange` on its wire JSON, following §4's five steps with
/// unknown rows as placeholders. Memory is O(sections + window + selection), whatever the size
/// of the list.
public struct WindowedMirror: Equatable, Sendable, CustomStringConvertible {
  /// A section: its header, footer, row count, and the rows known by row index.
  public struct Section: Equatable, Sendable {
    /// The section id.
    public var id: String
    /// The header text, if any.
    public var header: String?
    /// The footer text, if any.
    public var footer: String?
    /// The section's kind, if any.
    public var kind: String?
    /// How its header is shown (`none`, `firstItemInSection`), nil for the default
    /// (`supplementary`), as the full ``Mirror`` holds it.
    public var headerMode: String?
    /// The number of visible rows.
    public var count: Int
    /// The rows known, by row index: those of the window after each change.
    public var known: [Int: JSONValue]
  }

  /// The list id.
  public let list: String
  /// The version the mirror is at.
  public private(set) var version: Int
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
      let rows = window["rows"]?.arrayValue, let sections = entry["sections"]?.arrayValue,
      let selection = entry["selection"]?.arrayValue
    else { throw Mirror.Mismatch("windowed entry without window, sections or selection: \(entry)") }
    self.offset = Int(offset)
    self.limit = limit
    self.sections = try sections.map { section in
      guard let id = section["id"]?.stringValue else {
        throw Mirror.Mismatch("section without id: \(section)")
      }
      return Section(
        id: id, header: try Self.optionalString(section["header"]),
        footer: try Self.optionalString(section["footer"]), kind: try Self.optionalString(section["kind"]),
        headerMode: try Self.optionalString(section["headerMode"]), count: try Self.int(section["rows"]),
        known: [:])
    }
    self.selection = Set(try selection.map(Self.string))
    for row in rows {
      guard let path = row["indexPath"]?.arrayValue, path.count == 2, case .object(var object) = row else {
        throw Mirror.Mismatch("window row without indexPath: \(row)")
      }
      let (section, index) = (try Self.int(path[0]), try Self.int(path[1]))
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
    guard params["list"]?.stringValue == list else {
      throw Mirror.Mismatch("didChange for list \(params["list"] ?? .null), windowed mirror of '\(list)'")
    }
    guard let previous = params["previousVersion"]?.intValue, let next = params["version"]?.intValue,
      let changeset = params["changeset"]
    else { throw Mirror.Mismatch("didChange without versions or changeset: \(params)") }
    guard previous == version, next > previous else {
      throw Mirror.Mismatch(
        "didChange from \(previous) to \(next) applied to a windowed mirror at \(version)")
    }
    var copy = self
    try copy.apply(changeset: changeset)
    copy.version = Int(next)
    self = copy
  }

  /// A run of rows placed in step 4: `count` rows from `start`, some known.
  private struct Placement {
    var start: Int
    var count: Int
    var known: [Int: JSONValue]  // by offset in the run
  }

  /// Applies a filtered wire changeset in place (undefined if it throws).
  public mutating func apply(changeset: JSONValue) throws {
    guard case .object(let object) = changeset else { throw Mirror.Mismatch("changeset is not an object") }
    let known: Set<String> = [
      "sectionDeletes", "sectionInserts", "sectionMoves", "sectionReloads", "itemDeletes", "itemInserts",
      "itemMoves", "itemReloads", "itemReconfigures", "enter", "selected", "deselected", "expanded",
      "collapsed",
      "selectionMode", "columns", "emptyState", "editing",
    ]
    for key in object.keys where !known.contains(key) {
      throw Mirror.Mismatch("unknown changeset member '\(key)'")
    }
    for key in ["columns", "emptyState", "editing"] { if let value = object[key] { attributes[key] = value } }
    func entries(_ key: String) throws -> [JSONValue] {
      guard let value = object[key] else { return [] }
      guard let array = value.arrayValue, !array.isEmpty else {
        throw Mirror.Mismatch("'\(key)' must be a non-empty array when present, got \(value)")
      }
      return array
    }
    let oldCount = sections.count

    // 1. Section reloads; reloads and reconfigures write their carried rows at old index paths.
    for reload in try entries("sectionReloads") {
      let index = try Self.int(reload["index"])
      guard index >= 0, index < oldCount, sections[index].id == reload["id"]?.stringValue else {
        throw Mirror.Mismatch("section reload \(reload) does not match section at \(index)")
      }
      sections[index].header = try Self.optionalString(reload["header"])
      sections[index].footer = try Self.optionalString(reload["footer"])
      sections[index].kind = try Self.optionalString(reload["kind"])
      sections[index].headerMode = try Self.optionalString(reload["headerMode"])
    }
    for run in try entries("itemReloads") + entries("itemReconfigures") {
      let (section, start, count, rows) = try Self.run(run)
      guard section >= 0, section < oldCount, start >= 0, start + count <= sections[section].count else {
        throw Mirror.Mismatch("row update \(run) is out of range")
      }
      for (offset, row) in (rows ?? []).enumerated() {
        if let old = sections[section].known[start + offset], old["id"] != row["id"] {
          throw Mirror.Mismatch("row update at [\(section), \(start + offset)] does not match \(row)")
        }
        sections[section].known[start + offset] = row
      }
    }

    // 2. Removals in old coordinates: rows (moved ones kept aside), then sections.
    var removed = [[Range<Int>]](repeating: [], count: oldCount)
    func remove(_ section: Int, _ rows: Range<Int>) throws {
      guard section >= 0, section < oldCount, rows.lowerBound >= 0,
        rows.upperBound <= sections[section].count,
        !rows.isEmpty
      else { throw Mirror.Mismatch("old rows \(rows) of section \(section) are out of range") }
      removed[section].append(rows)
    }
    for delete in try entries("itemDeletes") {
      let n = try Self.ints(delete, count: 3)
      try remove(n[0], n[1]..<(n[1] + n[2]))
    }
    var placements: [Int: [Placement]] = [:]
    for move in try entries("itemMoves") {
      let n = try Self.ints(move, count: 5)
      try remove(n[0], n[1]..<(n[1] + n[4]))
      var carried: [Int: JSONValue] = [:]
      for (index, row) in sections[n[0]].known where index >= n[1] && index < n[1] + n[4] {
        carried[index - n[1]] = row
      }
      placements[n[2], default: []].append(Placement(start: n[3], count: n[4], known: carried))
    }
    for index in sections.indices where !removed[index].isEmpty {
      let ranges = removed[index].sorted { $0.lowerBound < $1.lowerBound }
      for (a, b) in zip(ranges, ranges.dropFirst()) where a.upperBound > b.lowerBound {
        throw Mirror.Mismatch("old rows of section \(index) are removed twice")
      }
      var kept: [Int: JSONValue] = [:]
      for (row, value) in sections[index].known {
        var below = 0
        var isRemoved = false
        for range in ranges {
          if range.contains(row) { isRemoved = true }
          if range.upperBound <= row { below += range.count }
        }
        if !isRemoved { kept[row - below] = value }
      }
      sections[index].known = kept
      sections[index].count -= ranges.reduce(0) { $0 + $1.count }
    }
    var gone = Set<Int>()
    for delete in try entries("sectionDeletes") {
      let n = try Self.ints(delete, count: 2)
      guard n[0] >= 0, n[1] > 0, n[0] + n[1] <= oldCount else {
        throw Mirror.Mismatch("section delete \(delete) is out of range")
      }
      for index in n[0]..<(n[0] + n[1]) {
        guard gone.insert(index).inserted else { throw Mirror.Mismatch("section \(index) is removed twice") }
      }
    }
    var arriving: [(index: Int, section: Section)] = []
    for move in try entries("sectionMoves") {
      let n = try Self.ints(move, count: 2)
      guard n[0] >= 0, n[0] < oldCount, gone.insert(n[0]).inserted else {
        throw Mirror.Mismatch("section move \(move) is out of range or removes a section twice")
      }
      arriving.append((n[1], sections[n[0]]))
    }

    // 3. Inserted and moved sections at their new indexes, ascending.
    for insert in try entries("sectionInserts") {
      guard let section = insert["section"] else { throw Mirror.Mismatch("section insert without section") }
      arriving.append((try Self.int(insert["index"]), try Self.insertedSection(section)))
    }
    arriving.sort { $0.index < $1.index }
    let placed = ChangesetPlacement.merge(
      arriving.map { ($0.index, $0.section) },
      into: sections.indices.filter { !gone.contains($0) }.map { sections[$0] })
    if let misplaced = placed.misplaced {
      throw Mirror.Mismatch("new section index \(misplaced) is out of range or repeated")
    }
    sections = placed.elements

    // 4. Inserted and moved rows at their new index paths, ascending.
    for insert in try entries("itemInserts") {
      let (section, start, count, rows) = try Self.run(insert)
      var carried: [Int: JSONValue] = [:]
      for (offset, row) in (rows ?? []).enumerated() { carried[offset] = row }
      placements[section, default: []].append(Placement(start: start, count: count, known: carried))
    }
    for (section, unsorted) in placements {
      guard section >= 0, section < sections.count else {
        throw Mirror.Mismatch("new section index \(section) is out of range")
      }
      let placed = unsorted.sorted { $0.start < $1.start }
      let total = sections[section].count + placed.reduce(0) { $0 + $1.count }
      var end = 0
      for run in placed {
        guard run.start >= end, run.start + run.count <= total else {
          throw Mirror.Mismatch("new rows at [\(section), \(run.start)] are out of range or repeated")
        }
        end = run.start + run.count
      }
      var known: [Int: JSONValue] = [:]
      for (row, value) in sections[section].known {
        var position = row
        for run in placed where run.start <= position { position += run.count }
        known[position] = value
      }
      for run in placed {
        for (offset, value) in run.known { known[run.start + offset] = value }
      }
      sections[section].known = known
      sections[section].count = total
    }

    // 5. Selection: deselected ids leave, then selected ids join.
    for id in try entries("deselected") { selection.remove(try Self.string(id)) }
    for id in try entries("selected") { selection.insert(try Self.string(id)) }
    for id in try entries("expanded") + entries("collapsed") { _ = try Self.string(id) }

    // Rows entering the window, then only the window is kept.
    for run in try entries("enter") {
      let (section, start, count, rows) = try Self.run(run)
      guard let rows, section >= 0, section < sections.count, start >= 0,
        start + count <= sections[section].count
      else { throw Mirror.Mismatch("enter \(run) is out of range or carries no rows") }
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

  // MARK: - Wire helpers

  /// An inserted section: full (`rows`) or counted (`rowCount`, `rowsAt`, `rows`).
  private static func insertedSection(_ value: JSONValue) throws -> Section {
    guard let id = value["id"]?.stringValue else { throw Mirror.Mismatch("section without id: \(value)") }
    let rows = value["rows"]?.arrayValue ?? []
    let count = value["rowCount"] == nil ? rows.count : try int(value["rowCount"])
    let at = value["rowsAt"] == nil ? 0 : try int(value["rowsAt"])
    guard at >= 0, at + rows.count <= count else {
      throw Mirror.Mismatch("section rows out of range: \(value)")
    }
    var known: [Int: JSONValue] = [:]
    for (offset, row) in rows.enumerated() { known[at + offset] = row }
    return Section(
      id: id, header: try optionalString(value["header"]), footer: try optionalString(value["footer"]),
      kind: try optionalString(value["kind"]), headerMode: try optionalString(value["headerMode"]),
      count: count, known: known)
  }

  /// `{"at": [section, start], "rows": [row…]}` or `{"at": [section, start], "count": n}`.
  private static func run(_ value: JSONValue) throws -> (
    section: Int, start: Int, count: Int, rows: [JSONValue]?
  ) {
    guard let at = value["at"] else { throw Mirror.Mismatch("row run without at: \(value)") }
    let n = try ints(at, count: 2)
    if let rows = value["rows"]?.arrayValue, !rows.isEmpty, value["count"] == nil {
      for row in rows where row["id"]?.stringValue == nil { throw Mirror.Mismatch("row without id: \(row)") }
      return (n[0], n[1], rows.count, rows)
    }
    guard value["rows"] == nil else { throw Mirror.Mismatch("row run with both rows and count: \(value)") }
    let count = try int(value["count"])
    guard count > 0 else { throw Mirror.Mismatch("empty row run: \(value)") }
    return (n[0], n[1], count, nil)
  }

  private static func ints(_ value: JSONValue, count: Int) throws -> [Int] {
    guard let array = value.arrayValue, array.count == count else {
      throw Mirror.Mismatch("expected an array of \(count) integers, got \(value)")
    }
    return try array.map { try int($0) }
  }

  private static func int(_ value: JSONValue?) throws -> Int {
    guard case .int(let number)? = value else {
      throw Mirror.Mismatch("expected an integer, got \(value ?? .null)")
    }
    return Int(number)
  }

  private static func string(_ value: JSONValue) throws -> String {
    guard let string = value.stringValue else { throw Mirror.Mismatch("expected a string, got \(value)") }
    return string
  }

  private static func optionalString(_ value: JSONValue?) throws -> String? {
    guard let value, !value.isNull else { return nil }
    return try string(value)
  }
}
