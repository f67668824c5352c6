// Rebuilding content on a snapshot's id table (the equal-content fast path) gives what a fresh build gives, for near-equal content.
import JSON
import SeededRandom
import XCTest

@testable import ListModel

final class NearEqualReplacePropertyTests: XCTestCase {
  static let caseCount = 400

  /// Each case: a random list `old`, content equal to it or differing in one way (one payload
  /// field of one item, `data` members in another order, `1` written `1.0`, a section's
  /// header, an item's id, two items swapped, expansion), built on `old`'s id table through
  /// each appending API. It must equal the same content built on a fresh table, diff against
  /// `old` as that one does, mirror, keep `old` intact, and stay editable; content equal to
  /// `old` diffs empty and takes `old`'s sections over (same stamps).
  ///
  /// `LISTD_NEAR_EQUAL_SEED=n` replays from seed n.
  func testRebuildingNearEqualContentMatchesAFreshBuild() {
    let first = ProcessInfo.processInfo.environment["LISTD_NEAR_EQUAL_SEED"].flatMap(UInt64.init) ?? 2_027
    print("NearEqualReplacePropertyTests: seeds \(first)..<\(first + UInt64(Self.caseCount))")
    var failures = 0
    for seed in first..<(first + UInt64(Self.caseCount)) where failures < 3 {
      if let problem = runCase(seed: seed) {
        XCTFail("seed \(seed) (LISTD_NEAR_EQUAL_SEED=\(seed) replays it): \(problem)")
        failures += 1
      }
    }
  }

  /// The content of a list: sections with their items (flat here; leaves as trees).
  struct Content {
    var sections: [(spec: SectionSpec, items: [ListItem], expanded: [Bool])]
  }

  enum Variant: CaseIterable {
    case equal, text, secondaryText, image, data, accessories, leadingActions, trailingActions, selectable,
      movable, kind, keyOrder, integralDouble, header, itemID, swap, expanded
  }

  enum API: CaseIterable { case items, strings, trees, inheritingTrees }

  func runCase(seed: UInt64) -> String? {
    var random = SplitMix64(seed: seed)
    let variant = Variant.allCases[random.int(0..<Variant.allCases.count)]
    var api = API.allCases[random.int(0..<API.allCases.count)]
    var content = Self.content(&random, plain: api == .strings)
    if api == .items || api == .strings {  // flat items start collapsed: equal content is equal
      for s in content.sections.indices {
        content.sections[s].expanded = content.sections[s].expanded.map { _ in false }
      }
    }
    var old = Self.build(content, api: .trees, on: nil)
    if random.chance(percent: 15), let any = content.sections.first(where: { !$0.items.isEmpty }) {
      try! old.reconfigureItems([any.items[0].id])  // a mark: that section must take the slow path
    }
    if variant != .equal && variant != .expanded && api == .strings { api = .items }
    let changed = Self.vary(content, variant, &random)
    if api == .strings,
      changed.sections.contains(where: { $0.items.contains { $0.payload != ItemPayload() } })
    {
      api = .items
    }
    content = changed
    let oldRows = old.rows
    let new = Self.build(content, api: api, on: old)
    let reference = Self.build(content, api: api, on: nil, expansionFrom: old)
    let log = "variant \(variant), api \(api)"
    if let broken = new.brokenInvariant() { return "\(log): invariant: \(broken)" }
    guard new.rows == reference.rows else { return "\(log): rows differ from a fresh build" }
    guard new == reference.rebased(onto: old.table) else {
      return "\(log): snapshot differs from a fresh build"
    }
    let changes = diff(old, new)
    guard changes == diff(old, reference) else {
      return "\(log): changeset \(changes) differs from a fresh build's \(diff(old, reference))"
    }
    guard (try? apply(changes, to: old.rows)) == new.rows else { return "\(log): mirror mismatch" }
    guard old.rows == oldRows, old.brokenInvariant() == nil else { return "\(log): old changed" }
    if variant == .equal {
      guard changes.isEmpty else { return "\(log): equal content diffs \(changes)" }
      for (index, slot) in new.order.enumerated() {
        let store = new.slots[Int(slot)]
        let before = old.slots[Int(old.order[index])]
        let marked = before.nodes.contains { $0.mark != 0 }
        let flatAPI = api == .items || api == .strings
        let expanded = flatAPI && before.nodes.contains { $0.isExpanded }
        if !store.nodes.isEmpty && !marked && !expanded && store.stamp != before.stamp {
          return "\(log): section \(index) was rebuilt, not taken over"
        }
      }
    }
    // The new snapshot stays an ordinary one: edits keep it consistent and leave `old` alone.
    var edited = new
    if let section = content.sections.last {
      try? edited.appendItems([ListItem("added-\(seed)")], toSection: section.spec.id)
      if let item = section.items.first { try? edited.deleteItems([item.id]) }
    }
    if let broken = edited.brokenInvariant() { return "\(log): after edits: \(broken)" }
    guard (try? apply(diff(new, edited), to: new.rows)) == edited.rows else { return "\(log): edit mirror" }
    guard old.rows == oldRows else { return "\(log): old changed by an edit of new" }
    return nil
  }

  static func content(_ random: inout SplitMix64, plain: Bool) -> Content {
    var next = 0
    return Content(
      sections: (0..<random.int(1..<4)).map { s in
        let count = random.int(0..<40)
        let items = (0..<count).map { _ -> ListItem in
          next += 1
          return ListItem("item-\(next)", payload: plain ? ItemPayload() : payload(&random, next))
        }
        return (
          SectionSpec("s\(s)", header: random.chance(percent: 50) ? "Header \(s)" : nil),
          items, items.map { _ in random.chance(percent: 20) }
        )
      })
  }

  static func payload(_ random: inout SplitMix64, _ n: Int) -> ItemPayload {
    var payload = ItemPayload(
      content: ItemContent(
        text: "Item \(n)", secondaryText: random.chance(percent: 50) ? "second \(n)" : nil,
        image: random.chance(percent: 30) ? "doc" : nil,
        data: random.chance(percent: 60)
          ? .object(JSONObject([("b", .int(Int64(n))), ("a", .string("x"))])) : nil),
      accessories: random.chance(percent: 50) ? [.disclosureIndicator, .badge("\(n % 7)")] : [],
      leadingSwipeActions: random.chance(percent: 40) ? [ListAction(id: "pin", title: "Pin")] : [],
      trailingSwipeActions: random.chance(percent: 40)
        ? [ListAction(id: "delete", title: "Delete", style: .destructive)] : [],
      kind: random.chance(percent: 20) ? "card" : nil)
    if random.chance(percent: 10) { payload.isSelectable = false }
    return payload
  }

  /// `content` with one change (none for `.equal`).
  static func vary(_ content: Content, _ variant: Variant, _ random: inout SplitMix64) -> Content {
    var content = content
    let candidates = content.sections.indices.filter { !content.sections[$0].items.isEmpty }
    guard let s = candidates.isEmpty ? nil : candidates[random.int(0..<candidates.count)] else {
      if variant == .header { content.sections[0].spec.header = "Other" }
      return content
    }
    let i = random.int(0..<content.sections[s].items.count)
    var payload = content.sections[s].items[i].payload
    switch variant {
    case .equal: return content
    case .text: payload.content.text = (payload.content.text ?? "") + "!"
    case .secondaryText: payload.content.secondaryText = payload.content.secondaryText == nil ? "new" : nil
    case .image: payload.content.image = payload.content.image == nil ? "star" : nil
    case .data: payload.content.data = .object(JSONObject([("b", .int(-1))]))
    case .accessories: payload.accessories = payload.accessories.isEmpty ? [.checkmark] : []
    case .leadingActions:
      payload.leadingSwipeActions =
        payload.leadingSwipeActions.isEmpty ? [ListAction(id: "x", title: "X")] : []
    case .trailingActions:
      payload.trailingSwipeActions = [ListAction(id: "delete", title: "Remove", style: .destructive)]
    case .selectable: payload.isSelectable.toggle()
    case .movable: payload.isMovable.toggle()
    case .kind: payload.kind = payload.kind == nil ? "row" : nil
    case .keyOrder:
      if case .object(let members)? = payload.content.data {
        payload.content.data = .object(JSONObject(members.reversed().map { ($0.0, $0.1) }))
      }
    case .integralDouble:
      if case .object(let object)? = payload.content.data {
        var members = object.map { ($0.0, $0.1) }
        members[0].1 = .double(Double(members[0].1.intValue ?? 0))
        payload.content.data = .object(JSONObject(members))
      }
    case .header:
      content.sections[s].spec.header = (content.sections[s].spec.header ?? "") + "?"
      return content
    case .itemID:
      content.sections[s].items[i].id += "-renamed"
      return content
    case .swap:
      let j = random.int(0..<content.sections[s].items.count)
      content.sections[s].items.swapAt(i, j)
      content.sections[s].expanded.swapAt(i, j)
      return content
    case .expanded:
      content.sections[s].expanded[i].toggle()
      return content
    }
    content.sections[s].items[i].payload = payload
    return content
  }

  /// `content` built through one appending API, on `base`'s id table when given.
  static func build(_ content: Content, api: API, on base: ListSnapshot?, expansionFrom: ListSnapshot? = nil)
    -> ListSnapshot
  {
    var snapshot = base.map { ListSnapshot(sharingIdentifiersWith: $0) } ?? ListSnapshot()
    try! snapshot.appendSections(content.sections.map(\.spec))
    for section in content.sections where !section.items.isEmpty {
      let id = section.spec.id
      switch api {
      case .items: try! snapshot.appendItems(section.items, toSection: id)
      case .strings: try! snapshot.appendItems(section.items.map(\.id), toSection: id)
      case .trees:
        let trees = zip(section.items, section.expanded).map { OutlineNode($0, isExpanded: $1) }
        try! snapshot.appendTrees(trees, toSection: id, inheritingExpansionFrom: nil)
      case .inheritingTrees:
        let trees = section.items.map { OutlineNode.inheritingExpansion($0) }
        try! snapshot.appendTrees(trees, toSection: id, inheritingExpansionFrom: base ?? expansionFrom)
      }
    }
    return snapshot
  }
}
