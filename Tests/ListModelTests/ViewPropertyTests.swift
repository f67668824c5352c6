// Live views on 5,000 seeded cases: after every source change the view equals the source filtered, sorted and grouped from scratch, and a mirror of its changesets equals it.
import JSON
import SeededRandom
import XCTest

@testable import ListModel

final class ViewPropertyTests: XCTestCase {
  static let caseCount = 5_000

  func testViewsFollowRandomSourceChanges() {
    var failures = 0
    for seed in PropertySeeds.seeds("LISTD_VIEW_SEED", default: 0..<UInt64(Self.caseCount)) where failures < 3
    {
      if let problem = runCase(seed: seed) {
        failures += 1
        XCTFail("view property, seed \(seed): \(problem)")
      }
    }
  }

  /// The view of `source` computed from scratch: its rows filtered, stably sorted, grouped.
  static func reference(_ definition: ViewDefinition, _ source: ListSnapshot) -> [RowSection] {
    struct Member {
      let row: Row
      let order: Int
      let keys: [ViewValue]
      let group: ViewValue
    }
    var members: [Member] = []
    for section in source.rows.sections {
      for row in section.rows where definition.includes(id: row.id, payload: row.payload) {
        members.append(
          Member(
            row: Row(id: row.id, payload: row.payload), order: members.count,
            keys: definition.sortValues(id: row.id, payload: row.payload),
            group: definition.group?.key(id: row.id, payload: row.payload) ?? .null))
      }
    }
    members.sort { a, b in
      let g = definition.compareGroups(a.group, b.group)
      if g != 0 { return g < 0 }
      let k = definition.compareSortValues(a.keys, b.keys)
      return k != 0 ? k < 0 : a.order < b.order
    }
    guard definition.group != nil else {
      return [RowSection(id: ViewDefinition.ungroupedSectionID, rows: members.map(\.row))]
    }
    var sections: [RowSection] = []
    for member in members {
      if let last = sections.last, last.id == ViewGrouping.sectionID(member.group) {
        sections[sections.count - 1].rows.append(member.row)
      } else {
        sections.append(
          RowSection(
            id: ViewGrouping.sectionID(member.group), header: member.group.display, rows: [member.row]))
      }
    }
    return sections
  }

  static let texts = ["apple", "Äpfel", "banana", "Bär", "cherry", "éclair", "Eclair", "b", ""]
  static let tags = ["red", "green", "Red", "blue"]

  /// A random payload whose cells name only `columns`.
  static func payload(_ random: inout SplitMix64, columns: [ListColumn]) -> ItemPayload {
    var payload = payload(&random)
    payload.cells = payload.cells.filter { cell in columns.contains { $0.id == cell.key } }
    return payload
  }

  static func payload(_ random: inout SplitMix64) -> ItemPayload {
    var data: JSONValue? = nil
    if random.chance(percent: 80) {
      var object: JSONObject = [:]
      if random.chance(percent: 85) {
        object.append("n", random.chance(percent: 20) ? .double(0.5) : .int(Int64(random.int(0..<6))))
      }
      if random.chance(percent: 85) { object.append("tag", .string(random.element(tags)!)) }
      data = .object(object)
    }
    var cells: [String: CellValue] = [:]
    if random.chance(percent: 50) {
      cells["size"] = random.chance(percent: 80) ? .number(Double(random.int(0..<4))) : .null
    }
    if random.chance(percent: 40) { cells["name"] = .string(random.element(texts)!) }
    return ItemPayload(
      content: ItemContent(
        text: random.chance(percent: 90) ? random.element(texts)! : nil,
        secondaryText: random.chance(percent: 40) ? random.element(texts)! : nil, data: data),
      isSelectable: random.chance(percent: 90), cells: cells,
      kind: random.chance(percent: 20) ? random.element(["file", "folder"]) : nil)
  }

  static let fields: [ViewField] = [
    .text, .secondaryText, .id, .data(["n"]), .data(["tag"]), .image, .cell("size"), .cell("name"),
  ]

  static func value(_ random: inout SplitMix64) -> ViewValue {
    switch random.int(0..<4) {
    case 0: .string(random.element(texts)!)
    case 1: .string(random.element(tags)!)
    case 2: .number(Double(random.int(0..<6)))
    default: .null
    }
  }

  static func definition(_ random: inout SplitMix64) -> ViewDefinition {
    var definition = ViewDefinition()
    if random.chance(percent: 70) {
      var filter = ViewFilter(combination: random.chance(percent: 50) ? .all : .any)
      if random.chance(percent: 50) { filter.query = random.element(["a", "É", "B", "", "cl"])! }
      for _ in 0..<random.int(0..<3) {
        let op = random.element(FieldPredicate.Operator.allCases)!
        let values = op == .in ? (0..<random.int(1..<3)).map { _ in value(&random) } : [value(&random)]
        filter.predicates.append(FieldPredicate(field: random.element(fields)!, op: op, values: values))
      }
      definition.filter = filter
    }
    for _ in 0..<random.int(0..<3) {
      definition.sort.append(SortKey(field: random.element(fields)!, descending: random.chance(percent: 40)))
    }
    if random.chance(percent: 40) {
      definition.group = ViewGrouping(
        field: random.element([.text, .data(["tag"]), .data(["n"])])!, byInitial: random.chance(percent: 50),
        descending: random.chance(percent: 30))
    }
    return definition
  }

  /// One case; the problem found, if any.
  func runCase(seed: UInt64) -> String? {
    var generator = RandomEdits(seed: seed)
    var random = SplitMix64(seed: seed &* 31 &+ 7)
    var source = generator.list()
    try? source.setColumns([ListColumn(id: "size", title: "Size"), ListColumn(id: "name", title: "Name")])
    for id in source.allItems {
      try? source.setPayload(Self.payload(&random, columns: source.columns), forItem: id)
    }
    let definition = Self.definition(&random)
    var engine = ViewEngine(definition: definition, source: source)
    var view = engine.makeSnapshot(selectionMode: .multiple)
    for id in view.itemIdentifiers where random.chance(percent: 30) { try? view.select([id]) }
    var mirror = view.rows
    var log = ["definition \(definition)"]
    guard engine.rows == Self.reference(definition, source) else { return "initial view differs; \(log)" }
    guard view.rows.sections == engine.rows else { return "initial snapshot differs" }
    for step in 0..<random.int(1..<7) {
      let old = source
      for _ in 0..<random.int(1..<4) {
        if random.chance(percent: 35), let id = random.element(source.allItems) {
          try? source.setPayload(Self.payload(&random, columns: source.columns), forItem: id)
          log.append("payload \(id)")
        } else {
          let edit = generator.edit(source)
          if (try? source.apply(edit)) != nil { log.append("\(edit)") }
          if case .appendItems(let items, _) = edit {
            for item in items where source.contains(item: item.id) {
              try? source.setPayload(Self.payload(&random, columns: source.columns), forItem: item.id)
            }
          }
        }
      }
      if step == 2 && seed % 13 == 0 { source = source.compacted() }  // another id table: rebuilt
      let changeset = diff(old, source)
      let update = engine.update(to: source, changeset: changeset)
      let viewChangeset: Changeset
      let viewBefore = view
      do {
        viewChangeset = try engine.apply(update, to: &view)
      } catch {
        return "applying to the view snapshot threw \(error); \(log); update \(update.changeset)"
      }
      let expected = Self.reference(definition, source)
      guard engine.rows == expected else {
        return
          "step \(step): engine \(engine.rows.map { $0.rows.map(\.id) }) ≠ reference \(expected.map { $0.rows.map(\.id) }); \(log)"
      }
      guard view.rows.sections == expected else {
        return
          "step \(step): view snapshot \(view.rows.sections.map { $0.rows.map(\.id) }) ≠ reference \(expected.map { $0.rows.map(\.id) }); \(log)"
      }
      if let broken = view.brokenInvariant() {
        return
          "view invariant: \(broken); source columns \(source.columns.map(\.id)), view \(view.columns.map(\.id)); \(log)"
      }
      do {
        mirror = try apply(viewChangeset, to: mirror)
      } catch {
        return "step \(step): the view's changeset does not apply: \(error); \(viewChangeset); \(log)"
      }
      guard mirror == view.rows else {
        return
          "step \(step): mirror \(mirror.sections.map { $0.rows.map(\.id) }) \(mirror.selected.sorted()) ≠ view \(view.rows.selected.sorted()) \(mirror.sections == view.rows.sections) \(view.rows.sections.map { $0.rows.map(\.id) }); changeset \(viewChangeset); \(log)"
      }
      let before = viewBefore.rows.sections.map(\.rows.count)
      let after = view.rows.sections.map(\.rows.count)
      let check = checkBatchUpdate(before: before, BatchUpdate(viewChangeset), after: after)
      guard check == .valid(after: after) else {
        return "step \(step): UIKit would refuse: \(check); \(viewChangeset)"
      }
    }
    return nil
  }
}
