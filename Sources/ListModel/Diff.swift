// diff(old, new): sections by id with LIS moves, then Heckel's per-section item diff on interned ids.

extension ListSnapshot {
  /// The changeset that turns `old` into `new` (see ``Changeset`` for the conventions).
  ///
  /// Sections are matched by id; sections whose storage stamp is unchanged (every untouched
  /// section of a snapshot derived from `old`) are skipped in O(1) each, and in a changed flat
  /// section the rows in chunks both versions share are skipped unread, so diffing a version
  /// against the one it was derived from costs about a chunk's rows per change plus the
  /// section's chunk count. For each changed
  /// section, Heckel's algorithm matches rows by id — the interned-id location table of each
  /// snapshot is the symbol table, so no string is hashed and no table is built — and a longest
  /// increasing subsequence keeps moves minimal. Rows that move between surviving sections are
  /// moves. Complexity: O(sections + rows of changed sections + m log m for m rows out of order
  /// + hidden items of changed outline sections). If the snapshots do not share an id table,
  /// `new` is first re-interned into `old`'s table (O(items), hashing every id once).
  ///
  /// Without `rowsOfInsertedSections`, inserted sections are counted, not listed
  /// (``Changeset/SectionInsert/init(index:sectionWithoutRows:rowCount:)``): a `list/create`
  /// answered without rows builds no `Row` per item (56 bytes each).
  public static func diff(from old: ListSnapshot, to new: ListSnapshot, rowsOfInsertedSections: Bool = true)
    -> Changeset
  {
    var differ = Differ(old: old, new: old.table === new.table ? new : new.rebased(onto: old.table))
    differ.listsInsertedRows = rowsOfInsertedSections
    return differ.run()
  }
}

/// The changeset that turns `old` into `new`; see ``ListSnapshot/diff(from:to:)``.
public func diff(_ old: ListSnapshot, _ new: ListSnapshot) -> Changeset {
  ListSnapshot.diff(from: old, to: new)
}

/// One diff in progress.
private struct Differ {
  let old: ListSnapshot
  let new: ListSnapshot
  var changes = Changeset()
  var strings: [String] = []
  /// New index of each old section, -1 if deleted.
  var newIndexOfOld: [Int] = []
  /// Old index of each new section, -1 if inserted.
  var oldIndexOfNew: [Int] = []
  /// For changed old outline sections: row of each preorder position (-1 hidden).
  var oldRowMaps: [[Int32]?] = []
  /// Deleted rows as (section << 32 | row).
  var deleteKeys: [UInt64] = []
  /// Reloaded / reconfigured rows: (old section << 32 | old row, new slot, new position).
  var reloads: [(key: UInt64, slot: Int32, position: Int32)] = []
  var reconfigures: [(key: UInt64, slot: Int32, position: Int32)] = []
  var expandedIDs: [Int32] = []
  var collapsedIDs: [Int32] = []
  /// Positions left to diff in changed flat sections, by old and new index (nil: all of it):
  /// gaps between runs both versions share, old gap k facing new gap k.
  var oldGaps: [[Range<Int>]?] = []
  var newGaps: [[Range<Int>]?] = []
  /// Whether inserted sections carry their rows (else only their count).
  var listsInsertedRows = true
  /// ``diffRows(oldIndex:newIndex:_:_:)``'s per-row arrays, kept from section to section (their
  /// room is reused) and held here rather than as locals its `visit` captures, which a build
  /// checking exclusivity at run time would check on every append.
  var rows = RowScratch()

  init(old: ListSnapshot, new: ListSnapshot) {
    self.old = old
    self.new = new
  }

  mutating func run() -> Changeset {
    strings = new.table.strings()
    // The per-section passes take the snapshots as arguments (borrowed), not through `self`:
    // read through `self` from a mutating method, or from a `visit` that captures `self`, each
    // pass would copy a whole snapshot (a retain and release of each of its references), which
    // lists of many short sections paid per section.
    let (old, new) = (self.old, self.new)
    let changed = matchSections(old, new)
    if !changed.isEmpty {
      oldRowMaps = [[Int32]?](repeating: nil, count: old.order.count)
      oldGaps = [[Range<Int>]?](repeating: nil, count: old.order.count)
      newGaps = [[Range<Int>]?](repeating: nil, count: new.order.count)
      for (i, j) in changed { trim(oldIndex: i, newIndex: j, old, new) }
      for (i, _) in changed {
        let store = old.slots[Int(old.order[i])]
        guard store.visibility != nil else { continue }
        var map = [Int32](repeating: -1, count: store.nodes.count)
        var row: Int32 = 0
        store.forEachVisiblePosition { position in
          map[position] = row
          row += 1
        }
        oldRowMaps[i] = map
      }
      for (i, j) in changed { diffRows(oldIndex: i, newIndex: j, old, new) }
      for (i, _) in changed.sorted(by: { $0.0 < $1.0 }) { findDeletes(oldIndex: i, old, new) }
      emitDeletes()
      emitUpdates()
    }
    for insert in changes.sectionInserts {
      let nodes = new.slots[Int(new.order[insert.index])].nodes
      nodes.forEach(in: 0..<nodes.count) { _, node in checkExpansion(node.pointee.id, node.pointee.isExpanded)
      }
    }
    emitExpansion()
    diffSelection()
    if old.selectionMode != new.selectionMode { changes.selectionMode = new.selectionMode }
    if old.columns != new.columns { changes.columns = new.columns }
    if old.emptyState != new.emptyState { changes.emptyState = .some(new.emptyState) }
    if old.isEditing != new.isEditing { changes.isEditing = new.isEditing }
    return changes
  }

  // MARK: Sections

  /// Matches sections by id and fills section deletes, inserts, moves and reloads; returns the
  /// (old, new) index pairs whose contents changed, by ascending new index.
  mutating func matchSections(_ old: ListSnapshot, _ new: ListSnapshot) -> [(Int, Int)] {
    let oldCount = old.order.count
    let newCount = new.order.count
    newIndexOfOld = [Int](repeating: -1, count: oldCount)
    oldIndexOfNew = [Int](repeating: -1, count: newCount)
    var sameOrder = oldCount == newCount
    if sameOrder {
      for index in 0..<oldCount
      where old.slots[Int(old.order[index])].id != new.slots[Int(new.order[index])].id {
        sameOrder = false
        break
      }
    }
    if sameOrder {
      for index in 0..<oldCount {
        newIndexOfOld[index] = index
        oldIndexOfNew[index] = index
      }
    } else {
      for j in 0..<newCount {
        if let slot = old.slotOfSection[new.slots[Int(new.order[j])].id] {
          let i = Int(old.indexOfSlot[Int(slot)])
          oldIndexOfNew[j] = i
          newIndexOfOld[i] = j
        }
      }
    }
    // Deletes, as ascending ranges.
    var i = 0
    while i < oldCount {
      if newIndexOfOld[i] == -1 {
        let start = i
        while i < oldCount && newIndexOfOld[i] == -1 { i += 1 }
        changes.sectionDeletes.append(start..<i)
      } else {
        i += 1
      }
    }
    // Moves: common sections off a longest increasing subsequence of new indexes.
    var common: [Int32] = []
    var commonOld: [Int] = []
    for index in 0..<oldCount where newIndexOfOld[index] >= 0 {
      common.append(Int32(newIndexOfOld[index]))
      commonOld.append(index)
    }
    let keep = longestIncreasingSubsequence(common)
    for (k, stays) in keep.enumerated() where !stays {
      changes.sectionMoves.append(.init(from: commonOld[k], to: Int(common[k])))
    }
    changes.sectionMoves.sort { $0.to < $1.to }
    // Inserts, reloads, and the changed pairs.
    var changed: [(Int, Int)] = []
    for j in 0..<newCount {
      let newSlot = Int(new.order[j])
      let i = oldIndexOfNew[j]
      if i == -1 {
        let newStore = new.slots[newSlot]
        if listsInsertedRows {
          changes.sectionInserts.append(
            .init(index: j, section: new.rowSection(slot: new.order[j], strings: strings)))
        } else {
          changes.sectionInserts.append(
            .init(
              index: j,
              sectionWithoutRows: RowSection(
                id: strings[Int(newStore.id)], header: newStore.header, footer: newStore.footer,
                kind: newStore.kind, headerMode: newStore.headerMode),
              rowCount: newStore.visibleCount))
        }
        continue
      }
      // Stamps are read in place: most sections of a version are unchanged, and a copy of a
      // store retains each of its references.
      let oldSlot = Int(old.order[i])
      if old.slots[oldSlot].stamp == new.slots[newSlot].stamp { continue }
      let (oldStore, newStore) = (old.slots[oldSlot], new.slots[newSlot])
      if Self.sameContents(oldStore, newStore) { continue }
      changed.append((i, j))
      if oldStore.header != newStore.header || oldStore.footer != newStore.footer
        || oldStore.kind != newStore.kind || oldStore.headerMode != newStore.headerMode
        || (newStore.mark != oldStore.mark && newStore.mark != 0)
      {
        changes.sectionReloads.append(
          .init(
            index: i, id: strings[Int(newStore.id)], header: newStore.header, footer: newStore.footer,
            kind: newStore.kind, headerMode: newStore.headerMode))
      }
    }
    changes.sectionReloads.sort { $0.index < $1.index }
    return changed
  }

  /// Whether two stores of snapshots sharing an id table show the same thing — same header,
  /// footer, kind, header mode, nodes (ids, outline positions, expansion, payloads) and no new reload or
  /// reconfigure mark — so the section has nothing to report: content rebuilt equal (a replace
  /// with what the list already holds) costs one pass comparing the node arrays, not a diff.
  /// Payloads compare by reference first, then by content. O(nodes); stops at the first difference.
  static func sameContents(_ a: SectionStore, _ b: SectionStore) -> Bool {
    guard a.nodes.count == b.nodes.count, a.header == b.header, a.footer == b.footer,
      a.kind == b.kind, a.headerMode == b.headerMode, b.mark == a.mark || b.mark == 0
    else { return false }
    return a.nodes.commonPrefix(with: b.nodes, limit: a.nodes.count, unchanged) == a.nodes.count
  }

  /// Whether a node shows the same in both snapshots: same id, outline position, expansion,
  /// visibility and payload, and no new mark. Fields are read through the pointers: copying a
  /// Node would retain its payload.
  static func unchanged(_ m: UnsafePointer<Node>, _ n: UnsafePointer<Node>) -> Bool {
    guard m.pointee.id == n.pointee.id, m.pointee.level == n.pointee.level,
      m.pointee.size == n.pointee.size, m.pointee.parent == n.pointee.parent,
      m.pointee.isExpanded == n.pointee.isExpanded, m.pointee.isVisible == n.pointee.isVisible,
      n.pointee.mark == m.pointee.mark || n.pointee.mark == 0
    else { return false }
    return m.pointee.payload.isIdentical(to: n.pointee.payload) || m.pointee.payload == n.pointee.payload
  }

  /// For a changed pair of flat sections: the positions each side must diff. The nodes both
  /// begin and end with unchanged are left out (chunks the versions share are skipped unread),
  /// and so are the chunks both still hold in between, in an order both agree on: their rows
  /// stay. So an edit of a few rows of a long section diffs about a chunk's rows around each.
  mutating func trim(oldIndex i: Int, newIndex j: Int, _ old: ListSnapshot, _ new: ListSnapshot) {
    let a = old.slots[Int(old.order[i])]
    let b = new.slots[Int(new.order[j])]
    guard a.visibility == nil, b.visibility == nil else { return }
    let shorter = Swift.min(a.nodes.count, b.nodes.count)
    let prefix = a.nodes.commonPrefix(with: b.nodes, limit: shorter, Self.unchanged)
    let suffix = a.nodes.commonSuffix(with: b.nodes, limit: shorter - prefix, Self.unchanged)
    let oldWindow = prefix..<(a.nodes.count - suffix)
    let newWindow = prefix..<(b.nodes.count - suffix)
    var (oldStart, newStart) = (oldWindow.lowerBound, newWindow.lowerBound)
    var (olds, news): ([Range<Int>], [Range<Int>]) = ([], [])
    if Swift.min(oldWindow.count, newWindow.count) > 2 * NodeChunks.capacity {
      for (here, there, count) in a.nodes.sharedChunks(with: b.nodes, in: oldWindow, newWindow) {
        olds.append(oldStart..<here)
        news.append(newStart..<there)
        (oldStart, newStart) = (here + count, there + count)
      }
    }
    olds.append(oldStart..<oldWindow.upperBound)
    news.append(newStart..<newWindow.upperBound)
    // Each gap's own unchanged ends (a chunk copied for a one-row edit is otherwise like the
    // one it was copied from).
    if olds.count > 1 {
      for k in olds.indices {
        let (x, y) = (olds[k], news[k])
        let shorter = Swift.min(x.count, y.count)
        let head = a.nodes.commonPrefix(
          with: b.nodes, from: x.lowerBound, y.lowerBound, limit: shorter, Self.unchanged)
        let tail = a.nodes.commonSuffix(
          with: b.nodes, before: x.upperBound, y.upperBound, limit: shorter - head, Self.unchanged)
        olds[k] = (x.lowerBound + head)..<(x.upperBound - tail)
        news[k] = (y.lowerBound + head)..<(y.upperBound - tail)
      }
    }
    oldGaps[i] = olds
    newGaps[j] = news
  }

  // MARK: Rows

  /// The old row of an item visible in changed old section `index` at `position`.
  func oldRow(section index: Int, position: Int32) -> Int32 {
    oldRowMaps[index]?[Int(position)] ?? position
  }

  /// How a matched row's data changed: 0 not, 1 reconfigure, 2 reload. A change of kind is a
  /// reload whatever else was asked: a cell cannot be reconfigured into another class.
  /// Fields are read through the pointers (a Node copy would retain its payload).
  static func change(from a: UnsafePointer<Node>, to b: UnsafePointer<Node>) -> UInt8 {
    let samePayload = a.pointee.payload.isIdentical(to: b.pointee.payload)
    if !samePayload && a.pointee.payload.kind != b.pointee.payload.kind { return 2 }
    if b.pointee.mark != a.pointee.mark && b.pointee.mark != 0 { return b.pointee.mark & 1 == 1 ? 2 : 1 }
    if a.pointee.level != b.pointee.level || a.pointee.parent != b.pointee.parent
      || a.pointee.isExpanded != b.pointee.isExpanded || (a.pointee.size > 1) != (b.pointee.size > 1)
    {
      return 1
    }
    if !samePayload && a.pointee.payload != b.pointee.payload { return 1 }
    return 0
  }

  /// Heckel pass over the rows of new section `j` (paired with old section `i`): every row is
  /// an insert, a move from another section, or a match in the same section; an LIS of the
  /// matches' old rows picks the ones that stay.
  mutating func diffRows(oldIndex i: Int, newIndex j: Int, _ old: ListSnapshot, _ new: ListSnapshot) {
    let newSlot = new.order[j]
    let newStore = new.slots[Int(newSlot)]
    let checkHidden = newStore.visibility != nil
    // Room for the rows visited: a flat section's gaps only (reserving the whole section cost
    // four arrays of a million entries, and a fresh malloc heap, per edit of a long section).
    let visited = newGaps.isEmpty ? nil : newGaps[j].map { $0.reduce(0) { $0 + $1.count } }
    rows.reset(expected: visited ?? newStore.visibleCount)
    // In a flat section with gaps, a same-section match may stay only if it comes from the
    // old gap facing its new one (the shared chunks between them stay).
    let oldGapsHere = oldGaps.isEmpty ? nil : oldGaps[i]
    func visit(_ position: Int, _ node: UnsafePointer<Node>) {
      let id = node.pointee.id
      let matched = old.withPlaced(id) { at, oldNode -> Bool in
        if oldNode.pointee.isExpanded != node.pointee.isExpanded {
          if node.pointee.isExpanded { expandedIDs.append(id) } else { collapsedIDs.append(id) }
        }
        let oldSection = Int(old.indexOfSlot[Int(at.slot)])
        guard oldNode.pointee.isVisible, newIndexOfOld[oldSection] >= 0 else { return false }
        let row = oldRow(section: oldSection, position: at.position)
        let match = Int32(rows.matchedOld.count)
        rows.visited.append(
          .init(
            kind: oldSection == i ? match : -2 - match, fromSection: Int32(oldSection), fromRow: row,
            position: Int32(position)))
        let mayStay = oldSection == i && (oldGapsHere.map { $0[rows.gap].contains(Int(row)) } ?? true)
        rows.matchedOld.append(mayStay ? row : -1)
        rows.matchedChange.append(Self.change(from: oldNode, to: node))
        return true
      }
      if matched != true {
        rows.visited.append(.init(kind: -1, fromSection: -1, fromRow: -1, position: Int32(position)))
      }
    }
    // A flat section's rows are its positions; only its gaps need a look.
    let gaps = newGaps.isEmpty ? nil : newGaps[j]
    if let gaps {
      for (index, range) in gaps.enumerated() {
        rows.gap = index
        newStore.nodes.forEach(in: range, visit)
      }
    } else {
      newStore.forEachVisibleNode(visit)
    }
    if checkHidden {
      newStore.nodes.forEach(in: 0..<newStore.nodes.count) { _, node in
        if !node.pointee.isVisible { checkExpansion(node.pointee.id, node.pointee.isExpanded) }
      }
    }
    // Which same-section matches stay: an LIS of their old rows, in new order.
    rows.sameRows.removeAll(keepingCapacity: true)
    rows.sameIndex.removeAll(keepingCapacity: true)
    for (index, row) in rows.matchedOld.enumerated() where row >= 0 {
      rows.sameRows.append(row)
      rows.sameIndex.append(Int32(index))
    }
    let keepSame = longestIncreasingSubsequence(rows.sameRows)
    rows.stays.removeAll(keepingCapacity: true)
    rows.stays.append(contentsOf: repeatElement(false, count: rows.matchedOld.count))
    for (k, keep) in keepSame.enumerated() where keep { rows.stays[Int(rows.sameIndex[k])] = true }
    // Emit in new-row order, so inserts and moves come out sorted.
    for index in 0..<rows.visited.count {
      let entry = rows.visited[index]
      let newPath = ListIndexPath(section: j, item: gaps == nil ? index : Int(entry.position))
      if entry.kind == -1 {
        addInsert(at: newPath, newStore, position: Int(entry.position))
        continue
      }
      let match = entry.kind >= 0 ? Int(entry.kind) : Int(-2 - entry.kind)
      let change = rows.matchedChange[match]
      let key = UInt64(UInt32(entry.fromSection)) << 32 | UInt64(UInt32(entry.fromRow))
      if rows.stays[match] {
        if change == 2 { reloads.append((key, newSlot, entry.position)) }
        if change == 1 { reconfigures.append((key, newSlot, entry.position)) }
        continue
      }
      if change == 2 {
        deleteKeys.append(key)
        addInsert(at: newPath, newStore, position: Int(entry.position))
        continue
      }
      if change == 1 { reconfigures.append((key, newSlot, entry.position)) }
      addMove(from: ListIndexPath(section: Int(entry.fromSection), item: Int(entry.fromRow)), to: newPath)
    }
  }

  /// Records an expansion-state change of a node of `new` (item `id`, expanded or not) that
  /// also exists in `old`.
  mutating func checkExpansion(_ id: Int32, _ isExpanded: Bool) {
    guard let wasExpanded = old.withPlaced(id, { $1.pointee.isExpanded }) else { return }
    if wasExpanded != isExpanded {
      if isExpanded { expandedIDs.append(id) } else { collapsedIDs.append(id) }
    }
  }

  /// Inserts the row of the node at `position` of `store` at `path`.
  mutating func addInsert(at path: ListIndexPath, _ store: SectionStore, position: Int) {
    // By index, not `let last = ….last`: a copy of the run would keep its rows shared, and
    // every append would copy them all (quadratic on a long run).
    let last = changes.itemInserts.count - 1
    if last < 0 || changes.itemInserts[last].section != path.section
      || changes.itemInserts[last].start + changes.itemInserts[last].rows.count != path.item
    {
      changes.itemInserts.append(.init(section: path.section, start: path.item, rows: []))
    }
    let run = changes.itemInserts.count - 1
    let strings = self.strings
    // Built straight into the run: a Row returned out of the closure would be copied once more.
    store.nodes.withNode(at: position) { node in
      changes.itemInserts[run].rows.append(ListSnapshot.row(node, strings: strings))
    }
  }

  mutating func addMove(from: ListIndexPath, to: ListIndexPath) {
    if let last = changes.itemMoves.last, last.from.section == from.section, last.to.section == to.section,
      last.from.item + last.count == from.item, last.to.item + last.count == to.item
    {
      changes.itemMoves[changes.itemMoves.count - 1].count += 1
    } else {
      changes.itemMoves.append(.init(from: from, to: to, count: 1))
    }
  }

  /// Old rows of changed old section `i` that are gone, hidden, or went to an inserted section.
  mutating func findDeletes(oldIndex i: Int, _ old: ListSnapshot, _ new: ListSnapshot) {
    let store = old.slots[Int(old.order[i])]
    let section = UInt64(i) << 32
    // A visible node's row: from the row map of an outline section, else its position. No
    // counter captured by `visit` (a build checking exclusivity at run time checks each use).
    let rowMap = oldRowMaps[i]
    func visit(_ position: Int, _ node: UnsafePointer<Node>) {
      let kept = new.withPlaced(node.pointee.id) { at, newNode in
        newNode.pointee.isVisible && oldIndexOfNew[Int(new.indexOfSlot[Int(at.slot)])] >= 0
      }
      if kept != true { deleteKeys.append(section | UInt64(UInt32(rowMap?[position] ?? Int32(position)))) }
    }
    if !oldGaps.isEmpty, let gaps = oldGaps[i] {
      for range in gaps { store.nodes.forEach(in: range, visit) }
    } else {
      store.forEachVisibleNode(visit)
    }
  }

  mutating func emitDeletes() {
    guard !deleteKeys.isEmpty else { return }
    deleteKeys.sort()
    var index = 0
    while index < deleteKeys.count {
      let section = Int(deleteKeys[index] >> 32)
      let start = Int(deleteKeys[index] & 0xFFFF_FFFF)
      var end = start + 1
      index += 1
      while index < deleteKeys.count, deleteKeys[index] == (UInt64(section) << 32 | UInt64(end)) {
        end += 1
        index += 1
      }
      changes.itemDeletes.append(.init(section: section, rows: start..<end))
    }
  }

  mutating func emitUpdates() {
    changes.itemReloads = runs(of: &reloads)
    changes.itemReconfigures = runs(of: &reconfigures)
  }

  func runs(of updates: inout [(key: UInt64, slot: Int32, position: Int32)]) -> [Changeset.ItemRun] {
    guard !updates.isEmpty else { return [] }
    updates.sort { $0.key < $1.key }
    var result: [Changeset.ItemRun] = []
    for update in updates {
      let section = Int(update.key >> 32)
      let row = Int(update.key & 0xFFFF_FFFF)
      let data = new.slots[Int(update.slot)].nodes.withNode(at: Int(update.position)) {
        ListSnapshot.row($0, strings: strings)
      }
      let last = result.count - 1  // by index, as in addInsert
      if last >= 0, result[last].section == section, result[last].start + result[last].rows.count == row {
        result[last].rows.append(data)
      } else {
        result.append(.init(section: section, start: row, rows: [data]))
      }
    }
    return result
  }

  // MARK: Expansion and selection

  // In list order of the new snapshot (the order of `selected` is index-path order, which
  // agrees for visible items); never by interned integer, whose order depends on the id table.
  mutating func emitExpansion() {
    changes.expanded = new.inListOrder(expandedIDs).map { strings[Int($0)] }
    changes.collapsed = new.inListOrder(collapsedIDs).map { strings[Int($0)] }
  }

  mutating func diffSelection() {
    guard old.selectionStamp != new.selectionStamp || old.table !== new.table else { return }
    var added: [Int32] = []
    var removed: [Int32] = []
    for id in new.selection where !old.selection.contains(id) { added.append(id) }
    for id in old.selection where !new.selection.contains(id) { removed.append(id) }
    // In index-path order: `selected` by new index paths, `deselected` by old ones.
    changes.selected = new.inIndexPathOrder(added).map { strings[Int($0)] }
    changes.deselected = old.inIndexPathOrder(removed).map { strings[Int($0)] }
  }
}

/// The per-row arrays of one section's Heckel pass (``Differ/diffRows(oldIndex:newIndex:_:_:)``).
private struct RowScratch {
  /// A new row as visited: `kind` -1 for an insert, m >= 0 for a same-section match and
  /// -2 - m for a cross-section one (m indexing `matchedOld` and `matchedChange`); the old
  /// section and row of a match (-1 for an insert); the row's new position.
  struct Visited {
    var kind: Int32
    var fromSection: Int32
    var fromRow: Int32
    var position: Int32
  }

  var visited: [Visited] = []
  /// Per match: its old row if it may stay (a same-section match), else -1.
  var matchedOld: [Int32] = []
  /// Per match: 0 unchanged, 1 reconfigure, 2 reload (``Differ/change(from:to:)``).
  var matchedChange: [UInt8] = []
  var sameRows: [Int32] = []
  var sameIndex: [Int32] = []
  var stays: [Bool] = []
  /// The gap of a flat section being visited.
  var gap = 0

  /// Empties the arrays for a section of about `expected` rows, keeping their room.
  mutating func reset(expected: Int) {
    visited.removeAll(keepingCapacity: true)
    visited.reserveCapacity(expected)
    matchedOld.removeAll(keepingCapacity: true)
    matchedChange.removeAll(keepingCapacity: true)
    gap = 0
  }
}
