// Random lists and random edits (sections, items, outlines, payloads, selection) for property tests.
import Foundation
import ListModel
import SeededRandom

/// Generates random snapshots and edits them at random, from one seed.
struct RandomLists {
  var random: SplitMix64
  private var next = 0

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  /// `LISTD_TUI_SEED`, else a fixed seed; printed with `test`'s name so a failure replays.
  static func seed(for test: String) -> UInt64 {
    let seed =
      ProcessInfo.processInfo.environment["LISTD_TUI_SEED"].flatMap(UInt64.init)
      ?? 9311
    print("\(test): seed \(seed) (LISTD_TUI_SEED=\(seed) replays it)")
    return seed
  }

  mutating func id(_ prefix: String) -> String {
    next += 1
    return "\(prefix)\(next)"
  }

  mutating func payload() -> ItemPayload {
    random.element([ItemPayload(), ItemPayload(text: "a"), ItemPayload(text: "b"), ItemPayload(text: "c")])!
  }

  mutating func items(_ max: Int) -> [ListItem] {
    (0..<random.int(in: 1...max)).map { _ in ListItem(id("i"), payload: payload()) }
  }

  mutating func trees(depth: Int) -> [OutlineNode] {
    (0..<random.int(in: 1...3)).map { _ in
      OutlineNode(
        ListItem(id("t"), payload: payload()),
        children: depth > 0 && random.chance(percent: 60) ? trees(depth: depth - 1) : [],
        isExpanded: random.chance(percent: 60))
    }
  }

  mutating func header() -> String? { random.chance(percent: 50) ? "H\(random.int(0..<5))" : nil }

  mutating func kind() -> String? { random.chance(percent: 30) ? "k\(random.int(0..<2))" : nil }

  mutating func headerMode() -> HeaderMode {
    random.chance(percent: 60) ? .supplementary : random.element(HeaderMode.allCases)!
  }

  /// A new section with a random header, footer, kind and header mode.
  mutating func section(footer: Bool = false) -> SectionSpec {
    SectionSpec(
      id("s"), header: header(), footer: footer ? header() : nil, kind: kind(), headerMode: headerMode())
  }

  /// A snapshot of 0–4 sections with plain items and outlines.
  mutating func snapshot() throws -> ListSnapshot {
    var snapshot = ListSnapshot(selectionMode: .multiple)
    for _ in 0..<random.int(in: 0...4) {
      let spec = section(footer: true)
      let section = spec.id
      try snapshot.appendSections([spec])
      if random.chance(percent: 50) { try snapshot.appendItems(items(6), toSection: section) }
      if random.chance(percent: 50) { try snapshot.appendTrees(trees(depth: 2), toSection: section) }
    }
    return snapshot
  }

  /// One to three random edits; invalid ones are skipped.
  mutating func edit(_ snapshot: inout ListSnapshot) {
    for _ in 0..<random.int(in: 1...3) {
      let ids = snapshot.itemIdentifiers
      let sections = snapshot.sectionIdentifiers
      let item = random.element(ids)
      let section = random.element(sections)
      do {
        switch random.int(0..<14) {
        case 0: try snapshot.appendSections([self.section()])
        case 1:
          if let section {
            try snapshot.insertSections([self.section()], before: section)
          }
        case 2: if let section { try snapshot.deleteSections([section]) }
        case 3:
          if let section, let other = random.element(sections) {
            try snapshot.moveSection(section, before: other)
          }
        case 4: if let section { try snapshot.appendItems(items(4), toSection: section) }
        case 5: if let item { try snapshot.insertItems(items(3), before: item) }
        case 6:
          if !ids.isEmpty {
            try snapshot.deleteItems(Array(random.shuffled(ids).prefix(random.int(in: 1...4))))
          }
        case 7: if let item, let other = random.element(ids) { try snapshot.moveItem(item, before: other) }
        case 8: if let item, let section { try snapshot.moveItem(item, toSection: section) }
        case 9: if let item { try snapshot.setPayload(payload(), forItem: item) }
        case 10: if let item { try snapshot.expand([item]) }
        case 11: if let item { try snapshot.collapse([item]) }
        case 12:
          if let section, random.chance(percent: 50) {
            try snapshot.setHeader(header(), forSection: section)
          } else if let section {
            let kind: String?? = random.chance(percent: 50) ? .some(kind()) : nil
            try snapshot.updateSectionStyle(
              section, kind: kind, headerMode: random.chance(percent: 50) ? headerMode() : nil)
          }
        default:
          if let item, random.chance(percent: 50) {
            try snapshot.reconfigureItems([item])
          } else if let item {
            try snapshot.select([item])
          }
        }
      } catch {
        continue
      }
    }
  }
}
