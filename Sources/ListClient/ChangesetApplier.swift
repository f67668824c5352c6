// The one Swift applier of a wire changeset's steps 1–5 (Protocol/README.md §4): Mirror and WindowedMirror both use it.
import JSON
import ListProtocol

/// `count` rows placed from row `start` of a section, those known by their offset in the run.
struct RowRun {
  var start: Int
  var count: Int
  var known: [Int: JSONValue]
}

/// A section as the applier edits it: its description and `rowCount` rows, all of them known
/// (a full mirror) or some (a windowed one). Indexes given to it are checked by the applier.
protocol MirroredSection {
  /// The description the wire gives beside the rows.
  var info: WireSection { get set }
  /// The number of visible rows.
  var rowCount: Int { get }
  /// A section inserted by a changeset.
  init(inserted: WireChangeset.SectionInsert)
  /// A section of a snapshot or windowed entry: its description and rows (or row count).
  init(decoding: JSONValue) throws(WireMismatch)
  /// The row at `index`, if known.
  func row(at index: Int) -> JSONValue?
  /// Writes the row at `index`.
  mutating func setRow(_ row: JSONValue, at index: Int)
  /// The known rows of `range`, by offset in it (what a move carries).
  func rows(in range: Range<Int>) -> [Int: JSONValue]
  /// Removes the rows of `ranges` (sorted, disjoint).
  mutating func removeRows(_ ranges: [Range<Int>])
  /// Inserts `runs` (sorted, disjoint, each within the new row count).
  mutating func insertRows(_ runs: [RowRun])
}

/// A mirror that `list/didChange` notifications advance: ``Mirror`` and ``WindowedMirror``.
protocol ChangesetMirror {
  /// The list id.
  var list: String { get }
  /// The version the mirror is at.
  var version: Int { get set }
  /// Applies a wire changeset in place (undefined if it throws).
  mutating func apply(changeset: JSONValue) throws
}

extension ChangesetMirror {
  /// Applies a `list/didChange` params object `{list, version, previousVersion, changeset}`;
  /// throws, changing nothing, if it is for another list, does not start at the mirror's version
  /// or goes back, or does not fit. (`version` is usually `previousVersion + 1`; more for a change
  /// composed for a subscriber that fell behind, Protocol/README.md §6.)
  mutating func advance(didChange params: JSONValue) throws {
    guard params["list"]?.stringValue == list else {
      throw WireMismatch("didChange for list \(WireValue.text(params["list"] ?? .null)), mirror of '\(list)'")
    }
    guard let previous = params["previousVersion"]?.intValue, let next = params["version"]?.intValue,
      let changeset = params["changeset"]
    else { throw WireMismatch("didChange without versions or changeset: \(WireValue.text(params))") }
    guard previous == version, next > previous else {
      throw WireMismatch("didChange from \(previous) to \(next) applied to a mirror at version \(version)")
    }
    var copy = self
    try copy.apply(changeset: changeset)
    copy.version = Int(next)
    self = copy
  }
}

/// Steps 1–5 of applying a changeset, and the checks around them, for any mirrored section.
enum ChangesetApplier {
  /// The sections and selection of a snapshot or windowed entry `{sections, selection, …}`.
  static func decode<Section: MirroredSection>(_ entry: JSONValue) throws(WireMismatch) -> (
    sections: [Section], selection: Set<String>
  ) {
    guard let sections = entry["sections"]?.arrayValue, let selection = entry["selection"]?.arrayValue else {
      throw WireMismatch("snapshot or window without sections or selection: \(WireValue.text(entry))")
    }
    var decoded: [Section] = []
    for section in sections { decoded.append(try Section(decoding: section)) }
    var ids = Set<String>()
    for id in selection { ids.insert(try WireValue.string(id)) }
    return (decoded, ids)
  }

  /// Applies steps 1–5 of `changeset` to `sections` and `selection` in place (undefined if it
  /// throws). `complete`: every row is known, so every run must carry its rows and `enter` has
  /// no place (a full subscriber's changeset); otherwise counted rows stay unknown.
  static func apply<Section: MirroredSection>(
    _ changeset: WireChangeset, to sections: inout [Section], selection: inout Set<String>, complete: Bool
  ) throws(WireMismatch) {
    guard !complete || changeset.enter.isEmpty else { throw WireMismatch("unknown changeset member 'enter'") }
    func carried(_ run: WireChangeset.Run) throws(WireMismatch) -> [JSONValue] {
      if complete, run.rows == nil {
        throw WireMismatch("row run without rows at [\(run.section), \(run.start)]")
      }
      return run.rows ?? []
    }
    let oldCount = sections.count

    // 1. Section reloads and row updates, in old coordinates.
    for reload in changeset.sectionReloads {
      let index = reload.index
      guard index >= 0, index < oldCount, sections[index].info.id == reload.section.id else {
        throw WireMismatch("section reload \(reload.section.id) does not match section at \(index)")
      }
      sections[index].info = reload.section
    }
    for run in changeset.itemReloads + changeset.itemReconfigures {
      let (section, start, rows) = (run.section, run.start, try carried(run))
      guard section >= 0, section < oldCount, start >= 0, start + run.count <= sections[section].rowCount
      else {
        throw WireMismatch("row update at [\(section), \(start)] is out of range")
      }
      for (offset, row) in rows.enumerated() {
        if let old = sections[section].row(at: start + offset), old["id"] != row["id"] {
          throw WireMismatch(
            "row update at [\(section), \(start + offset)] does not match \(WireValue.text(row))")
        }
        sections[section].setRow(row, at: start + offset)
      }
    }

    // 2. Removals in old coordinates: rows (moved ones kept aside), then sections.
    var removed = [[Range<Int>]](repeating: [], count: oldCount)
    func remove(_ section: Int, _ rows: Range<Int>) throws(WireMismatch) {
      guard section >= 0, section < oldCount, rows.lowerBound >= 0,
        rows.upperBound <= sections[section].rowCount
      else { throw WireMismatch("old rows \(rows) of section \(section) are out of range") }
      removed[section].append(rows)
    }
    for delete in changeset.itemDeletes { try remove(delete.section, delete.rows) }
    // Rows to place in step 4, per new section index.
    var placements: [Int: [RowRun]] = [:]
    for move in changeset.itemMoves {
      let rows = move.fromRow..<(move.fromRow + move.count)
      try remove(move.fromSection, rows)
      placements[move.toSection, default: []].append(
        RowRun(start: move.toRow, count: move.count, known: sections[move.fromSection].rows(in: rows)))
    }
    for index in sections.indices where !removed[index].isEmpty {
      let ranges = removed[index].sorted { $0.lowerBound < $1.lowerBound }
      for (a, b) in zip(ranges, ranges.dropFirst()) where a.upperBound > b.lowerBound {
        throw WireMismatch("old rows of section \(index) are removed twice")
      }
      sections[index].removeRows(ranges)
    }
    var gone = Set<Int>()
    for delete in changeset.sectionDeletes {
      guard delete.upperBound <= oldCount else {
        throw WireMismatch("section delete [\(delete.lowerBound), \(delete.count)] is out of range")
      }
      for index in delete {
        guard gone.insert(index).inserted else { throw WireMismatch("section \(index) is removed twice") }
      }
    }
    var arriving: [(index: Int, section: Section)] = []
    for move in changeset.sectionMoves {
      guard move.from >= 0, move.from < oldCount, gone.insert(move.from).inserted else {
        throw WireMismatch(
          "section move [\(move.from), \(move.to)] is out of range or removes a section twice")
      }
      arriving.append((move.to, sections[move.from]))
    }

    // 3. Inserted and moved sections at their new indexes, ascending; the rest keep their order.
    for insert in changeset.sectionInserts {
      guard !complete || insert.isFull else {
        throw WireMismatch("section insert at \(insert.index) without all its rows")
      }
      arriving.append((insert.index, Section(inserted: insert)))
    }
    arriving.sort { $0.index < $1.index }
    let placed = ChangesetPlacement.merge(
      arriving.map { ($0.index, $0.section) },
      into: sections.indices.filter { !gone.contains($0) }.map { sections[$0] })
    if let misplaced = placed.misplaced {
      throw WireMismatch("new section index \(misplaced) is out of range or repeated")
    }
    sections = placed.elements

    // 4. Inserted and moved rows at their new index paths, ascending.
    for insert in changeset.itemInserts {
      var known: [Int: JSONValue] = [:]
      for (offset, row) in try carried(insert).enumerated() { known[offset] = row }
      placements[insert.section, default: []].append(
        RowRun(start: insert.start, count: insert.count, known: known))
    }
    for (section, unsorted) in placements {
      guard section >= 0, section < sections.count else {
        throw WireMismatch("new section index \(section) is out of range")
      }
      let runs = unsorted.sorted { $0.start < $1.start }
      let total = sections[section].rowCount + runs.reduce(0) { $0 + $1.count }
      var end = 0
      for run in runs {
        guard run.start >= end, run.start + run.count <= total else {
          throw WireMismatch("new rows at [\(section), \(run.start)] are out of range or repeated")
        }
        end = run.start + run.count
      }
      sections[section].insertRows(runs)
    }

    // 5. Selection: deselected ids leave, then selected ids join. (`expanded` / `collapsed` only
    // report state the rows already carry.)
    for id in changeset.deselected { selection.remove(id) }
    for id in changeset.selected { selection.insert(id) }
  }
}
