// Read-only queries: counts, identifiers, index paths and lookups.

extension ListSnapshot {
  /// Number of sections. O(1).
  public var numberOfSections: Int { order.count }

  /// Number of rows (visible items) in the whole list, or of every item if `includingHidden`.
  /// O(sections).
  public func numberOfItems(includingHidden: Bool = false) -> Int {
    if includingHidden { return itemCount }
    return order.reduce(0) { $0 + slots[Int($1)].visibleCount }
  }

  /// Number of rows (visible items) in a section, or of all its items if `includingHidden`;
  /// nil for an unknown section. O(1).
  public func numberOfItems(inSection id: String, includingHidden: Bool = false) -> Int? {
    guard let slot = sectionSlot(id) else { return nil }
    return includingHidden ? slots[Int(slot)].nodes.count : slots[Int(slot)].visibleCount
  }

  /// Section ids in order. O(sections).
  public var sectionIdentifiers: [String] {
    let strings = table.strings()
    return order.map { strings[Int(slots[Int($0)].id)] }
  }

  /// Every visible item id in row order, section after section. O(rows).
  public var itemIdentifiers: [String] {
    let strings = table.strings()
    var result: [String] = []
    for slot in order {
      let store = slots[Int(slot)]
      store.forEachVisibleNode { result.append(strings[Int($1.pointee.id)]) }
    }
    return result
  }

  /// The item ids of a section in row order (visible only, unless `includingHidden`, which
  /// gives every item in preorder); empty for an unknown section. O(items returned).
  public func itemIdentifiers(inSection id: String, includingHidden: Bool = false) -> [String] {
    guard let slot = sectionSlot(id) else { return [] }
    let store = slots[Int(slot)]
    let strings = table.strings()
    if includingHidden { return store.nodes.map { strings[Int($0.id)] } }
    var result: [String] = []
    result.reserveCapacity(store.visibleCount)
    store.forEachVisibleNode { result.append(strings[Int($1.pointee.id)]) }
    return result
  }

  /// The id of the section holding an item (hidden or not), or nil. O(1).
  public func sectionIdentifier(containingItem id: String) -> String? {
    guard let item = itemID(id) else { return nil }
    return string(slots[Int(location(item).slot)].id)
  }

  /// The row of an item within its section, or nil if unknown or hidden. O(log n).
  public func index(ofItem id: String) -> Int? {
    indexPath(for: id)?.item
  }

  /// The index of a section, or nil. O(1).
  public func index(ofSection id: String) -> Int? {
    sectionSlot(id).map { Int(indexOfSlot[Int($0)]) }
  }

  /// The index path of an item, or nil if unknown or hidden. O(log n) (O(1) in a flat section).
  public func indexPath(for id: String) -> ListIndexPath? {
    guard let item = itemID(id) else { return nil }
    let at = location(item)
    let store = slots[Int(at.slot)]
    guard store.nodes[Int(at.position)].isVisible else { return nil }
    return ListIndexPath(
      section: Int(indexOfSlot[Int(at.slot)]), item: store.row(ofPosition: Int(at.position)))
  }

  /// The id of the item at a row, or nil if out of range. O(log n) (O(1) in a flat section).
  public func item(at indexPath: ListIndexPath) -> String? {
    guard indexPath.section >= 0, indexPath.section < order.count else { return nil }
    let store = slots[Int(order[indexPath.section])]
    guard let position = store.position(ofRow: indexPath.item) else { return nil }
    return string(store.nodes[position].id)
  }

  /// Whether an item is in the snapshot (hidden or not). O(1).
  public func contains(item id: String) -> Bool { itemID(id) != nil }

  /// Whether a section is in the snapshot. O(1).
  public func contains(section id: String) -> Bool { sectionSlot(id) != nil }
}
