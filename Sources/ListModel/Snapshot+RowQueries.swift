// Row-level queries for viewers: one item's row, and a window of a section's visible rows.

extension ListSnapshot {
  /// The row of an item, visible or hidden, or nil if the item is unknown. O(1) (one hash).
  public func row(ofItem id: String) -> Row? {
    guard let item = itemID(id) else { return nil }
    let node = node(item)
    return Row(
      id: id, payload: node.payload, level: Int(node.level),
      parent: node.parent >= 0 ? string(node.parent) : nil, hasChildren: node.hasChildren,
      isExpanded: node.isExpanded)
  }

  /// The visible rows `range` of the section at `sectionIndex`, clamped to the rows it has
  /// (empty for an unknown section). O(log n + rows returned).
  public func rows(inSectionAt sectionIndex: Int, range: Range<Int>) -> [Row] {
    guard sectionIndex >= 0, sectionIndex < order.count else { return [] }
    let store = slots[Int(order[sectionIndex])]
    let lower = max(range.lowerBound, 0)
    let upper = min(range.upperBound, store.visibleCount)
    guard lower < upper, var position = store.position(ofRow: lower) else { return [] }
    let strings = table.strings()
    var rows: [Row] = []
    rows.reserveCapacity(upper - lower)
    while rows.count < upper - lower && position < store.nodes.count {
      let node = store.nodes[position]
      rows.append(Self.row(node, strings: strings))
      position += node.isExpanded ? 1 : Int(node.size)
    }
    return rows
  }
}
