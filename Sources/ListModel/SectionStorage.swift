// One section's storage: its items as a preorder array of outline nodes, with visibility.

/// One item of a section, at its preorder position. A flat section is an outline whose nodes
/// are all roots (level 0, size 1).
struct Node: Sendable {
  var payload: ItemPayload
  /// Interned item id.
  var id: Int32
  /// Depth: 0 for roots.
  var level: Int32
  /// Number of nodes in the subtree rooted here, this one included.
  var size: Int32
  /// Interned id of the parent item, or -1 for a root.
  var parent: Int32
  /// The node's own expansion state; kept while an ancestor is collapsed.
  var isExpanded: Bool
  /// Whether every ancestor is expanded, so the node occupies a row.
  var isVisible: Bool
  /// Stamp of the last explicit reload (odd) or reconfigure (even); 0 if none.
  var mark: UInt64

  init(id: Int32, level: Int32, parent: Int32, isExpanded: Bool, payload: ItemPayload) {
    self.id = id
    self.level = level
    self.size = 1
    self.parent = parent
    self.isExpanded = isExpanded
    self.isVisible = true
    self.payload = payload
    self.mark = 0
  }

  var hasChildren: Bool { size > 1 }
}

/// A section: id, header/footer, its nodes in preorder and the index of visible rows.
struct SectionStore: Sendable {
  /// Interned section id; -1 for a free slot.
  var id: Int32
  var header: String?
  var footer: String?
  var kind: String?
  var headerMode = HeaderMode.supplementary
  /// Changes on every mutation; equal stamps mean equal contents (same lineage).
  var stamp: UInt64
  /// Stamp of the last explicit `reloadSections`; 0 if none.
  var mark: UInt64 = 0
  /// Every item, hidden ones included, in preorder.
  var nodes = NodeChunks()
  /// Visible-row index over positions; nil when the section is flat (no node has a parent), in
  /// which case every node is visible and position == row.
  var visibility: VisibilityIndex?
  /// Number of nodes with a parent.
  var nestedCount = 0
  /// Number of visible nodes (rows).
  var visibleCount = 0

  init(id: Int32, header: String?, footer: String?, stamp: UInt64) {
    self.id = id
    self.header = header
    self.footer = footer
    self.stamp = stamp
  }

  static let free = SectionStore(id: -1, header: nil, footer: nil, stamp: 0)

  /// The row of the node at `position` (its visible rank). O(log n); O(1) when flat.
  func row(ofPosition position: Int) -> Int {
    visibility?.rank(position) ?? position
  }

  /// The position of the node at `row`, or nil. O(log n); O(1) when flat.
  func position(ofRow row: Int) -> Int? {
    guard row >= 0, row < visibleCount else { return nil }
    if let visibility { return visibility.position(ofRow: row) }
    return row
  }

  /// Calls `body` with the position of every visible node in order. O(rows + chunks).
  func forEachVisiblePosition(_ body: (Int) -> Void) {
    if visibility == nil {
      for position in 0..<nodes.count { body(position) }
      return
    }
    nodes.walk(from: 0, to: nodes.count) { position, node in
      body(position)
      return position + (node.pointee.isExpanded ? 1 : Int(node.pointee.size))
    }
  }

  /// Calls `body` with the position and node of every visible node in order, read in place.
  /// O(rows + chunks).
  func forEachVisibleNode(_ body: (Int, UnsafePointer<Node>) -> Void) {
    if visibility == nil { return nodes.forEach(in: 0..<nodes.count, body) }
    nodes.walk(from: 0, to: nodes.count) { position, node in
      body(position, node)
      return node.pointee.isExpanded ? position + 1 : position + Int(node.pointee.size)
    }
  }

  /// Recomputes every node's visibility, the visible count and the visibility index. O(n);
  /// O(1) when the section is flat and was flat before (roots are always visible).
  mutating func rebuildVisibility() {
    if nestedCount == 0 {
      if visibility != nil {
        nodes.modify(in: 0..<nodes.count) { _, nodes in
          for index in nodes.indices where !nodes[index].isVisible { nodes[index].isVisible = true }
        }
      }
      visibility = nil
      visibleCount = nodes.count
      return
    }
    var flags: [Bool] = []
    flags.reserveCapacity(nodes.count)
    // Walk visible nodes, marking them; mark skipped subtrees hidden.
    nodes.walk(from: 0, to: nodes.count) { position, node in
      flags.append(true)
      let size = Int(node.pointee.size)
      if node.pointee.isExpanded || size == 1 { return position + 1 }
      flags.append(contentsOf: repeatElement(false, count: size - 1))
      return position + size
    }
    nodes.modify(in: 0..<nodes.count) { start, nodes in
      for index in nodes.indices where nodes[index].isVisible != flags[start + index] {
        nodes[index].isVisible = flags[start + index]
      }
    }
    visibleCount = flags.reduce(0) { $0 + ($1 ? 1 : 0) }
    visibility = VisibilityIndex(count: flags.count) { flags[$0] }
  }

  /// Marks the rows that appear when the visible node at `position` is expanded (or disappear
  /// when it is collapsed) as visible (or hidden) and returns the runs of affected positions:
  /// one walk writing the nodes in place, chunk by chunk.
  /// O(rows affected + runs × log n + chunks skipped + log chunks).
  mutating func setDescendantsVisible(of position: Int, _ visible: Bool) -> [Range<Int>] {
    let end = position + Int(nodes[position].size)
    var runStart = position + 1
    var affected = 0
    var runs: [Range<Int>] = []
    nodes.walkModifying(from: position + 1, to: end) { current, node in
      node.pointee.isVisible = visible
      affected += 1
      let size = Int(node.pointee.size)
      if node.pointee.isExpanded || size == 1 { return current + 1 }
      runs.append(runStart..<(current + 1))
      runStart = current + size
      return current + size
    }
    if runStart < end { runs.append(runStart..<end) }
    for run in runs { visibility?.add(visible ? 1 : -1, to: run) }
    visibleCount += visible ? affected : -affected
    return runs
  }
}
