// A seeded generator of random lists and random edit batches, valid and invalid, for property tests.
import SeededRandom
import XCTest

@testable import ListModel

/// Generates random lists and edits from one seed.
struct RandomEdits {
  var random: SplitMix64
  var nextID = 0
  /// Small payload pool, so payload changes (and no-op payload sets) both happen.
  static let payloads: [ItemPayload] = [
    ItemPayload(),
    ItemPayload(text: "a"),
    ItemPayload(text: "b"),
    ItemPayload(content: ItemContent(text: "a", data: ["k": 1]), accessories: [.checkmark]),
    ItemPayload(
      content: ItemContent(text: "c"), accessories: [.badge("3"), .toggle(isOn: true)],
      trailingSwipeActions: [ListAction(id: "del", title: "Delete", style: .destructive)]),
    ItemPayload(content: ItemContent(text: "n"), isSelectable: false),
    // Cells and kinds: a kind change is a reload, a cell change a reconfigure.
    ItemPayload(content: ItemContent(text: "a"), cells: ["size": .number(1)], kind: "file"),
    ItemPayload(
      content: ItemContent(text: "a"), cells: ["size": .number(2), "name": .string("x")], kind: "file"),
    ItemPayload(content: ItemContent(text: "a"), cells: ["size": .null], kind: "folder"),
  ]
  /// Column sets, so columns change (and cells of removed columns are refused).
  static let columnSets: [[ListColumn]] = [
    [],
    [ListColumn(id: "size", title: "Size")],
    [ListColumn(id: "name", title: "Name"), ListColumn(id: "size", title: "Size", alignment: .trailing)],
    [
      ListColumn(id: "size", title: "Size", width: 8, isSortable: true),
      ListColumn(id: "name", title: "Name"),
    ],
  ]

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  mutating func freshID(_ prefix: String) -> String {
    nextID += 1
    return "\(prefix)\(nextID)"
  }

  mutating func payload() -> ItemPayload { random.element(Self.payloads)! }

  mutating func newItems(_ maxCount: Int) -> [ListItem] {
    (0..<random.int(1..<(maxCount + 1))).map { _ in ListItem(freshID("i"), payload: payload()) }
  }

  mutating func trees(depth: Int) -> [OutlineNode] {
    (0..<random.int(1..<4)).map { _ in
      let children = depth > 0 && random.chance(percent: 50) ? trees(depth: depth - 1) : []
      return OutlineNode(
        ListItem(freshID("t"), payload: payload()), children: children, isExpanded: random.chance(percent: 50)
      )
    }
  }

  /// A random starting list: a few sections, flat items and outlines, some selection.
  mutating func list() -> ListSnapshot {
    var snapshot = ListSnapshot(selectionMode: random.element(SelectionMode.allCases)!)
    if random.chance(percent: 70) { try? snapshot.setColumns(Self.columnSets[2]) }
    if random.chance(percent: 30) { snapshot.setEmptyState(EmptyState(title: "Empty")) }
    if random.chance(percent: 20) { snapshot.setEditing(true) }
    for _ in 0..<(random.chance(percent: 8) ? 0 : random.int(1..<5)) {
      let section = freshID("s")
      try? snapshot.appendSections([
        SectionSpec(
          section, header: random.chance(percent: 30) ? "h" : nil, kind: random.element([nil, "k"])!,
          headerMode: random.element(HeaderMode.allCases)!)
      ])
      // Through `apply`, which refuses cells for columns the list lacks.
      if random.chance(percent: 60) {
        try? snapshot.apply(.appendItems(newItems(8), section: section))
      } else {
        try? snapshot.apply(.appendTrees(trees(depth: 3), section: section))
      }
    }
    if snapshot.selectionMode == .multiple, random.chance(percent: 30) { try? snapshot.selectAll() }
    return snapshot
  }

  /// An id of the snapshot, or (sometimes) an unknown or duplicate one.
  mutating func itemID(_ snapshot: ListSnapshot) -> String {
    let all = snapshot.allItems
    if all.isEmpty || random.chance(percent: 3) { return "unknown\(random.int(0..<3))" }
    return random.element(all)!
  }

  mutating func sectionID(_ snapshot: ListSnapshot) -> String {
    let all = snapshot.sectionIdentifiers
    if all.isEmpty || random.chance(percent: 3) { return "nosection\(random.int(0..<3))" }
    return random.element(all)!
  }

  mutating func itemIDs(_ snapshot: ListSnapshot, max: Int) -> [String] {
    (0..<random.int(1..<(max + 1))).map { _ in itemID(snapshot) }
  }

  /// New items, sometimes reusing an existing id (a duplicate).
  mutating func maybeDuplicateItems(_ snapshot: ListSnapshot, max: Int) -> [ListItem] {
    var items = newItems(max)
    if random.chance(percent: 4), let existing = random.element(snapshot.allItems) {
      items[random.int(0..<items.count)] = ListItem(existing)
    }
    if random.chance(percent: 2), let first = items.first { items.append(first) }
    return items
  }

  /// One random edit, usually valid for `snapshot`.
  mutating func edit(_ snapshot: ListSnapshot) -> ListEdit {
    let s = snapshot
    switch random.int(0..<44) {
    case 42:
      return .setEmptyState(
        random.element([
          nil, EmptyState(title: "Empty"), EmptyState(title: "None", image: "tray"), .search(query: "q"),
        ])!)
    case 43: return .setEditing(random.chance(percent: 50))
    case 40: return .setColumns(random.element(Self.columnSets)!)
    case 41:
      return .updateSectionStyle(
        sectionID(s), kind: random.element([nil, .some(nil), "k", "m"])!,
        headerMode: random.element([nil] + HeaderMode.allCases)!)
    case 0:
      var specs = (0..<random.int(1..<3)).map { _ in
        SectionSpec(freshID("s"), header: random.chance(percent: 20) ? "x" : nil)
      }
      if random.chance(percent: 5) { specs.append(SectionSpec(sectionID(s))) }
      return .appendSections(specs)
    case 1: return .insertSectionsBefore([SectionSpec(freshID("s"))], section: sectionID(s))
    case 2: return .insertSectionsAfter([SectionSpec(freshID("s"))], section: sectionID(s))
    case 3: return .deleteSections([sectionID(s)])
    case 4: return .moveSectionBefore(sectionID(s), section: sectionID(s))
    case 5: return .moveSectionAfter(sectionID(s), section: sectionID(s))
    case 6: return .reloadSections([sectionID(s)])
    case 7: return .setSectionHeader(section: sectionID(s), header: random.element([nil, "h", "H"])!)
    case 8: return .setSectionFooter(section: sectionID(s), footer: random.element([nil, "f"])!)
    case 9, 10:
      return .appendItems(
        maybeDuplicateItems(s, max: 4), section: random.chance(percent: 30) ? nil : sectionID(s))
    case 11: return .insertItemsBefore(maybeDuplicateItems(s, max: 3), item: itemID(s))
    case 12: return .insertItemsAfter(maybeDuplicateItems(s, max: 3), item: itemID(s))
    case 13, 14: return .deleteItems(itemIDs(s, max: 3))
    case 15: return random.chance(percent: 10) ? .deleteAllItems : .deselectAll
    case 16, 17: return .moveItemBefore(itemID(s), item: itemID(s))
    case 18: return .moveItemAfter(itemID(s), item: itemID(s))
    case 19: return .moveItemToParent(itemID(s), parent: itemID(s))
    case 20: return .moveItemToSection(itemID(s), section: sectionID(s))
    case 21: return .reloadItems(itemIDs(s, max: 3))
    case 22: return .reconfigureItems(itemIDs(s, max: 3))
    case 23:
      let section = sectionID(s)
      var items = s.itemIdentifiers(inSection: section, includingHidden: true).filter { _ in
        random.chance(percent: 60)
      }
      .map { ListItem($0, payload: payload()) }
      items.shuffle(using: &random)
      items += random.chance(percent: 50) ? newItems(3) : []
      return .replaceItems(items, section: section)
    case 24, 25: return .setPayload(item: itemID(s), payload: payload())
    case 26, 27: return .appendChildren(maybeDuplicateItems(s, max: 3), parent: itemID(s))
    case 28: return .appendTrees(trees(depth: 2), section: random.chance(percent: 30) ? nil : sectionID(s))
    case 29: return .appendChildTrees(trees(depth: 2), parent: itemID(s))
    case 30, 31: return .expand(itemIDs(s, max: 2))
    case 32, 33: return .collapse(itemIDs(s, max: 2))
    case 34: return random.chance(percent: 50) ? .expandSubtree(itemID(s)) : .collapseSubtree(itemID(s))
    case 35:
      let section: String? = random.chance(percent: 50) ? nil : sectionID(s)
      switch random.int(0..<3) {
      case 0: return .expandAll(section: section)
      case 1: return .collapseAll(section: section)
      default: return .expandToLevel(random.int(-1..<4), section: section)
      }
    case 36, 37: return .select(itemIDs(s, max: 2))
    case 38: return .deselect(itemIDs(s, max: 2))
    default:
      switch random.int(0..<4) {
      case 0: return .selectAll
      case 1: return .setSelectionMode(random.element(SelectionMode.allCases)!)
      default: return .select(random.element(s.itemIdentifiers).map { [$0] } ?? [])
      }
    }
  }
}

extension ListSnapshot {
  /// Every item id, hidden ones included, section after section.
  var allItems: [String] {
    sectionIdentifiers.flatMap { itemIdentifiers(inSection: $0, includingHidden: true) }
  }
}
