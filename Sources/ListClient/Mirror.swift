// Mirror: a client-side copy of one list, built from a subscribe answer and kept current by applying wire changesets.
import JSON

/// What a client holds: the rows of one list, exactly as the wire carries them.
///
/// Built from the `snapshot` of a `list/subscribe` answer (Protocol/README.md §3) and advanced
/// by applying each `list/didChange` changeset on its wire JSON, in the five steps of §4 —
/// deliberately without the model's `Changeset`, so it follows the protocol as a client in
/// another language sees it. Rows are the JSON objects of the wire.
public struct Mirror: Equatable, Sendable, CustomStringConvertible {
  /// A section: `{"id", "header"?, "footer"?, "rows": [row…]}`.
  public struct Section: Equatable, Sendable {
    /// The section id.
    public var id: String
    /// The header text, if any.
    public var header: String?
    /// The footer text, if any.
    public var footer: String?
    /// The section's kind, if any.
    public var kind: String?
    /// The header mode when not `supplementary` (the default, which the wire omits).
    public var headerMode: String?
    /// The visible rows, as the wire carries them.
    public var rows: [JSONValue]
  }

  /// A changeset that does not fit the mirror (a client would have to resync).
  public struct Mismatch: Error, CustomStringConvertible {
    /// What did not fit.
    public let description: String
    /// A mismatch described by `description`.
    public init(_ description: String) { self.description = description }
  }

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
  public static let attributeKeys = ["columns", "emptyState", "editing"]

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
    self.selection = Set(try selection.map(Self.string))
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
  public mutating func apply(changeset: JSONValue) throws {
    guard case .object(let object) = changeset else { throw Mismatch("changeset is not an object") }
    let known = Set<String>([
      "sectionDeletes", "sectionInserts", "sectionMoves", "sectionReloads", "itemDeletes", "itemInserts",
      "itemMoves", "itemReloads", "itemReconfigures", "selected", "deselected", "expanded", "collapsed",
      "selectionMode",
    ]).union(Self.attributeKeys)
    for key in object.keys where !known.contains(key) { throw Mismatch("unknown changeset member '\(key)'") }
    func entries(_ key: String) throws -> [JSONValue] {
      guard let value = object[key] else { return [] }
      guard let array = value.arrayValue, !array.isEmpty else {
        throw Mismatch("'\(key)' must be a non-empty array when present, got \(value)")
      }
      return array
    }
    let oldCount = sections.count

    // 1. Section reloads and row updates, in old coordinates.
    for reload in try entries("sectionReloads") {
      let index = try Self.int(reload["index"])
      guard index >= 0, index < oldCount, sections[index].id == reload["id"]?.stringValue else {
        throw Mismatch("section reload \(reload) does not match section at \(index)")
      }
      sections[index].header = try Self.optionalString(reload["header"])
      sections[index].footer = try Self.optionalString(reload["footer"])
      sections[index].kind = try Self.optionalString(reload["kind"])
      sections[index].headerMode = try Self.optionalString(reload["headerMode"])
    }
    for run in try entries("itemReloads") + entries("itemReconfigures") {
      let (section, start, rows) = try Self.run(run)
      guard section >= 0, section < oldCount, start >= 0, start + rows.count <= sections[section].rows.count
      else { throw Mismatch("row update \(run) is out of range") }
      for (offset, row) in rows.enumerated() {
        guard sections[section].rows[start + offset]["id"] == row["id"] else {
          throw Mismatch("row update at [\(section), \(start + offset)] does not match \(row)")
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
    for delete in try entries("itemDeletes") {
      let numbers = try Self.ints(delete, count: 3)
      guard numbers[2] > 0 else { throw Mismatch("empty item delete \(delete)") }
      for row in numbers[1]..<(numbers[1] + numbers[2]) { try remove(numbers[0], row) }
    }
    // Rows to place in step 4, per new section index: (new row index, row).
    var placements: [Int: [(row: Int, value: JSONValue)]] = [:]
    for move in try entries("itemMoves") {
      let n = try Self.ints(move, count: 5)
      guard n[4] > 0 else { throw Mismatch("empty item move \(move)") }
      for offset in 0..<n[4] {
        try remove(n[0], n[1] + offset)
        placements[n[2], default: []].append((n[3] + offset, sections[n[0]].rows[n[1] + offset]))
      }
    }
    for index in sections.indices where !removed[index].isEmpty {
      sections[index].rows = sections[index].rows.enumerated().filter { !removed[index].contains($0.offset) }
        .map(\.element)
    }
    var gone = Set<Int>()
    for delete in try entries("sectionDeletes") {
      let n = try Self.ints(delete, count: 2)
      guard n[0] >= 0, n[1] > 0, n[0] + n[1] <= oldCount else {
        throw Mismatch("section delete \(delete) is out of range")
      }
      for index in n[0]..<(n[0] + n[1]) {
        guard gone.insert(index).inserted else { throw Mismatch("section \(index) is removed twice") }
      }
    }
    var arriving: [(index: Int, section: Section)] = []
    for move in try entries("sectionMoves") {
      let n = try Self.ints(move, count: 2)
      guard n[0] >= 0, n[0] < oldCount, gone.insert(n[0]).inserted else {
        throw Mismatch("section move \(move) is out of range or removes a section twice")
      }
      arriving.append((n[1], sections[n[0]]))
    }

    // 3. Inserted and moved sections at their new indexes, ascending; the rest keep their order.
    for insert in try entries("sectionInserts") {
      guard let section = insert["section"] else { throw Mismatch("section insert without section") }
      arriving.append((try Self.int(insert["index"]), try Self.section(section)))
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
    for insert in try entries("itemInserts") {
      let (section, start, rows) = try Self.run(insert)
      for (offset, row) in rows.enumerated() {
        placements[section, default: []].append((start + offset, row))
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

    // 5. Selection: deselected ids leave, then selected ids join.
    for id in try entries("deselected") { selection.remove(try Self.string(id)) }
    for id in try entries("selected") { selection.insert(try Self.string(id)) }
    // `expanded` / `collapsed` only report state the rows already carry; check they are ids.
    for id in try entries("expanded") + entries("collapsed") { _ = try Self.string(id) }
    // 6. List attributes: each one present replaces the old value.
    for key in Self.attributeKeys { setAttribute(key, object[key]) }
  }

  // MARK: - Comparing

  /// The mirror as a wire snapshot, selection sorted (as the daemon sends it).
  public var snapshot: JSONValue {
    var object: JSONObject = [
      "sections": .array(
        sections.map { section in
          var object = JSONObject()
          object.append("id", .string(section.id))
          if let header = section.header { object.append("header", .string(header)) }
          if let footer = section.footer { object.append("footer", .string(footer)) }
          if let kind = section.kind { object.append("kind", .string(kind)) }
          if let mode = section.headerMode { object.append("headerMode", .string(mode)) }
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
    guard let id = value["id"]?.stringValue, let rows = value["rows"]?.arrayValue else {
      throw Mismatch("section without id or rows: \(value)")
    }
    for row in rows where row["id"]?.stringValue == nil { throw Mismatch("row without id: \(row)") }
    return Section(
      id: id, header: try optionalString(value["header"]), footer: try optionalString(value["footer"]),
      kind: try optionalString(value["kind"]), headerMode: try optionalString(value["headerMode"]), rows: rows
    )
  }

  /// `{"at": [section, start], "rows": [row…]}`.
  private static func run(_ value: JSONValue) throws -> (section: Int, start: Int, rows: [JSONValue]) {
    guard let at = value["at"], let rows = value["rows"]?.arrayValue, !rows.isEmpty else {
      throw Mismatch("row run without at or rows: \(value)")
    }
    let n = try ints(at, count: 2)
    for row in rows where row["id"]?.stringValue == nil { throw Mismatch("row without id: \(row)") }
    return (n[0], n[1], rows)
  }

  private static func ints(_ value: JSONValue, count: Int) throws -> [Int] {
    guard let array = value.arrayValue, array.count == count else {
      throw Mismatch("expected an array of \(count) integers, got \(value)")
    }
    return try array.map { try int($0) }
  }

  private static func int(_ value: JSONValue?) throws -> Int {
    guard case .int(let number)? = value else { throw Mismatch("expected an integer, got \(value ?? .null)") }
    return Int(number)
  }

  private static func string(_ value: JSONValue) throws -> String {
    guard let string = value.stringValue else { throw Mismatch("expected a string, got \(value)") }
    return string
  }

  private static func optionalString(_ value: JSONValue?) throws -> String? {
    guard let value, !value.isNull else { return nil }
    return try string(value)
  }
}
