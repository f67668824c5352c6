// Mirror: a client-side copy of one list, built from a subscribe answer and kept current by applying wire changesets.
import JSON
import ListProtocol

/// What a client holds: the rows of one list, exactly as the wire carries them.
///
/// Built from the `snapshot` of a `list/subscribe` answer (Protocol/README.md §3) and advanced
/// by applying each `list/didChange` changeset on its wire JSON, in the five steps of §4 —
/// deliberately without the model's `Changeset`, so it follows the protocol as a client in
/// another language sees it. Rows are the JSON objects of the wire.
public struct Mirror: Equatable, Sendable, CustomStringConvertible, ChangesetMirror {
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
  public internal(set) var version: Int
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
    (sections, selection) = try ChangesetApplier.decode(snapshot)
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
    try advance(didChange: params)
  }

  /// Applies a wire changeset (Protocol/README.md §4), in place. The mirror is undefined if it
  /// throws; ``apply(didChange:)`` works on a copy. A full subscriber's changeset carries every
  /// row: no counted run, no `enter`.
  public mutating func apply(changeset json: JSONValue) throws {
    let changeset = try WireChangeset(json)
    try ChangesetApplier.apply(changeset, to: &sections, selection: &selection, complete: true)
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
}

extension Mirror.Section: MirroredSection {
  init(inserted insert: WireChangeset.SectionInsert) { self.init(info: insert.section, rows: insert.rows) }

  init(decoding value: JSONValue) throws(WireMismatch) {
    let info = try WireSection(decoding: value)
    guard let rows = value["rows"]?.arrayValue else {
      throw WireMismatch("section without rows: \(WireValue.text(value))")
    }
    try WireValue.checkIDs(rows)
    self.init(info: info, rows: rows)
  }

  var rowCount: Int { rows.count }

  func row(at index: Int) -> JSONValue? { rows[index] }

  mutating func setRow(_ row: JSONValue, at index: Int) { rows[index] = row }

  func rows(in range: Range<Int>) -> [Int: JSONValue] {
    var known: [Int: JSONValue] = [:]
    for index in range { known[index - range.lowerBound] = rows[index] }
    return known
  }

  mutating func removeRows(_ ranges: [Range<Int>]) {
    var kept: [JSONValue] = []
    kept.reserveCapacity(rows.count)
    var next = 0
    for range in ranges {
      kept += rows[next..<range.lowerBound]
      next = range.upperBound
    }
    kept += rows[next...]
    rows = kept
  }

  /// Every run carries its rows (the applier checks it for a full mirror). O(rows).
  mutating func insertRows(_ runs: [RowRun]) {
    let placed = runs.flatMap { run in (0..<run.count).map { (run.start + $0, run.known[$0] ?? .null) } }
    rows = ChangesetPlacement.merge(placed, into: rows).elements
  }
}
