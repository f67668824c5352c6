// Updating a view for a change of its source: only the k changed rows are looked at, O(k log n).

/// What a source change does to a view: its changeset (without selection) and what to do to the
/// view's snapshot to match (``ViewEngine/apply(_:to:)``).
public struct ViewUpdate: Sendable {
  /// The view's changeset; `deselected` is filled in by ``ViewEngine/apply(_:to:)``.
  public var changeset = Changeset()
  /// The source rows the change concerned, by id.
  public var touched: [String] = []
  var deletedSections: [String] = []
  var removedItems: [String] = []
  var payloads: [(String, ItemPayload)] = []
  var reloads: [String] = []
  /// Inserted sections (ascending index) and inserted or moved rows (ascending index path).
  var insertedSections: [(Int, RowSection)] = []
  var placedRows: [(ListIndexPath, Row)] = []
  /// Whether the view was rebuilt from scratch: its snapshot is then rebuilt and diffed.
  var isRebuilt = false
  /// Whether nothing changed in the view.
  public var isEmpty: Bool { changeset.isEmpty && removedItems.isEmpty && payloads.isEmpty }
}

extension ViewEngine {
  /// Follows the source to `newSource`, which `changeset` turns the current source into.
  /// O(k log n) for the k rows the changeset names (every row of an inserted, deleted or moved
  /// section counts). A source with another id table is rebuilt: then the update is a diff.
  public mutating func update(to newSource: ListSnapshot, changeset: Changeset) -> ViewUpdate {
    let old = source
    // Another id table, or new columns (rare): rebuilt, and the view's snapshot diffed.
    guard old.sharesIdentifiers(with: newSource), changeset.columns == nil else {
      source = newSource
      rebuild()
      var update = ViewUpdate()
      update.isRebuilt = true
      return update
    }
    let touched = Self.touchedIDs(changeset, old: old, new: newSource)
    let reloaded = Set(
      changeset.itemReloads.flatMap { run in
        run.range.map { old.idAt(ListIndexPath(section: run.section, item: $0)) }
      })
    return apply(touched, reloaded: reloaded, to: newSource)
  }

  /// Changes the definition: the view is rebuilt from scratch (O(n log n)) and its snapshot
  /// diffed, so the change is one changeset (``apply(_:to:)``).
  public mutating func redefine(_ definition: ViewDefinition) -> ViewUpdate {
    self.definition = definition
    rebuild()
    var update = ViewUpdate()
    update.isRebuilt = true
    return update
  }

  /// Takes the trees out (so comparators may read `self` while they change); put them back after.
  mutating func takeForest() -> OrderStatisticForest {
    var trees = OrderStatisticForest()
    swap(&trees, &forest)
    return trees
  }

  /// The interned ids of every row a changeset names, each once.
  static func touchedIDs(_ changeset: Changeset, old: ListSnapshot, new: ListSnapshot) -> [Int32] {
    var seen = Set<Int32>()
    var ids: [Int32] = []
    func add(_ id: Int32) { if seen.insert(id).inserted { ids.append(id) } }
    func addSection(_ snapshot: ListSnapshot, _ index: Int) {
      let store = snapshot.slots[Int(snapshot.order[index])]
      store.forEachVisibleNode { add($1.pointee.id) }
    }
    for range in changeset.itemDeletes {
      for row in range.rows { add(old.idAt(.init(section: range.section, item: row))) }
    }
    for run in changeset.itemReloads + changeset.itemReconfigures {
      for row in run.range { add(old.idAt(.init(section: run.section, item: row))) }
    }
    for move in changeset.itemMoves {
      for offset in 0..<move.count {
        add(old.idAt(.init(section: move.from.section, item: move.from.item + offset)))
      }
    }
    for run in changeset.itemInserts {
      for row in run.range { add(new.idAt(.init(section: run.section, item: row))) }
    }
    for range in changeset.sectionDeletes { for index in range { addSection(old, index) } }
    for move in changeset.sectionMoves { addSection(old, move.from) }
    for insert in changeset.sectionInserts { addSection(new, insert.index) }
    return ids
  }

  /// Re-files the rows `touched` (interned ids) from the current source into `newSource`.
  mutating func apply(_ touched: [Int32], reloaded: Set<Int32>, to newSource: ListSnapshot) -> ViewUpdate {
    let old = source
    var update = ViewUpdate()
    // 1. Old index paths and keys of the touched members, then out of their trees (old order).
    struct Entry {
      var id: Int32
      var oldPath: ListIndexPath?
      var oldKey: ViewValue = .null
      var newPath: ListIndexPath?
      var newKey: ViewValue = .null
    }
    var entries: [Entry] = touched.map { Entry(id: $0) }
    for e in entries.indices
    where isMember.indices.contains(Int(entries[e].id)) && isMember[Int(entries[e].id)] {
      let id = entries[e].id
      entries[e].oldPath = indexPath(of: id, in: old)
      entries[e].oldKey = groupKeys[Int(id)]
    }
    var emptied: [ViewValue] = []
    for entry in entries where entry.oldPath != nil {
      let g = entry.oldPath!.section
      var trees = takeForest()
      var root = groups[g].root
      trees.remove(from: &root) { compare(entry.id, $0, in: old) }
      groups[g].root = root
      forest = trees
      if forest.count(groups[g].root) == 0 && definition.group != nil { emptied.append(groups[g].key) }
      isMember[Int(entry.id)] = false
    }
    // 2. New keys, then into their trees (new order); groups created as needed.
    var created: [ViewValue] = []
    for e in entries.indices {
      let id = entries[e].id
      guard newSource.isVisible(id) else { continue }
      let node = newSource.node(id)
      guard record(id, string: newSource.string(id), payload: node.payload) else { continue }
      entries[e].newKey = groupKeys[Int(id)]
      let (g, found) = groupIndex(groupKeys[Int(id)])
      if !found {
        groups.insert((groupKeys[Int(id)], -1), at: g)
        created.append(groupKeys[Int(id)])
      }
      var trees = takeForest()
      var root = groups[g].root
      trees.insert(id, into: &root) { compare($0, $1, in: newSource) }
      groups[g].root = root
      forest = trees
    }
    // 3. Groups left empty are deleted sections (old indexes: created groups did not exist).
    let createdSet = Set(created)
    var deletedOld: [Int] = []
    var deletedKeys = Set<ViewValue>()
    for key in Set(emptied) {
      let (g, found) = groupIndex(key)
      guard found, forest.count(groups[g].root) == 0 else { continue }
      let createdBefore = created.filter { definition.compareGroups($0, key) < 0 }.count
      deletedOld.append(g - createdBefore)
      deletedKeys.insert(key)
    }
    for key in deletedKeys {
      let g = groupIndex(key).index
      update.deletedSections.append(ViewGrouping.sectionID(key))
      groups.remove(at: g)
    }
    deletedOld.sort()
    update.changeset.sectionDeletes = Self.ranges(deletedOld)
    source = newSource
    // 4. New index paths; inserted sections carry all their rows.
    for e in entries.indices
    where isMember.indices.contains(Int(entries[e].id)) && isMember[Int(entries[e].id)] {
      entries[e].newPath = indexPath(of: entries[e].id, in: newSource)
    }
    for key in created {
      let g = groupIndex(key).index
      let section = RowSection(
        id: sectionID(ofGroup: g), header: header(ofGroup: g),
        rows: forest.elements(groups[g].root).map { row($0, in: newSource) })
      update.insertedSections.append((g, section))
    }
    update.insertedSections.sort { $0.0 < $1.0 }
    update.changeset.sectionInserts = update.insertedSections.map { .init(index: $0.0, section: $0.1) }
    // 5. Classify: deleted, inserted, stayed or moved (and reconfigured or reloaded).
    var survivors: [Int] = []  // entries in a kept section before and after
    var deletes: [ListIndexPath] = []
    var inserts: [(ListIndexPath, Row)] = []
    for (e, entry) in entries.enumerated() {
      let wasIn = entry.oldPath != nil && !deletedKeys.contains(entry.oldKey)
      let isIn = entry.newPath != nil && !createdSet.contains(entry.newKey)
      switch (wasIn, isIn) {
      case (true, true):
        survivors.append(e)
      case (true, false):
        deletes.append(entry.oldPath!)
        update.removedItems.append(old.string(entry.id))
      case (false, true):
        inserts.append((entry.newPath!, row(entry.id, in: newSource)))
        if entry.oldPath != nil { update.removedItems.append(old.string(entry.id)) }
      case (false, false):
        if entry.oldPath != nil, entry.newPath == nil { update.removedItems.append(old.string(entry.id)) }
      }
    }
    // A survivor stays if it keeps its group and its place among untouched rows, and is on the
    // longest run of survivors of its group that keep their relative order.
    let stays = Self.stayingSurvivors(
      survivors.map {
        (
          old: entries[$0].oldPath!, new: entries[$0].newPath!,
          sameGroup: entries[$0].oldKey == entries[$0].newKey
        )
      },
      touchedOld: entries.compactMap { $0.oldPath }, touchedNew: entries.compactMap { $0.newPath })
    var moves: [Changeset.ItemMove] = []
    var reconfigures: [(ListIndexPath, Row)] = []
    var reloads: [(ListIndexPath, Row)] = []
    for (s, e) in survivors.enumerated() {
      let entry = entries[e]
      let id = entry.id
      let newRow = row(id, in: newSource)
      let oldPayload = old.node(id).payload
      let payloadChanged = oldPayload != newRow.payload
      // A kind change is a reload: a cell cannot be reconfigured into another class.
      if reloaded.contains(id) || oldPayload.kind != newRow.payload.kind {
        if stays[s] {
          reloads.append((entry.oldPath!, newRow))
          update.reloads.append(newRow.id)
          if payloadChanged { update.payloads.append((newRow.id, newRow.payload)) }
        } else {
          deletes.append(entry.oldPath!)
          inserts.append((entry.newPath!, newRow))
          update.removedItems.append(newRow.id)
        }
        continue
      }
      if payloadChanged { reconfigures.append((entry.oldPath!, newRow)) }
      if stays[s] {
        if payloadChanged { update.payloads.append((newRow.id, newRow.payload)) }
      } else {
        moves.append(.init(from: entry.oldPath!, to: entry.newPath!))
        update.removedItems.append(newRow.id)
        update.placedRows.append((entry.newPath!, newRow))
      }
    }
    update.placedRows += inserts
    update.placedRows.sort { $0.0 < $1.0 }
    deletes.sort()
    update.changeset.itemDeletes = deletes.map { .init(section: $0.section, rows: $0.item..<($0.item + 1)) }
    inserts.sort { $0.0 < $1.0 }
    update.changeset.itemInserts = inserts.map {
      .init(section: $0.0.section, start: $0.0.item, rows: [$0.1])
    }
    moves.sort { $0.to < $1.to }
    update.changeset.itemMoves = moves
    reconfigures.sort { $0.0 < $1.0 }
    update.changeset.itemReconfigures = reconfigures.map {
      .init(section: $0.0.section, start: $0.0.item, rows: [$0.1])
    }
    reloads.sort { $0.0 < $1.0 }
    update.changeset.itemReloads = reloads.map {
      .init(section: $0.0.section, start: $0.0.item, rows: [$0.1])
    }
    update.touched = touched.map { newSource.table.string($0) }
    return update
  }

  /// Which survivors (old and new paths) stay in place: same section, as many untouched rows
  /// before them as before, and on a longest increasing run of new rows within their section.
  static func stayingSurvivors(
    _ survivors: [(old: ListIndexPath, new: ListIndexPath, sameGroup: Bool)], touchedOld: [ListIndexPath],
    touchedNew: [ListIndexPath]
  ) -> [Bool] {
    let sortedOld = touchedOld.sorted()
    let sortedNew = touchedNew.sorted()
    /// Touched rows of the same section before `path`.
    func before(_ path: ListIndexPath, _ sorted: [ListIndexPath]) -> Int {
      var low = 0
      var high = sorted.count
      while low < high {
        let middle = (low + high) / 2
        if sorted[middle] < path { low = middle + 1 } else { high = middle }
      }
      let sectionStart = ListIndexPath(section: path.section, item: -1)
      var low2 = 0
      var high2 = sorted.count
      while low2 < high2 {
        let middle = (low2 + high2) / 2
        if sorted[middle] < sectionStart { low2 = middle + 1 } else { high2 = middle }
      }
      return low - low2
    }
    var result = Array(repeating: false, count: survivors.count)
    // Candidates by (section, untouched rows before), then old row; keep a longest increasing
    // subsequence of new rows among each such bucket.
    var buckets: [[Int]: [Int]] = [:]
    for (s, survivor) in survivors.enumerated() where survivor.sameGroup {
      let untouchedBeforeOld = survivor.old.item - before(survivor.old, sortedOld)
      let untouchedBeforeNew = survivor.new.item - before(survivor.new, sortedNew)
      guard untouchedBeforeOld == untouchedBeforeNew else { continue }
      buckets[[survivor.old.section, untouchedBeforeOld], default: []].append(s)
    }
    for (_, members) in buckets {
      let ordered = members.sorted { survivors[$0].old.item < survivors[$1].old.item }
      for s in longestIncreasing(ordered.map { survivors[$0].new.item }).map({ ordered[$0] }) {
        result[s] = true
      }
    }
    return result
  }

  /// Positions of a longest strictly increasing subsequence of `values`. O(n log n).
  static func longestIncreasing(_ values: [Int]) -> [Int] {
    var tails: [Int] = []  // positions
    var previous = Array(repeating: -1, count: values.count)
    for (i, value) in values.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[i] = tails[low - 1] }
      if low == tails.count { tails.append(i) } else { tails[low] = i }
    }
    var result: [Int] = []
    var i = tails.last ?? -1
    while i >= 0 {
      result.append(i)
      i = previous[i]
    }
    return result.reversed()
  }

  /// Sorted indexes as ranges of consecutive ones.
  static func ranges(_ sorted: [Int]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    for index in sorted {
      if let last = result.last, last.upperBound == index {
        result[result.count - 1] = last.lowerBound..<(index + 1)
      } else {
        result.append(index..<(index + 1))
      }
    }
    return result
  }
}

extension ListSnapshot {
  /// The interned id of the row at a visible index path (which must exist).
  func idAt(_ path: ListIndexPath) -> Int32 {
    let store = slots[Int(order[path.section])]
    return store.nodes[store.position(ofRow: path.item)!].id
  }

  /// Whether an interned id is a visible item of this snapshot.
  func isVisible(_ id: Int32) -> Bool {
    let at = location(id)
    return at.slot >= 0 && slots[Int(at.slot)].nodes[Int(at.position)].isVisible
  }
}
