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
public struct WindowedMirror: Equatable, Sendable, CustomStringConvertible {
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
      Section(info: try WireSection(decoding: section), count: try WireValue.int(section["rows"]), known: [:])
    }
    self.selection = Set(try selection.map(WireValue.string))
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
  public mutating func apply(changeset json: JSONValue) throws {
    let changeset = try WireChangeset(json)
    for (key, value) in changeset.attributes { attributes[key] = value }
    let oldCount = sections.count

    // 1. Section reloads; reloads and reconfigures write their carried rows at old index paths.
    for reload in changeset.sectionReloads {
      let index = reload.index
      guard index >= 0, index < oldCount, sections[index].id == reload.section.id else {
        throw Mirror.Mismatch("section reload \(reload.section.id) does not match section at \(index)")
      }
      sections[index].info = reload.section
    }
    for run in changeset.itemReloads + changeset.itemReconfigures {
      let (section, start, count) = (run.section, run.start, run.count)
      guard section >= 0, section < oldCount, start >= 0, start + count <= sections[section].count else {
        throw Mirror.Mismatch("row update at [\(section), \(start)] is out of range")
      }
      for (offset, row) in (run.rows ?? []).enumerated() {
        if let old = sections[section].known[start + offset], old["id"] != row["id"] {
          throw Mirror.Mismatch(
            "row update at [\(section), \(start + offset)] does not match \(WireValue.text(row))")
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
    for delete in changeset.itemDeletes { try remove(delete.section, delete.rows) }
    var placements: [Int: [Placement]] = [:]
    for move in changeset.itemMoves {
      let rows = move.fromRow..<(move.fromRow + move.count)
      try remove(move.fromSection, rows)
      var carried: [Int: JSONValue] = [:]
      for (index, row) in sections[move.fromSection].known where rows.contains(index) {
        carried[index - move.fromRow] = row
      }
      placements[move.toSection, default: []].append(
        Placement(start: move.toRow, count: move.count, known: carried))
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
    for delete in changeset.sectionDeletes {
      guard delete.upperBound <= oldCount else {
        throw Mirror.Mismatch("section delete [\(delete.lowerBound), \(delete.count)] is out of range")
      }
      for index in delete {
        guard gone.insert(index).inserted else { throw Mirror.Mismatch("section \(index) is removed twice") }
      }
    }
    var arriving: [(index: Int, section: Section)] = []
    for move in changeset.sectionMoves {
      guard move.from >= 0, move.from < oldCount, gone.insert(move.from).inserted else {
        throw Mirror.Mismatch(
          "section move [\(move.from), \(move.to)] is out of range or removes a section twice")
      }
      arriving.append((move.to, sections[move.from]))
    }

    // 3. Inserted and moved sections at their new indexes, ascending.
    for insert in changeset.sectionInserts {
      var known: [Int: JSONValue] = [:]
      for (offset, row) in insert.rows.enumerated() { known[insert.rowsAt + offset] = row }
      arriving.append((insert.index, Section(info: insert.section, count: insert.count, known: known)))
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
    for insert in changeset.itemInserts {
      var carried: [Int: JSONValue] = [:]
      for (offset, row) in (insert.rows ?? []).enumerated() { carried[offset] = row }
      placements[insert.section, default: []].append(
        Placement(start: insert.start, count: insert.count, known: carried))
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
    for id in changeset.deselected { selection.remove(id) }
    for id in changeset.selected { selection.insert(id) }

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
