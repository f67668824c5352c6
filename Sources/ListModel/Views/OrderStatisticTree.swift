// An order-statistic treap over nodes in shared arrays: insert and remove by comparison, rank and select in O(log n).

/// A forest of treaps whose nodes live in shared arrays, each node carrying an `Int32` element.
/// Each tree is a root index; ordering comes from a comparator given to each call, so keys are
/// never stored here. Every operation is O(log n) expected (random priorities, seeded so runs
/// are reproducible).
struct OrderStatisticForest {
  private var left: [Int32] = []
  private var right: [Int32] = []
  private var size: [Int32] = []
  private var priority: [UInt32] = []
  private(set) var element: [Int32] = []
  private var free: [Int32] = []
  private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

  private mutating func nextPriority() -> UInt32 {
    seed ^= seed << 13
    seed ^= seed >> 7
    seed ^= seed << 17
    return UInt32(truncatingIfNeeded: seed >> 16)
  }

  /// Number of elements in the tree rooted at `root` (-1: empty).
  @inline(__always) func count(_ root: Int32) -> Int { root < 0 ? 0 : Int(size[Int(root)]) }

  private mutating func makeNode(_ value: Int32) -> Int32 {
    if let node = free.popLast() {
      let i = Int(node)
      left[i] = -1
      right[i] = -1
      size[i] = 1
      priority[i] = nextPriority()
      element[i] = value
      return node
    }
    left.append(-1)
    right.append(-1)
    size.append(1)
    priority.append(nextPriority())
    element.append(value)
    return Int32(element.count - 1)
  }

  @inline(__always) private mutating func update(_ node: Int32) {
    let i = Int(node)
    size[i] = 1 + Int32(count(left[i])) + Int32(count(right[i]))
  }

  /// Splits `root` into the elements before `value` and the rest (`isBefore(existing)` says
  /// whether an existing element goes left).
  private mutating func split(_ root: Int32, _ isBefore: (Int32) -> Bool) -> (Int32, Int32) {
    guard root >= 0 else { return (-1, -1) }
    let i = Int(root)
    if isBefore(element[i]) {
      let (l, r) = split(right[i], isBefore)
      right[i] = l
      update(root)
      return (root, r)
    } else {
      let (l, r) = split(left[i], isBefore)
      left[i] = r
      update(root)
      return (l, root)
    }
  }

  private mutating func merge(_ a: Int32, _ b: Int32) -> Int32 {
    if a < 0 { return b }
    if b < 0 { return a }
    if priority[Int(a)] > priority[Int(b)] {
      right[Int(a)] = merge(right[Int(a)], b)
      update(a)
      return a
    } else {
      left[Int(b)] = merge(a, left[Int(b)])
      update(b)
      return b
    }
  }

  /// Inserts `value` into the tree at `root`; `compare(value, existing)` orders it (never 0).
  mutating func insert(_ value: Int32, into root: inout Int32, _ compare: (Int32, Int32) -> Int) {
    let node = makeNode(value)
    root = insert(node, root, compare)
  }

  private mutating func insert(_ node: Int32, _ root: Int32, _ compare: (Int32, Int32) -> Int) -> Int32 {
    guard root >= 0 else { return node }
    let value = element[Int(node)]
    if priority[Int(node)] > priority[Int(root)] {
      let (l, r) = split(root) { compare(value, $0) > 0 }
      left[Int(node)] = l
      right[Int(node)] = r
      update(node)
      return node
    }
    if compare(value, element[Int(root)]) < 0 {
      left[Int(root)] = insert(node, left[Int(root)], compare)
    } else {
      right[Int(root)] = insert(node, right[Int(root)], compare)
    }
    update(root)
    return root
  }

  /// Removes the element for which `locate(existing)` is 0 (negative: it lies left of `existing`).
  /// Returns false if there is none.
  @discardableResult
  mutating func remove(from root: inout Int32, _ locate: (Int32) -> Int) -> Bool {
    var removed = false
    root = remove(root, locate, &removed)
    return removed
  }

  private mutating func remove(_ root: Int32, _ locate: (Int32) -> Int, _ removed: inout Bool) -> Int32 {
    guard root >= 0 else { return -1 }
    let i = Int(root)
    let order = locate(element[i])
    if order == 0 {
      removed = true
      free.append(root)
      return merge(left[i], right[i])
    }
    if order < 0 {
      left[i] = remove(left[i], locate, &removed)
    } else {
      right[i] = remove(right[i], locate, &removed)
    }
    update(root)
    return root
  }

  /// The number of elements before the one `locate` finds (see ``remove(from:_:)``), or nil.
  func rank(in root: Int32, _ locate: (Int32) -> Int) -> Int? {
    var node = root
    var before = 0
    while node >= 0 {
      let i = Int(node)
      let order = locate(element[i])
      if order == 0 { return before + count(left[i]) }
      if order < 0 {
        node = left[i]
      } else {
        before += count(left[i]) + 1
        node = right[i]
      }
    }
    return nil
  }

  /// The element at `rank`.
  func element(at rank: Int, in root: Int32) -> Int32 {
    var node = root
    var rank = rank
    while true {
      let i = Int(node)
      let leftCount = count(left[i])
      if rank < leftCount {
        node = left[i]
      } else if rank == leftCount {
        return element[i]
      } else {
        rank -= leftCount + 1
        node = right[i]
      }
    }
  }

  /// Builds a balanced tree of `values` (already in order). O(n).
  mutating func build(_ values: [Int32]) -> Int32 {
    let nodes = values.map { makeNode($0) }
    // Priorities must form a heap: give the built tree's nodes priorities by depth.
    return build(nodes, 0, nodes.count, depth: 0)
  }

  private mutating func build(_ nodes: [Int32], _ low: Int, _ high: Int, depth: Int) -> Int32 {
    guard low < high else { return -1 }
    let middle = (low + high) / 2
    let node = nodes[middle]
    // Higher in the tree, higher priority: the top 6 bits from depth, the rest random.
    priority[Int(node)] = (UInt32(max(0, 63 - depth)) << 26) | (priority[Int(node)] >> 6)
    left[Int(node)] = build(nodes, low, middle, depth: depth + 1)
    right[Int(node)] = build(nodes, middle + 1, high, depth: depth + 1)
    update(node)
    return node
  }

  /// The elements of a tree in order. O(n).
  func elements(_ root: Int32) -> [Int32] {
    var result: [Int32] = []
    result.reserveCapacity(count(root))
    var stack: [Int32] = []
    var node = root
    while node >= 0 || !stack.isEmpty {
      while node >= 0 {
        stack.append(node)
        node = left[Int(node)]
      }
      let top = stack.removeLast()
      result.append(element[Int(top)])
      node = right[Int(top)]
    }
    return result
  }

  /// Frees every node of a tree. O(n).
  mutating func release(_ root: Int32) {
    guard root >= 0 else { return }
    var stack = [root]
    while let node = stack.popLast() {
      if left[Int(node)] >= 0 { stack.append(left[Int(node)]) }
      if right[Int(node)] >= 0 { stack.append(right[Int(node)]) }
      free.append(node)
    }
  }
}
