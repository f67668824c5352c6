// A live view's state: the source's rows that pass the filter, kept in order-statistic trees per group.

/// Keeps a view of a source snapshot up to date.
///
/// Every member (a source row that passes the filter) sits in the tree of its group, ordered by
/// its sort values and then by its place in the source (section index, preorder position).
/// A change of k source rows costs O(k log n) — plus O(k log G + created/deleted groups) for G
/// groups — never a re-filter or re-sort of the whole source: ``update(to:changeset:)``.
/// Items are the source's interned ids, so the engine follows one source lineage; a source
/// that no longer shares ids (its id table was compacted) is rebuilt from scratch.
public struct ViewEngine: Sendable {
  public internal(set) var definition: ViewDefinition
  /// The source snapshot the view reflects.
  public internal(set) var source: ListSnapshot
  var forest = OrderStatisticForest()
  /// The groups in section order, each with the root of its tree. One group (key null)
  /// when the view has no grouping, present even when empty.
  var groups: [(key: ViewValue, root: Int32)] = []
  /// Per interned id: whether it is a member.
  var isMember: [Bool] = []
  /// Per interned id: its group key (members only).
  var groupKeys: [ViewValue] = []
  /// Per interned id, `definition.sort.count` values each (members only).
  var sortValues: [ViewValue] = []

  /// A view of `source`. O(n log n) for n source rows.
  public init(definition: ViewDefinition, source: ListSnapshot) {
    self.definition = definition
    self.source = source
    rebuild()
  }

  /// Number of rows of the view.
  public var count: Int { groups.reduce(0) { $0 + forest.count($1.root) } }

  // MARK: - Building from scratch

  /// Rebuilds every tree from `source`: one pass over its rows, one sort. O(n log n).
  mutating func rebuild() {
    forest = OrderStatisticForest()
    groups = []
    let capacity = source.table.count
    isMember = Array(repeating: false, count: capacity)
    groupKeys = Array(repeating: .null, count: capacity)
    let stride = definition.sort.count
    sortValues = Array(repeating: .null, count: capacity * stride)
    let strings = source.table.strings()
    var members: [Int32] = []
    for slot in source.order {
      let store = source.slots[Int(slot)]
      store.forEachVisibleNode { _, node in
        let id = node.pointee.id
        if record(id, string: strings[Int(id)], payload: node.pointee.payload) { members.append(id) }
      }
    }
    // Members are in source order: a stable sort by (group, sort values) keeps it for ties.
    // The comparator reads `let` copies of the keys, never `self` (a capture would copy it).
    let keys = SortKeys(self)
    let order = Array(members.indices).sorted { a, b in
      let c = keys.compare(members[a], members[b])
      return c != 0 ? c < 0 : a < b
    }
    var start = 0
    while start < order.count || (groups.isEmpty && definition.group == nil) {
      guard start < order.count else {
        groups.append((.null, -1))
        break
      }
      let key = groupKeys[Int(members[order[start]])]
      var end = start + 1
      while end < order.count, definition.group == nil || groupKeys[Int(members[order[end]])] == key {
        end += 1
      }
      groups.append(
        (definition.group == nil ? .null : key, forest.build(order[start..<end].map { members[$0] })))
      start = end
    }
  }

  /// Records an item's membership and keys; returns whether it is a member.
  @discardableResult
  mutating func record(_ id: Int32, string: String, payload: ItemPayload) -> Bool {
    let index = Int(id)
    if index >= isMember.count {
      let grown = max(index + 1, isMember.count * 2)
      isMember.append(contentsOf: repeatElement(false, count: grown - isMember.count))
      groupKeys.append(contentsOf: repeatElement(.null, count: grown - groupKeys.count))
      sortValues.append(
        contentsOf: repeatElement(.null, count: grown * definition.sort.count - sortValues.count))
    }
    guard definition.includes(id: string, payload: payload) else {
      isMember[index] = false
      return false
    }
    isMember[index] = true
    if let group = definition.group { groupKeys[index] = group.key(id: string, payload: payload) }
    let stride = definition.sort.count
    for (k, key) in definition.sort.enumerated() {
      sortValues[index * stride + k] = key.field.value(id: string, payload: payload)
    }
    return true
  }

  // MARK: - Ordering

  /// Compares two members by group, then sort values (-1, 0, 1); 0 for ties.
  @inline(__always)
  func compareKeys(_ a: Int32, _ b: Int32) -> Int {
    SortKeys.compare(
      a, b, groupKeys: groupKeys, sortValues: sortValues, sort: definition.sort,
      groupOrder: definition.group == nil ? 0 : (definition.group!.descending ? -1 : 1))
  }

  /// Compares two members of one group: sort values, then their places in `snapshot`.
  @inline(__always)
  func compare(_ a: Int32, _ b: Int32, in snapshot: ListSnapshot) -> Int {
    if a == b { return 0 }
    let order = compareKeys(a, b)
    if order != 0 { return order }
    let la = snapshot.location(a)
    let lb = snapshot.location(b)
    if la.slot != lb.slot {
      return snapshot.indexOfSlot[Int(la.slot)] < snapshot.indexOfSlot[Int(lb.slot)] ? -1 : 1
    }
    return la.position < lb.position ? -1 : 1
  }

  /// The index of the group with `key`, or where it would go.
  func groupIndex(_ key: ViewValue) -> (index: Int, found: Bool) {
    if definition.group == nil { return (0, true) }
    var low = 0
    var high = groups.count
    while low < high {
      let middle = (low + high) / 2
      let order = definition.compareGroups(groups[middle].key, key)
      if order == 0 { return (middle, true) }
      if order < 0 { low = middle + 1 } else { high = middle }
    }
    return (low, false)
  }

  /// The index path of a member, ordered as in `snapshot`.
  func indexPath(of id: Int32, in snapshot: ListSnapshot) -> ListIndexPath {
    let group = groupIndex(groupKeys[Int(id)]).index
    let row = forest.rank(in: groups[group].root) { compare(id, $0, in: snapshot) } ?? -1
    return ListIndexPath(section: group, item: row)
  }

  /// The members in view order, by group. O(n).
  public var memberIDs: [[Int32]] { groups.map { forest.elements($0.root) } }

  // MARK: - Sections and rows

  /// The id of the section of group `index`.
  public func sectionID(ofGroup index: Int) -> String {
    definition.group == nil ? ViewDefinition.ungroupedSectionID : ViewGrouping.sectionID(groups[index].key)
  }

  /// The header of the section of group `index`.
  public func header(ofGroup index: Int) -> String? {
    definition.group == nil ? nil : groups[index].key.display
  }

  /// A view row of a member of the source.
  func row(_ id: Int32, in snapshot: ListSnapshot) -> Row {
    Row(id: snapshot.string(id), payload: snapshot.node(id).payload)
  }

  /// The view's rows, built from scratch from the trees. O(n).
  public var rows: [RowSection] {
    let strings = source.table.strings()
    return groups.indices.map { g in
      RowSection(
        id: sectionID(ofGroup: g), header: header(ofGroup: g),
        rows: forest.elements(groups[g].root).map {
          Row(id: strings[Int($0)], payload: source.node($0).payload)
        })
    }
  }

  /// A snapshot holding the view's rows, with the source's selection mode and no selection. O(n).
  public func makeSnapshot(selectionMode: SelectionMode) -> ListSnapshot {
    fill(ListSnapshot(selectionMode: selectionMode))
  }

  /// A snapshot of the view's rows on `other`'s id table, with its selection mode and no selection. O(n).
  public func makeSnapshot(sharingIdentifiersWith other: ListSnapshot) -> ListSnapshot {
    fill(ListSnapshot(sharingIdentifiersWith: other, selectionMode: other.selectionMode))
  }

  private func fill(_ empty: ListSnapshot) -> ListSnapshot {
    var snapshot = empty
    try? snapshot.setColumns(source.columns)  // a view has its source's columns
    for section in rows {
      try? snapshot.appendSections([SectionSpec(section.id, header: section.header)])
      try? snapshot.appendItems(
        section.rows.map { ListItem($0.id, payload: $0.payload) }, toSection: section.id)
    }
    return snapshot
  }
}

/// The members' keys, copied out of an engine so a comparator need not capture it.
struct SortKeys {
  let groupKeys: [ViewValue]
  let sortValues: [ViewValue]
  let sort: [SortKey]
  /// 0 without grouping, 1 ascending groups, -1 descending.
  let groupOrder: Int

  init(_ engine: ViewEngine) {
    groupKeys = engine.groupKeys
    sortValues = engine.sortValues
    sort = engine.definition.sort
    groupOrder = engine.definition.group == nil ? 0 : (engine.definition.group!.descending ? -1 : 1)
  }

  @inline(__always) func compare(_ a: Int32, _ b: Int32) -> Int {
    Self.compare(a, b, groupKeys: groupKeys, sortValues: sortValues, sort: sort, groupOrder: groupOrder)
  }

  /// Compares two members by group, then sort values (-1, 0, 1); 0 for ties.
  @inline(__always)
  static func compare(
    _ a: Int32, _ b: Int32, groupKeys: [ViewValue], sortValues: [ViewValue], sort: [SortKey], groupOrder: Int
  ) -> Int {
    if groupOrder != 0 {
      let g = ViewValue.compare(groupKeys[Int(a)], groupKeys[Int(b)])
      if g != 0 { return g * groupOrder }
    }
    let stride = sort.count
    let baseA = Int(a) * stride
    let baseB = Int(b) * stride
    for k in 0..<stride {
      let order = ViewValue.compare(sortValues[baseA + k], sortValues[baseB + k])
      if order != 0 { return sort[k].descending ? -order : order }
    }
    return 0
  }
}
