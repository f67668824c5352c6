// A section's nodes in preorder, held in chunks that versions share until one of them edits a chunk.

/// A run of consecutive nodes of one section. Mutated only while uniquely referenced
/// (``NodeChunks`` copies a shared chunk before writing to it), so sharing one between
/// snapshots on different threads is safe.
final class NodeChunk: @unchecked Sendable {
  /// Unchecked at run time: written only while uniquely referenced (``NodeChunks`` copies a
  /// shared chunk first), so no two accesses overlap; a build of ListModel without
  /// `-enforce-exclusivity=unchecked` (a package embedding it) would otherwise check every read.
  @exclusivity(unchecked) var nodes: [Node]
  /// Names the chunk within its section for item locations; copies keep it.
  let serial: Int32

  init(_ nodes: [Node], serial: Int32) {
    self.nodes = nodes
    self.serial = serial
  }
}

/// The nodes of a section in preorder, as a random-access collection of positions.
///
/// Nodes live in chunks of at most ``capacity``; a copy of the collection shares every chunk,
/// and an edit copies only the chunks it writes to, so a version derived from another by an
/// edit of k nodes costs O(k + chunks) in time and memory, not O(n). An item's location is its
/// chunk's ``NodeChunk/serial`` and its offset in the chunk, which an edit changes only for the
/// nodes of the chunks it touches (the positions it returns).
///
/// Reading a position is O(log chunks); iterating is O(1) per node; chunks of two versions
/// compare by identity, so what a diff must look at is found without reading shared chunks.
struct NodeChunks: Sendable, RandomAccessCollection, MutableCollection {
  #if DEBUG
    // Debug builds (every test) use tiny chunks, so even small lists split and merge them.
    static let capacity = 16
    static let fill = 12
  #else
    /// The most nodes a chunk holds.
    static let capacity = 1024
    /// How full new chunks are made, leaving room for inserts.
    static let fill = 768
  #endif

  /// Grouped, so a version copying the list for an edit copies a group of it, not every chunk.
  private(set) var chunks = GroupedReferences<NodeChunk>()
  /// Position of each chunk's first node.
  private(set) var starts: [Int] = []
  /// Index in `chunks` of each serial; -1 for a serial no longer used.
  private var indexOfSerial: [Int32] = []
  private var total = 0

  init() {}

  /// Nodes in chunks of ``fill``. O(n).
  init(_ nodes: [Node]) {
    append(pieces: nodes[...], at: 0)
    rebuildIndex(from: 0)
  }

  var startIndex: Int { 0 }
  var endIndex: Int { total }
  var count: Int { total }
  var isEmpty: Bool { total == 0 }
  func index(after i: Int) -> Int { i + 1 }
  func index(before i: Int) -> Int { i - 1 }

  /// The index of the chunk holding `position` (the last chunk for `position == count`).
  /// O(log chunks).
  func chunkIndex(containing position: Int) -> Int {
    var low = 0
    var high = starts.count - 1
    while low < high {
      let mid = (low + high + 1) >> 1
      if starts[mid] <= position { low = mid } else { high = mid - 1 }
    }
    return low
  }

  /// The node at `position`. O(log chunks).
  subscript(position: Int) -> Node {
    get {
      let c = chunkIndex(containing: position)
      return chunks[c].nodes[position - starts[c]]
    }
    set {
      let c = chunkIndex(containing: position)
      makeUnique(c)
      chunks[c].nodes[position - starts[c]] = newValue
    }
  }

  /// The position and node at `offset` of chunk `serial`. O(1).
  @inline(__always) func resolve(serial: Int32, offset: Int32) -> (position: Int, node: Node) {
    let c = Int(indexOfSerial[Int(serial)])
    return (starts[c] + Int(offset), chunks[c].nodes[Int(offset)])
  }

  /// `body(position, node)` with the node at `offset` of chunk `serial`, read in place (no copy,
  /// no retain of its payload). O(1).
  @inline(__always) func withNode<R>(serial: Int32, offset: Int32, _ body: (Int, UnsafePointer<Node>) -> R)
    -> R
  {
    let c = Int(indexOfSerial[Int(serial)])
    let position = starts[c] + Int(offset)
    return chunks[c].nodes.withUnsafeBufferPointer { body(position, $0.baseAddress! + Int(offset)) }
  }

  /// `body(node)` with the node at `position`, read in place. O(log chunks).
  @inline(__always) func withNode<R>(at position: Int, _ body: (UnsafePointer<Node>) -> R) -> R {
    let c = chunkIndex(containing: position)
    return chunks[c].nodes.withUnsafeBufferPointer { body($0.baseAddress! + (position - starts[c])) }
  }

  /// The number of nodes in chunk `c`, from the starts (no read of the chunk). O(1).
  @inline(__always) func chunkCount(_ c: Int) -> Int {
    (c + 1 < starts.count ? starts[c + 1] : total) - starts[c]
  }

  /// Where the node at `position` is: its chunk's serial and its offset there. O(log chunks).
  func placement(of position: Int) -> (serial: Int32, offset: Int32) {
    let c = chunkIndex(containing: position)
    return (chunks[c].serial, Int32(position - starts[c]))
  }

  /// The position of the node at `offset` of chunk `serial`. O(1).
  @inline(__always) func position(serial: Int32, offset: Int32) -> Int {
    starts[Int(indexOfSerial[Int(serial)])] + Int(offset)
  }

  /// Calls `body(position, node)` for every node in `range`, in order. Nodes are read in place
  /// (no copy, no retain of their payloads). O(range + log chunks).
  func forEach(in range: Range<Int>, _ body: (Int, UnsafePointer<Node>) -> Void) {
    guard !range.isEmpty else { return }
    var c = chunkIndex(containing: range.lowerBound)
    var position = range.lowerBound
    while position < range.upperBound {
      let start = starts[c]
      chunks[c].nodes.withUnsafeBufferPointer { nodes in
        let base = nodes.baseAddress!
        let end = Swift.min(range.upperBound - start, nodes.count)
        for offset in (position - start)..<end { body(start + offset, base + offset) }
        position = start + end
      }
      c += 1
    }
  }

  /// Whether `body(position, node)` holds for every node, in order; stops at the first that
  /// does not. Nodes are read in place (no copy, no retain of their payloads). O(n + chunks).
  func allSatisfy(_ body: (Int, UnsafePointer<Node>) -> Bool) -> Bool {
    for (c, chunk) in chunks.enumerated() {
      let start = starts[c]
      let ok = chunk.nodes.withUnsafeBufferPointer { nodes in
        for offset in nodes.indices where !body(start + offset, nodes.baseAddress! + offset) { return false }
        return true
      }
      if !ok { return false }
    }
    return true
  }

  /// Visits nodes from `start` while before `end`: `body(position, node)` returns the next
  /// position to visit (greater than `position`). Nodes are read in place (no copy, no retain
  /// of their payloads). O(visited + chunks skipped).
  func walk(from start: Int, to end: Int, _ body: (Int, UnsafePointer<Node>) -> Int) {
    guard start < end, !chunks.isEmpty else { return }
    var c = chunkIndex(containing: start)
    var position = start
    while position < end {
      while c + 1 < starts.count, starts[c + 1] <= position { c += 1 }
      let base = starts[c]
      let limit = Swift.min(end, base + chunkCount(c))
      chunks[c].nodes.withUnsafeBufferPointer { nodes in
        let first = nodes.baseAddress!
        while position < limit { position = body(position, first + (position - base)) }
      }
    }
  }

  /// As ``walk(from:to:_:)``, with each visited node writable in place through its pointer.
  /// Only the chunks holding a visited node are copied if shared: a subtree skipped whole is
  /// neither read nor copied. O(visited + chunks skipped + log chunks).
  mutating func walkModifying(from start: Int, to end: Int, _ body: (Int, UnsafeMutablePointer<Node>) -> Int)
  {
    guard start < end, !chunks.isEmpty else { return }
    var c = chunkIndex(containing: start)
    var position = start
    while position < end {
      while c + 1 < starts.count, starts[c + 1] <= position { c += 1 }
      let base = starts[c]
      let limit = Swift.min(end, base + chunkCount(c))
      makeUnique(c)
      chunks[c].nodes.withUnsafeMutableBufferPointer { nodes in
        let first = nodes.baseAddress!
        while position < limit { position = body(position, first + (position - base)) }
      }
    }
  }

  /// Calls `body(serial, offset, id)` for every node in `range`: what item locations are
  /// rebuilt from. O(range + log chunks).
  func forEachPlacement(in range: Range<Int>, _ body: (Int32, Int32, Int32) -> Void) {
    guard !range.isEmpty else { return }
    var c = chunkIndex(containing: range.lowerBound)
    var position = range.lowerBound
    while position < range.upperBound {
      let start = starts[c]
      let serial = chunks[c].serial
      chunks[c].nodes.withUnsafeBufferPointer { nodes in
        let end = Swift.min(range.upperBound - start, nodes.count)
        for offset in (position - start)..<end { body(serial, Int32(offset), nodes[offset].id) }
        position = start + end
      }
      c += 1
    }
  }

  /// Lets `body` change the nodes in `range` in place (not their number), a chunk's buffer at a
  /// time: `body(start, buffer)` gets the buffer of the nodes from position `start`. Copies the
  /// shared chunks it touches. O(range + log chunks).
  mutating func modify(in range: Range<Int>, _ body: (Int, inout UnsafeMutableBufferPointer<Node>) -> Void) {
    guard !range.isEmpty else { return }
    var c = chunkIndex(containing: range.lowerBound)
    var position = range.lowerBound
    while position < range.upperBound {
      let start = starts[c]
      makeUnique(c)
      chunks[c].nodes.withUnsafeMutableBufferPointer { nodes in
        let from = position - start
        let end = Swift.min(range.upperBound - start, nodes.count)
        var slice = UnsafeMutableBufferPointer(rebasing: nodes[from..<end])
        body(position, &slice)
        position = start + end
      }
      c += 1
    }
  }

  struct Iterator: IteratorProtocol {
    let chunks: GroupedReferences<NodeChunk>
    /// The next chunk to read, and the nodes of the one being read (held, not read per node).
    var chunk = 0
    var nodes: [Node] = []
    var offset = 0

    mutating func next() -> Node? {
      while offset == nodes.count {
        guard chunk < chunks.count else { return nil }
        nodes = chunks[chunk].nodes
        chunk += 1
        offset = 0
      }
      defer { offset += 1 }
      return nodes[offset]
    }
  }

  func makeIterator() -> Iterator { Iterator(chunks: chunks) }

  // MARK: - Comparison

  /// How many nodes from `start` here and `otherStart` in `other` the two have in common by
  /// `same` (at most `limit`): chunks both hold at the same place are skipped without reading
  /// them.
  /// O(chunks + nodes compared).
  func commonPrefix(
    with other: NodeChunks, from start: Int = 0, _ otherStart: Int = 0, limit: Int,
    _ same: (UnsafePointer<Node>, UnsafePointer<Node>) -> Bool
  ) -> Int {
    guard limit > 0 else { return 0 }
    var done = 0
    // Chunk indexes, and offsets in them.
    var (a, b) = (chunkIndex(containing: start), other.chunkIndex(containing: otherStart))
    var (x, y) = (start - starts[a], otherStart - other.starts[b])
    while done < limit {
      // A group of chunks both hold: skipped without reading its chunks.
      if x == 0, y == 0, chunks.sharesGroup(at: a, with: other.chunks, at: b) {
        let n = chunks.groupCount(at: a)
        let nodes = nodeCount(chunks: a..<(a + n))
        if done + nodes <= limit {
          done += nodes
          a += n
          b += n
          continue
        }
      }
      let (leftCount, rightCount) = (chunkCount(a), other.chunkCount(b))
      if x == 0, y == 0, chunks[a] === other.chunks[b], done + leftCount <= limit {
        done += leftCount
        a += 1
        b += 1
        continue
      }
      let left = chunks[a]
      let right = other.chunks[b]
      let run = Swift.min(leftCount - x, rightCount - y, limit - done)
      let matched = left.nodes.withUnsafeBufferPointer { l in
        right.nodes.withUnsafeBufferPointer { r in
          var k = 0
          while k < run, same(l.baseAddress! + x + k, r.baseAddress! + y + k) { k += 1 }
          return k
        }
      }
      done += matched
      if matched < run { return done }
      x += run
      y += run
      if x == leftCount { (a, x) = (a + 1, 0) }
      if y == rightCount { (b, y) = (b + 1, 0) }
    }
    return done
  }

  /// How many nodes before `end` here and `otherEnd` in `other` (the ends by default) the two
  /// have in common by `same` (at most `limit`), skipping chunks both hold at the same place.
  /// O(chunks + nodes compared).
  func commonSuffix(
    with other: NodeChunks, before end: Int? = nil, _ otherEnd: Int? = nil, limit: Int,
    _ same: (UnsafePointer<Node>, UnsafePointer<Node>) -> Bool
  ) -> Int {
    guard limit > 0 else { return 0 }
    let (end, otherEnd) = (end ?? count, otherEnd ?? other.count)
    var done = 0
    var (a, b) = (chunkIndex(containing: end - 1), other.chunkIndex(containing: otherEnd - 1))
    // Nodes of chunk a (b) not yet compared, counted from its start.
    var (x, y) = (end - starts[a], otherEnd - other.starts[b])
    while done < limit {
      // A group of chunks both hold, ending at a and b: skipped without reading its chunks.
      let (groupA, groupB) = (
        a & ~(GroupedReferences<NodeChunk>.groupSize - 1), b & ~(GroupedReferences<NodeChunk>.groupSize - 1)
      )
      if x == chunkCount(a), y == other.chunkCount(b), a - groupA == b - groupB,
        a == groupA + chunks.groupCount(at: groupA) - 1,
        chunks.sharesGroup(at: groupA, with: other.chunks, at: groupB)
      {
        let nodes = nodeCount(chunks: groupA..<(a + 1))
        if done + nodes <= limit {
          done += nodes
          a = groupA - 1
          b = groupB - 1
          x = a >= 0 ? chunkCount(a) : 0
          y = b >= 0 ? other.chunkCount(b) : 0
          continue
        }
      }
      if x == chunkCount(a), y == other.chunkCount(b), chunks[a] === other.chunks[b], done + x <= limit {
        done += x
        a -= 1
        b -= 1
        x = a >= 0 ? chunkCount(a) : 0
        y = b >= 0 ? other.chunkCount(b) : 0
        continue
      }
      let left = chunks[a]
      let right = other.chunks[b]
      let run = Swift.min(x, y, limit - done)
      let matched = left.nodes.withUnsafeBufferPointer { l in
        right.nodes.withUnsafeBufferPointer { r in
          var k = 0
          while k < run, same(l.baseAddress! + x - 1 - k, r.baseAddress! + y - 1 - k) { k += 1 }
          return k
        }
      }
      done += matched
      if matched < run { return done }
      x -= run
      y -= run
      if x == 0, a > 0 { (a, x) = (a - 1, chunkCount(a - 1)) }
      if y == 0, b > 0 { (b, y) = (b - 1, other.chunkCount(b - 1)) }
    }
    return done
  }

  /// How many nodes are in chunks `other` does not hold (in the same order, as versions keep
  /// them). O(chunks), as ``sharedChunks(with:in:_:)``.
  func nodesNotShared(with other: NodeChunks) -> Int {
    var shared = 0
    forEachShared(with: other, in: 0..<count, 0..<other.count) { c, _, n in
      shared += nodeCount(chunks: c..<(c + n))
    }
    return count - shared
  }

  /// The number of nodes in chunks `range`, from the starts. O(1).
  @inline(__always) func nodeCount(chunks range: Range<Int>) -> Int {
    guard !range.isEmpty else { return 0 }
    return (range.upperBound < starts.count ? starts[range.upperBound] : total) - starts[range.lowerBound]
  }

  /// The chunks this collection and `other` both hold, wholly inside `range` here and
  /// `otherRange` there, as many as keep one order in both (a longest increasing subsequence):
  /// each as its position here, its position there and its node count. Rows in them are
  /// unchanged and keep their order, so a diff need only look between them.
  /// O(chunks) when the two differ by a few chunks here and there (a walk that resyncs within
  /// a few chunks), else O(chunks log chunks).
  func sharedChunks(with other: NodeChunks, in range: Range<Int>, _ otherRange: Range<Int>) -> [(
    Int, Int, Int
  )] {
    var result: [(Int, Int, Int)] = []
    forEachShared(with: other, in: range, otherRange) { c, d, n in
      for k in 0..<n { result.append((starts[c + k], other.starts[d + k], chunkCount(c + k))) }
    }
    return result
  }

  /// ``sharedChunks(with:in:_:)`` as runs: `body(c, d, n)` for chunks `c..<c+n` here, the same
  /// objects as `d..<d+n` in `other`, in increasing order of both. Groups of chunks both hold
  /// are skipped whole. O(chunk groups) when the two differ by a few chunks here and there.
  private func forEachShared(
    with other: NodeChunks, in range: Range<Int>, _ otherRange: Range<Int>, _ body: (Int, Int, Int) -> Void
  ) {
    guard !chunks.isEmpty, !other.chunks.isEmpty else { return }
    let mine = wholeChunks(in: range)
    let theirs = other.wholeChunks(in: otherRange)
    func shared(_ c: Int, _ d: Int) { body(c, d, 1) }
    var (c, d) = (mine.lowerBound, theirs.lowerBound)
    walk: while c < mine.upperBound, d < theirs.upperBound {
      if chunks.sharesGroup(at: c, with: other.chunks, at: d) {
        let n = chunks.groupCount(at: c)
        if c + n <= mine.upperBound, d + n <= theirs.upperBound {
          body(c, d, n)
          (c, d) = (c + n, d + n)
          continue
        }
      }
      if chunks[c] === other.chunks[d] {
        shared(c, d)
        (c, d) = (c + 1, d + 1)
        continue
      }
      // Resync: a few chunks replaced, added or dropped on either side.
      for k in 1...4 {
        if d + k < theirs.upperBound, chunks[c] === other.chunks[d + k] {
          d += k
          continue walk
        }
        if c + k < mine.upperBound, chunks[c + k] === other.chunks[d] {
          c += k
          continue walk
        }
        if c + k < mine.upperBound, d + k < theirs.upperBound, chunks[c + k] === other.chunks[d + k] {
          (c, d) = (c + k, d + k)
          continue walk
        }
      }
      break
    }
    guard c < mine.upperBound, d < theirs.upperBound else { return }
    // The rest is reordered beyond a few chunks: match by identity, keep an increasing run.
    var index: [ObjectIdentifier: Int] = [:]
    for k in c..<mine.upperBound { index[ObjectIdentifier(chunks[k])] = k }
    var pairs: [(Int, Int)] = []
    for k in d..<theirs.upperBound {
      if let match = index[ObjectIdentifier(other.chunks[k])] { pairs.append((match, k)) }
    }
    let keep = longestIncreasingSubsequence(pairs.map { Int32($0.0) })
    for (k, (c, d)) in pairs.enumerated() where keep[k] { shared(c, d) }
  }

  /// The indexes of the chunks wholly inside `range`. O(log chunks).
  private func wholeChunks(in range: Range<Int>) -> Range<Int> {
    guard !range.isEmpty else { return 0..<0 }
    var first = chunkIndex(containing: range.lowerBound)
    if starts[first] < range.lowerBound { first += 1 }
    var last = chunkIndex(containing: range.upperBound - 1)
    if starts[last] + chunkCount(last) > range.upperBound { last -= 1 }
    return first..<Swift.max(first, last + 1)
  }

  // MARK: - Structure

  /// Inserts `block` before `position`; returns the positions (after the insert) whose chunk or
  /// offset changed: the new nodes and those after them in the chunks touched. O(block +
  /// capacity + chunks).
  @discardableResult
  mutating func insert(contentsOf block: [Node], at position: Int) -> Range<Int> {
    guard !block.isEmpty else { return position..<position }
    if chunks.isEmpty {
      append(pieces: block[...], at: 0)
      rebuildIndex(from: 0)
      return 0..<total
    }
    let c = chunkIndex(containing: position)
    let offset = position - starts[c]
    let chunkCount = chunks[c].nodes.count
    if chunkCount + block.count <= Self.capacity {
      makeUnique(c)
      chunks[c].nodes.insert(contentsOf: block, at: offset)
      total += block.count
      for later in (c + 1)..<starts.count { starts[later] += block.count }
      return position..<(starts[c] + chunkCount + block.count)
    }
    if offset == chunkCount {
      // At a chunk's end: new chunks after it; the chunk itself is left as it is.
      let added = appendedPieces(block[...])
      chunks.insert(contentsOf: added, at: c + 1)
      total += block.count
      rebuildIndex(from: c + 1)
      return position..<(position + block.count)
    }
    // Split: the chunk's head, the block and its tail, cut into new chunks; the first keeps
    // the serial so the head's locations stay valid.
    let old = chunks[c].nodes
    var combined: [Node] = []
    combined.reserveCapacity(chunkCount + block.count)
    combined.append(contentsOf: old[..<offset])
    combined.append(contentsOf: block)
    combined.append(contentsOf: old[offset...])
    let end = starts[c] + combined.count
    // The first piece holds the whole head, which so keeps its chunk and offsets.
    let firstCount = offset > Self.fill ? offset : Swift.min(Self.fill, combined.count)
    chunks[c] = NodeChunk(Array(combined[..<firstCount]), serial: chunks[c].serial)
    chunks.insert(contentsOf: appendedPieces(combined[firstCount...]), at: c + 1)
    total += block.count
    rebuildIndex(from: c)
    return position..<end
  }

  /// Appends `count` nodes made by `make(k)` (k from 0) at the end and returns their positions:
  /// into the last chunk when they all fit there (as ``insert(contentsOf:at:)`` would put
  /// them), else into new chunks of ``fill`` built in place, so no node is copied from a block
  /// in between (a retain and a release of its payload). O(count + capacity).
  @discardableResult
  mutating func append(count: Int, _ make: (Int) -> Node) -> Range<Int> {
    let start = total
    guard count > 0 else { return start..<start }
    let last = chunks.count - 1
    if last >= 0, chunkCount(last) + count <= Self.capacity {
      makeUnique(last)
      chunks[last].nodes.reserveCapacity(chunkCount(last) + count)
      for k in 0..<count { chunks[last].nodes.append(make(k)) }
      total += count
      return start..<total
    }
    var k = 0
    while k < count {
      let n = Swift.min(Self.fill, count - k)
      var nodes: [Node] = []
      nodes.reserveCapacity(n)
      for j in k..<(k + n) { nodes.append(make(j)) }
      let serial = newSerial()
      indexOfSerial[Int(serial)] = Int32(chunks.count)
      starts.append(total)
      chunks.append(NodeChunk(nodes, serial: serial))
      total += n
      k += n
    }
    return start..<total
  }

  /// Removes the nodes in `range` and returns them, with the positions (after the removal)
  /// whose chunk or offset changed. O(range + capacity + chunks).
  mutating func remove(_ range: Range<Int>) -> (removed: [Node], changed: Range<Int>) {
    guard !range.isEmpty else { return ([], range.lowerBound..<range.lowerBound) }
    var removed: [Node] = []
    removed.reserveCapacity(range.count)
    let first = chunkIndex(containing: range.lowerBound)
    var c = first
    var from = range.lowerBound - starts[first]
    var remaining = range.count
    while remaining > 0 {
      let take = Swift.min(remaining, chunks[c].nodes.count - from)
      makeUnique(c)
      removed.append(contentsOf: chunks[c].nodes[from..<(from + take)])
      chunks[c].nodes.removeSubrange(from..<(from + take))
      remaining -= take
      c += 1
      from = 0
    }
    total -= range.count
    // Drop emptied chunks: what is left of the touched ones sits at `first`, `first + 1`.
    var survivors = 0
    var index = first
    for _ in first..<c {
      if chunks[index].nodes.isEmpty {
        chunks.remove(at: index)
      } else {
        index += 1
        survivors += 1
      }
    }
    var lastChanged = first + survivors - 1
    // Merge two small neighbours at the cut; the second one's nodes change chunk.
    let keep = survivors == 0 ? first - 1 : first
    var merged = false
    if keep >= 0, keep + 1 < chunks.count,
      chunks[keep].nodes.count + chunks[keep + 1].nodes.count <= Self.fill
    {
      makeUnique(keep)
      chunks[keep].nodes.append(contentsOf: chunks[keep + 1].nodes)
      chunks.remove(at: keep + 1)
      lastChanged = Swift.max(keep, lastChanged - 1)
      merged = true
    }
    if merged || survivors < c - first {
      rebuildIndex(from: Swift.max(0, first - 1))
    } else {
      // Same chunks: the touched ones' starts follow their new sizes, later ones shift.
      for k in (first + 1)..<c { starts[k] = starts[k - 1] + chunks[k - 1].nodes.count }
      for k in c..<starts.count { starts[k] -= range.count }
    }
    guard lastChanged >= 0, lastChanged < chunks.count else {
      return (removed, range.lowerBound..<range.lowerBound)
    }
    let end = starts[lastChanged] + chunks[lastChanged].nodes.count
    return (removed, range.lowerBound..<Swift.max(end, range.lowerBound))
  }

  // MARK: - Internals

  private mutating func makeUnique(_ c: Int) {
    if !chunks.isUniquelyReferenced(c) {
      chunks[c] = NodeChunk(chunks[c].nodes, serial: chunks[c].serial)
    }
  }

  /// New chunks of at most ``fill`` nodes holding `nodes`, with fresh serials.
  private mutating func appendedPieces(_ nodes: ArraySlice<Node>) -> [NodeChunk] {
    var pieces: [NodeChunk] = []
    var from = nodes.startIndex
    while from < nodes.endIndex {
      let to = Swift.min(from + Self.fill, nodes.endIndex)
      pieces.append(NodeChunk(Array(nodes[from..<to]), serial: newSerial()))
      from = to
    }
    return pieces
  }

  private mutating func append(pieces nodes: ArraySlice<Node>, at index: Int) {
    chunks.insert(contentsOf: appendedPieces(nodes), at: index)
    total += nodes.count
  }

  private mutating func newSerial() -> Int32 {
    indexOfSerial.append(-1)
    return Int32(indexOfSerial.count - 1)
  }

  /// Recomputes starts and the serial index from chunk `index` on. O(chunks).
  private mutating func rebuildIndex(from index: Int) {
    let from = Swift.min(index, starts.count)
    starts.removeSubrange(from...)
    var position = from > 0 ? starts[from - 1] + chunks[from - 1].nodes.count : 0
    for c in from..<chunks.count {
      starts.append(position)
      position += chunks[c].nodes.count
      indexOfSerial[Int(chunks[c].serial)] = Int32(c)
    }
  }
}
