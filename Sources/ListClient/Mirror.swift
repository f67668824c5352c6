// Mirror: a client-side copy of one list, built from a subscribe answer and kept current by applying wire changesets.
import JSON
import ListProtocol

/// What a client holds: the rows of one list, exactly as the wire carries them.
///
/// Built from the `snapshot` of a `list/subscribe` answer (Protocol/README.md §3) and advanced
/// by applying each `list/didChange` changeset on its wire JSON, in the five steps of §4 —
/// deliberately without the model's `Changeset`, so it follows the protocol as a client in
/// another language sees it. Rows are the JSON objects of the wire.
public struct Mirror: Equatable, Sendable, CustomStringConvertible {
  /// A section: its description (``WireSection``: `id`, `header`, `footer`, `kind`,
  /// `headerMode`, read as its own members) and its rows.
  @dynamicMemberLookup
  public struct Section: Equatable, Sendable {
    /// The description the wire gives beside the rows.
    public var info: WireSection
    /// The visible rows, as the wire carries them.
    public var rows: [JSONValue]

    /// A member of ``info``.
    public subscript<T>(dynamicMember member: WritableKeyPath<WireSection, T>) -> T {
      get { info[keyPath: member] }
      set { info[keyPath: member] = newValue }
    }
  }

  /// A changeset that does not fit the mirror (a client would have to resync).
  public typealias Mismatch = WireMismatch

  /// The list id.
  public let list: String
  /// The version the rows are at.
  public private(set) var version: Int
  /// The sections, in order.
  public private(set) var sections: [Section]
  /// The selected item ids.
  public private(set) var selection: Set<String>
  /// The list attributes beside its sections (`columns`, `emptyState`, `editing`), as the wire
  /// carries them; a default
  /// value (`[]`, `null`, `false`) is left out, as snapshots leave it out.
  public private(set) var attributes: JSONObject = JSONObject()

  /// The members of snapshots and changesets that are list attributes.
  public static let attributeKeys = WireChangeset.attributeKeys

  /// The list's columns, as the wire carries them (`[]` when it has none).
  public var columns: [JSONValue] { attributes["columns"]?.arrayValue ?? [] }
  /// The list's empty state `{kind?, query?, title, image?, description?}`, if any.
  public var emptyState: JSONValue? { attributes["emptyState"] }
  /// Whether the list is in editing mode.
  public var isEditing: Bool { attributes["editing"] == true }

  /// A mirror from a `list/subscribe` answer entry `{list, version, snapshot, …}`.
  public init(subscribed entry: JSONValue) throws {
    guard let list = entry["list"]?.stringValue, let version = entry["version"]?.intValue,
      let snapshot = entry["snapshot"]
    else { throw Mismatch("subscribe answer without list, version or snapshot: \(entry)") }
    try self.init(list: list, version: Int(version), snapshot: snapshot)
  }

  /// A mirror of `list` at `version` from a wire snapshot `{"sections": […], "selection": […]}`.
  public init(list: String, version: Int, snapshot: JSONValue) throws {
    self.list = list
    self.version = version
    guard let sections = snapshot["sections"]?.arrayValue, let selection = snapshot["selection"]?.arrayValue
    else { throw Mismatch("snapshot without sections or selection: \(snapshot)") }
    self.sections = try sections.map(Self.section)
    self.selection = Set(try selection.map(WireValue.string))
    for key in Self.attributeKeys { setAttribute(key, snapshot[key]) }
  }

  /// Sets (or, for a default value, removes) one list attribute.
  private mutating func setAttribute(_ key: String, _ value: JSONValue?) {
    guard let value else { return }
    let isDefault = value.isNull || value == false || value.arrayValue?.isEmpty == true
    attributes[key] = isDefault ? JSONValue?.none : value  // (a bare nil would be JSONValue.null)
    // In the order of `attributeKeys`, as snapshots have them, so equal mirrors compare equal.
    attributes = JSONObject(Self.attributeKeys.compactMap { key in attributes[key].map { (key, $0) } })
  }

  // MARK: - Applying notifications

  /// Applies one `list/didChange` params object `{list, version, previousVersion, changeset}`.
  /// Throws (changing nothing) if it is for another list, does not start at the mirror's version
  /// or goes back, or does not fit the rows. (`version` is usually `previousVersion + 1`; more for
  /// a change composed for a subscriber that fell behind, Protocol/README.md §6.)
  public mutating func apply(didChange params: JSONValue) throws {
    guard params["list"]?.stringValue == list else {
      throw Mismatch("didChange for list \(params["list"] ?? .null), mirror of '\(list)'")
    }
    guard let previous = params["previousVersion"]?.intValue, let next = params["version"]?.intValue,
      let changeset = params["changeset"]
    else { throw Mismatch("didChange without versions or changeset: \(params)") }
    guard previous == version else {
      throw Mismatch("didChange from version \(previous) applied to a mirror at version \(version)")
    }
    // A later version than the next one is a change composed for a subscriber that fell behind.
    guard next > previous else { throw Mismatch("didChange from \(previous) to \(next)") }
    var copy = self
    try copy.apply(changeset: changeset)
    copy.version = Int(next)
    self = copy
  }

  /// Applies a wire changeset (Protocol/README.md §4), in place. The mirror is undefined if it
  /// throws; ``apply(didChange:)`` works on a copy.
  public mutating func apply(changeset json: JSONValue) throws {
    let changeset = try WireChangeset(json)
    // A full subscriber's changeset carries every row: no counted run, no `enter`.
    guard changeset.enter.isEmpty else { throw Mismatch("unknown changeset member 'enter'") }
    func rows(_ run: WireChangeset.Run) throws -> [JSONValue] {
      guard let rows = run.rows else {
        throw Mismatch("row run without rows at [\(run.section), \(run.start)]")
      }
      return rows
    }
    let oldCount = sections.count

    // 1. Section reloads and row updates, in old coordinates.
    for reload in changeset.sectionReloads {
      let index = reload.index
      guard index >= 0, index < oldCount, sections[index].id == reload.section.id else {
        throw Mismatch("section reload \(reload.section.id) does not match section at \(index)")
      }
      sections[index].info = reload.section
    }
    for run in changeset.itemReloads + changeset.itemReconfigures {
      let (section, start, rows) = (run.section, run.start, try rows(run))
      guard section >= 0, section < oldCount, start >= 0, start + rows.count <= sections[section].rows.count
      else { throw Mismatch("row update at [\(section), \(start)] is out of range") }
      for (offset, row) in rows.enumerated() {
        guard sections[section].rows[start + offset]["id"] == row["id"] else {
          throw Mismatch(
            "row update at [\(section), \(start + offset)] does not match \(WireValue.text(row))")
        }
        sections[section].rows[start + offset] = row
      }
    }

    // 2. Removals in old coordinates: rows (moved ones kept aside), then sections.
    var removed = [Set<Int>](repeating: [], count: oldCount)
    func remove(_ section: Int, _ row: Int) throws {
      guard section >= 0, section < oldCount, row >= 0, row < sections[section].rows.count else {
        throw Mismatch("old index path [\(section), \(row)] is out of range")
      }
      guard removed[section].insert(row).inserted else {
        throw Mismatch("old index path [\(section), \(row)] is removed twice")
      }
    }
    for delete in changeset.itemDeletes {
      for row in delete.rows { try remove(delete.section, row) }
    }
    // Rows to place in step 4, per new section index: (new row index, row).
    var placements: [Int: [(row: Int, value: JSONValue)]] = [:]
    for move in changeset.itemMoves {
      for offset in 0..<move.count {
        try remove(move.fromSection, move.fromRow + offset)
        placements[move.toSection, default: []].append(
          (move.toRow + offset, sections[move.fromSection].rows[move.fromRow + offset]))
      }
    }
    for index in sections.indices where !removed[index].isEmpty {
      sections[index].rows = sections[index].rows.enumerated().filter { !removed[index].contains($0.offset) }
        .map(\.element)
    }
    var gone = Set<Int>()
    for delete in changeset.sectionDeletes {
      guard delete.upperBound <= oldCount else {
        throw Mismatch("section delete [\(delete.lowerBound), \(delete.count)] is out of range")
      }
      for index in delete {
        guard gone.insert(index).inserted else { throw Mismatch("section \(index) is removed twice") }
      }
    }
    var arriving: [(index: Int, section: Section)] = []
    for move in changeset.sectionMoves {
      guard move.from >= 0, move.from < oldCount, gone.insert(move.from).inserted else {
        throw Mismatch("section move [\(move.from), \(move.to)] is out of range or removes a section twice")
      }
      arriving.append((move.to, sections[move.from]))
    }

    // 3. Inserted and moved sections at their new indexes, ascending; the rest keep their order.
    for insert in changeset.sectionInserts {
      guard insert.isFull else { throw Mismatch("section insert at \(insert.index) without all its rows") }
      arriving.append((insert.index, Section(info: insert.section, rows: insert.rows)))
    }
    arriving.sort { $0.index < $1.index }
    let placed = ChangesetPlacement.merge(
      arriving.map { ($0.index, $0.section) },
      into: sections.indices.filter { !gone.contains($0) }.map { sections[$0] })
    if let misplaced = placed.misplaced {
      throw Mismatch("new section index \(misplaced) is out of range or repeated")
    }
    sections = placed.elements

    // 4. Inserted and moved rows at their new index paths, ascending.
    for insert in changeset.itemInserts {
      for (offset, row) in try rows(insert).enumerated() {
        placements[insert.section, default: []].append((insert.start + offset, row))
      }
    }
    for (section, unsorted) in placements {
      guard section >= 0, section < sections.count else {
        throw Mismatch("new section index \(section) is out of range")
      }
      let placed = ChangesetPlacement.merge(
        unsorted.sorted { $0.row < $1.row }.map { ($0.row, $0.value) }, into: sections[section].rows)
      if let misplaced = placed.misplaced {
        throw Mismatch("new index path [\(section), \(misplaced)] is out of range or repeated")
      }
      sections[section].rows = placed.elements
    }

    // 5. Selection: deselected ids leave, then selected ids join. (`expanded` / `collapsed` only
    // report state the rows already carry.)
    for id in changeset.deselected { selection.remove(id) }
    for id in changeset.selected { selection.insert(id) }
    // 6. List attributes: each one present replaces the old value.
    for (key, value) in changeset.attributes { setAttribute(key, value) }
  }

  // MARK: - Comparing

  /// The mirror as a wire snapshot, selection sorted (as the daemon sends it).
  public var snapshot: JSONValue {
    var object: JSONObject = [
      "sections": .array(
        sections.map { section in
          var object = section.info.members
          object.append("rows", .array(section.rows))
          return .object(object)
        }),
      "selection": .array(selection.sorted().map { .string($0) }),
    ]
    for (key, value) in attributes { object.append(key, value) }
    return .object(object)
  }

  /// The number of rows in all sections.
  public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }

  /// A short description of where two mirrors first differ, or nil if they are equal.
  public func firstDifference(from other: Mirror) -> String? {
    if version != other.version { return "version \(version) ≠ \(other.version)" }
    if sections.map(\.id) != other.sections.map(\.id) {
      return "section ids \(sections.map(\.id)) ≠ \(other.sections.map(\.id))"
    }
    for (index, (mine, theirs)) in zip(sections, other.sections).enumerated() where mine != theirs {
      if mine.kind != theirs.kind || mine.headerMode != theirs.headerMode {
        return "section \(index) kind/headerMode \(mine.kind ?? "nil")/\(mine.headerMode ?? "nil") ≠ "
          + "\(theirs.kind ?? "nil")/\(theirs.headerMode ?? "nil")"
      }
      if mine.header != theirs.header || mine.footer != theirs.footer {
        return "section \(index) header/footer \(mine.header ?? "nil")/\(mine.footer ?? "nil") ≠ "
          + "\(theirs.header ?? "nil")/\(theirs.footer ?? "nil")"
      }
      let ids = mine.rows.map { $0["id"]?.stringValue ?? "?" }
      let otherIDs = theirs.rows.map { $0["id"]?.stringValue ?? "?" }
      if ids != otherIDs { return "section \(index) row ids \(ids) ≠ \(otherIDs)" }
      for (row, (a, b)) in zip(mine.rows, theirs.rows).enumerated() where a != b {
        return "row [\(index), \(row)] \(Self.text(a)) ≠ \(Self.text(b))"
      }
    }
    if selection != other.selection {
      return "selection \(selection.sorted()) ≠ \(other.selection.sorted())"
    }
    if attributes != other.attributes {
      return "attributes \(Self.text(.object(attributes))) ≠ \(Self.text(.object(other.attributes)))"
    }
    return self == other ? nil : "mirrors differ"
  }

  public var description: String {
    "Mirror('\(list)' v\(version): \(sections.count) sections, \(rowCount) rows, "
      + "\(selection.count) selected)"
  }

  // MARK: - Wire helpers

  /// Compact JSON text, for messages.
  public static func text(_ value: JSONValue) -> String { String(decoding: value.jsonBytes(), as: UTF8.self) }

  private static func section(_ value: JSONValue) throws -> Section {
    let info = try WireSection(decoding: value)
    guard let rows = value["rows"]?.arrayValue else { throw Mismatch("section without rows: \(value)") }
    try WireValue.checkIDs(rows)
    return Section(info: info, rows: rows)
  }
}
