// The one Swift decoder of a wire changeset (full, lean or windowed) and of a section's header: what every client applies.
import JSON

/// Wire JSON that does not fit what a client holds (a client would have to resync).
public struct WireMismatch: Error, Equatable, Sendable, CustomStringConvertible {
  /// What did not fit.
  public let description: String
  /// A mismatch described by `description`.
  public init(_ description: String) { self.description = description }
}

/// A section as the wire describes it beside its rows: `{id, header?, footer?, kind?,
/// headerMode?}` (Protocol/README.md §3). Every Swift client keeps its sections' description
/// in this one type, decoded by ``init(decoding:)``, so no client can drop a member.
public struct WireSection: Equatable, Hashable, Sendable {
  /// The section id.
  public var id: String
  /// The header text, if any.
  public var header: String?
  /// The footer text, if any.
  public var footer: String?
  /// The section's kind (its cell type), if any.
  public var kind: String?
  /// How its header shows (`none`, `firstItemInSection`); nil for the default, `supplementary`,
  /// which the wire omits.
  public var headerMode: String?

  /// A section description.
  public init(
    id: String, header: String? = nil, footer: String? = nil, kind: String? = nil, headerMode: String? = nil
  ) {
    self.id = id
    self.header = header
    self.footer = footer
    self.kind = kind
    self.headerMode = headerMode
  }

  /// The description members of a wire section object (its rows or counts are the caller's).
  public init(decoding value: JSONValue) throws(WireMismatch) {
    guard let id = value["id"]?.stringValue else {
      throw WireMismatch("section without id: \(WireValue.text(value))")
    }
    self.init(
      id: id, header: try WireValue.optionalString(value["header"]),
      footer: try WireValue.optionalString(value["footer"]),
      kind: try WireValue.optionalString(value["kind"]),
      headerMode: try WireValue.optionalString(value["headerMode"]))
  }

  /// The wire members, in the order the daemon writes them, to append a section's rows to.
  public var members: JSONObject {
    var object = JSONObject()
    object.append("id", .string(id))
    if let header { object.append("header", .string(header)) }
    if let footer { object.append("footer", .string(footer)) }
    if let kind { object.append("kind", .string(kind)) }
    if let headerMode { object.append("headerMode", .string(headerMode)) }
    return object
  }
}

/// A wire changeset (Protocol/README.md §4) decoded and checked for form: every member known,
/// every list non-empty, every entry of its shape, every row with an id. Fitting it to a list
/// (indexes in range) is the applier's. Full, lean (`rows: "none"`) and windowed changesets
/// (runs with `count`, counted inserted sections, `enter`) all decode. O(entries + rows carried).
public struct WireChangeset: Sendable {
  /// Rows `start..<start + count` of section `section`, carried (`rows`, `count` of them) or
  /// counted (`rows` nil).
  public struct Run: Sendable {
    /// The section index (old coordinates for reloads and reconfigures, new for the others).
    public var section: Int
    /// The first row's index in that section.
    public var start: Int
    /// How many rows.
    public var count: Int
    /// The rows, when carried.
    public var rows: [JSONValue]?
  }

  /// A section inserted at new index `index`: its description, row count and the rows it
  /// carries from row `rowsAt` (all of them, at 0, unless lean or windowed).
  public struct SectionInsert: Sendable {
    /// The new section index.
    public var index: Int
    /// The section's description.
    public var section: WireSection
    /// Its number of visible rows.
    public var count: Int
    /// The row index of the first row carried.
    public var rowsAt: Int
    /// The rows carried.
    public var rows: [JSONValue]
    /// Whether it carries every one of its rows.
    public var isFull: Bool { rowsAt == 0 && rows.count == count }
  }

  /// The new description of the section at old index `index`.
  public struct SectionReload: Sendable {
    /// The old section index.
    public var index: Int
    /// Its new description (the whole of it: an absent member is removed).
    public var section: WireSection
  }

  /// `count` rows moved from `[fromSection, fromRow]` (old) to `[toSection, toRow]` (new).
  public struct ItemMove: Sendable {
    /// The old section index.
    public var fromSection: Int
    /// The first moved row's old index.
    public var fromRow: Int
    /// The new section index.
    public var toSection: Int
    /// The first moved row's new index.
    public var toRow: Int
    /// How many rows.
    public var count: Int
  }

  /// The list attributes a changeset may carry; one present replaces the old value.
  public static let attributeKeys = ["columns", "emptyState", "editing"]
  /// Every member a changeset may have.
  public static let memberKeys: Set<String> = Set([
    "sectionDeletes", "sectionInserts", "sectionMoves", "sectionReloads", "itemDeletes", "itemInserts",
    "itemMoves", "itemReloads", "itemReconfigures", "enter", "selected", "deselected", "expanded",
    "collapsed", "selectionMode",
  ]).union(attributeKeys)

  /// Old sections removed: `start..<start + count`.
  public var sectionDeletes: [Range<Int>] = []
  /// Sections inserted (at new indexes).
  public var sectionInserts: [SectionInsert] = []
  /// Sections moved from an old index to a new one.
  public var sectionMoves: [(from: Int, to: Int)] = []
  /// Sections whose description changed (at old indexes).
  public var sectionReloads: [SectionReload] = []
  /// Old rows removed, per old section.
  public var itemDeletes: [(section: Int, rows: Range<Int>)] = []
  /// Rows inserted, at new index paths.
  public var itemInserts: [Run] = []
  /// Rows moved.
  public var itemMoves: [ItemMove] = []
  /// Rows reloaded, at old index paths.
  public var itemReloads: [Run] = []
  /// Rows reconfigured, at old index paths.
  public var itemReconfigures: [Run] = []
  /// Rows that entered a windowed subscriber's window without an entry carrying them.
  public var enter: [Run] = []
  /// Ids that joined the selection.
  public var selected: [String] = []
  /// Ids that left the selection.
  public var deselected: [String] = []
  /// Ids expanded (state the rows already carry).
  public var expanded: [String] = []
  /// Ids collapsed (state the rows already carry).
  public var collapsed: [String] = []
  /// The new selection mode, if it changed.
  public var selectionMode: String?
  /// The list attributes present (`columns`, `emptyState`, `editing`), as the wire carries them.
  public var attributes: [(key: String, value: JSONValue)] = []

  /// Decodes `changeset`; throws naming the first member or entry out of form.
  public init(_ changeset: JSONValue) throws(WireMismatch) {
    guard case .object(let object) = changeset else { throw WireMismatch("changeset is not an object") }
    for key in object.keys where !Self.memberKeys.contains(key) {
      throw WireMismatch("unknown changeset member '\(key)'")
    }
    func entries(_ key: String) throws(WireMismatch) -> [JSONValue] {
      guard let value = object[key] else { return [] }
      guard let array = value.arrayValue, !array.isEmpty else {
        throw WireMismatch("'\(key)' must be a non-empty array when present, got \(WireValue.text(value))")
      }
      return array
    }
    func runs(_ key: String) throws(WireMismatch) -> [Run] {
      var runs: [Run] = []
      for value in try entries(key) { runs.append(try Self.run(value)) }
      return runs
    }
    func ids(_ key: String) throws(WireMismatch) -> [String] {
      var ids: [String] = []
      for value in try entries(key) { ids.append(try WireValue.string(value)) }
      return ids
    }
    for delete in try entries("sectionDeletes") {
      let n = try WireValue.ints(delete, count: 2)
      guard n[0] >= 0, n[1] > 0 else {
        throw WireMismatch("section delete \(WireValue.text(delete)) is out of range")
      }
      sectionDeletes.append(n[0]..<(n[0] + n[1]))
    }
    for insert in try entries("sectionInserts") {
      guard let section = insert["section"] else { throw WireMismatch("section insert without section") }
      sectionInserts.append(try Self.insertedSection(section, at: try WireValue.int(insert["index"])))
    }
    for move in try entries("sectionMoves") {
      let n = try WireValue.ints(move, count: 2)
      sectionMoves.append((n[0], n[1]))
    }
    for reload in try entries("sectionReloads") {
      sectionReloads.append(
        SectionReload(index: try WireValue.int(reload["index"]), section: try WireSection(decoding: reload)))
    }
    for delete in try entries("itemDeletes") {
      let n = try WireValue.ints(delete, count: 3)
      guard n[2] > 0 else { throw WireMismatch("empty item delete \(WireValue.text(delete))") }
      itemDeletes.append((n[0], n[1]..<(n[1] + n[2])))
    }
    itemInserts = try runs("itemInserts")
    for move in try entries("itemMoves") {
      let n = try WireValue.ints(move, count: 5)
      guard n[4] > 0 else { throw WireMismatch("empty item move \(WireValue.text(move))") }
      itemMoves.append(ItemMove(fromSection: n[0], fromRow: n[1], toSection: n[2], toRow: n[3], count: n[4]))
    }
    itemReloads = try runs("itemReloads")
    itemReconfigures = try runs("itemReconfigures")
    enter = try runs("enter")
    selected = try ids("selected")
    deselected = try ids("deselected")
    expanded = try ids("expanded")
    collapsed = try ids("collapsed")
    selectionMode = object["selectionMode"]?.stringValue
    for key in Self.attributeKeys { if let value = object[key] { attributes.append((key, value)) } }
  }

  /// `{"at": [section, start], "rows": [row…]}` or `{"at": [section, start], "count": n}`.
  static func run(_ value: JSONValue) throws(WireMismatch) -> Run {
    guard let at = value["at"] else { throw WireMismatch("row run without at: \(WireValue.text(value))") }
    let n = try WireValue.ints(at, count: 2)
    if let rows = value["rows"]?.arrayValue, !rows.isEmpty, value["count"] == nil {
      try WireValue.checkIDs(rows)
      return Run(section: n[0], start: n[1], count: rows.count, rows: rows)
    }
    guard value["rows"] == nil else {
      throw WireMismatch("row run with both rows and count: \(WireValue.text(value))")
    }
    let count = try WireValue.int(value["count"])
    guard count > 0 else { throw WireMismatch("empty row run: \(WireValue.text(value))") }
    return Run(section: n[0], start: n[1], count: count, rows: nil)
  }

  /// An inserted section: full (`rows`) or counted (`rowCount`, `rowsAt`, `rows`).
  static func insertedSection(_ value: JSONValue, at index: Int) throws(WireMismatch) -> SectionInsert {
    let section = try WireSection(decoding: value)
    let rows = value["rows"]?.arrayValue ?? []
    try WireValue.checkIDs(rows)
    let count = value["rowCount"] == nil ? rows.count : try WireValue.int(value["rowCount"])
    let at = value["rowsAt"] == nil ? 0 : try WireValue.int(value["rowsAt"])
    guard at >= 0, at + rows.count <= count else {
      throw WireMismatch("section rows out of range: \(WireValue.text(value))")
    }
    return SectionInsert(index: index, section: section, count: count, rowsAt: at, rows: rows)
  }
}

/// The scalar readers of the wire decoders, each throwing a ``WireMismatch`` naming the value.
public enum WireValue {
  /// Compact JSON text of `value`, for messages.
  public static func text(_ value: JSONValue) -> String { String(decoding: value.jsonBytes(), as: UTF8.self) }

  /// An array of exactly `count` integers.
  public static func ints(_ value: JSONValue, count: Int) throws(WireMismatch) -> [Int] {
    guard let array = value.arrayValue, array.count == count else {
      throw WireMismatch("expected an array of \(count) integers, got \(WireValue.text(value))")
    }
    var ints: [Int] = []
    for element in array { ints.append(try int(element)) }
    return ints
  }

  /// An integer.
  public static func int(_ value: JSONValue?) throws(WireMismatch) -> Int {
    guard case .int(let number)? = value else {
      throw WireMismatch("expected an integer, got \(WireValue.text(value ?? .null))")
    }
    return Int(number)
  }

  /// A string.
  public static func string(_ value: JSONValue) throws(WireMismatch) -> String {
    guard let string = value.stringValue else {
      throw WireMismatch("expected a string, got \(WireValue.text(value))")
    }
    return string
  }

  /// A string, or nil for an absent or null value.
  public static func optionalString(_ value: JSONValue?) throws(WireMismatch) -> String? {
    guard let value, !value.isNull else { return nil }
    return try string(value)
  }

  /// Throws unless every row has a string `id`.
  public static func checkIDs(_ rows: [JSONValue]) throws(WireMismatch) {
    for row in rows where row["id"]?.stringValue == nil {
      throw WireMismatch("row without id: \(WireValue.text(row))")
    }
  }
}
