// A copy-on-write array of class references kept in shared groups, so a write to a shared copy copies a group, not every reference.

/// An array of class references held in groups of ``groupSize`` that copies share.
///
/// A plain `[Element]` shared between two versions is copied whole by the first write: for
/// the chunk list of a 1,000,000-item section, or its pages of item locations, about a thousand
/// retains for every single-item edit, and as many releases when the version is dropped. Here
/// that write copies the list of groups and the one group it writes to: O(count / groupSize +
/// groupSize). Reads are O(1) (two indexes). Inserting or removing an element rebuilds the
/// groups from the one it falls in: O(count - index) (rare for chunk lists and pages).
///
/// A group is mutated only while uniquely referenced (it is copied first otherwise), so
/// copies on different threads may share it.
struct GroupedReferences<Element: AnyObject>: RandomAccessCollection {
  /// A run of up to ``groupSize`` consecutive elements.
  final class Group: @unchecked Sendable {
    /// Unchecked at run time, as ``NodeChunk/nodes`` is: written only while uniquely
    /// referenced, so no two accesses overlap; a build without `-enforce-exclusivity=unchecked`
    /// (the anchorbench's) would otherwise check every read of a page or chunk.
    @exclusivity(unchecked) var items: [Element]
    init(_ items: [Element]) { self.items = items }
  }

  #if DEBUG
    // Debug builds (every test) use groups of 4, so even short lists of chunks span groups.
    static var groupShift: Int { 2 }
  #else
    static var groupShift: Int { 6 }
  #endif
  static var groupSize: Int { 1 << groupShift }

  private(set) var groups: [Group] = []
  private(set) var count = 0

  init() {}

  init(_ elements: [Element]) {
    append(contentsOf: elements[...])
  }

  var startIndex: Int { 0 }
  var endIndex: Int { count }
  func index(after i: Int) -> Int { i + 1 }
  func index(before i: Int) -> Int { i - 1 }

  /// The element at `index`. Setting it copies the group it is in, if shared.
  subscript(index: Int) -> Element {
    @inline(__always) get { groups[index >> Self.groupShift].items[index & (Self.groupSize - 1)] }
    set {
      let g = index >> Self.groupShift
      makeGroupUnique(g)
      groups[g].items[index & (Self.groupSize - 1)] = newValue
    }
  }

  /// Whether the element at `index` is referenced by this array alone, so it may be mutated in
  /// place. Copies the group it is in first, if shared (the element then is not unique).
  mutating func isUniquelyReferenced(_ index: Int) -> Bool {
    let g = index >> Self.groupShift
    makeGroupUnique(g)
    return isKnownUniquelyReferenced(&groups[g].items[index & (Self.groupSize - 1)])
  }

  /// Whether the group holding `index` here is the very group holding `otherIndex` in `other`
  /// (both at the start of their groups): then the next ``groupSize`` elements (or up to the
  /// end) are the same objects in both. O(1).
  @inline(__always) func sharesGroup(at index: Int, with other: Self, at otherIndex: Int) -> Bool {
    index & (Self.groupSize - 1) == 0 && otherIndex & (Self.groupSize - 1) == 0
      && index < count && otherIndex < other.count
      && groups[index >> Self.groupShift] === other.groups[otherIndex >> Self.groupShift]
  }

  /// The number of elements in the group starting at `index` (a multiple of ``groupSize``).
  @inline(__always) func groupCount(at index: Int) -> Int {
    Swift.min(Self.groupSize, count - index)
  }

  mutating func append(_ element: Element) {
    if count & (Self.groupSize - 1) == 0 {
      groups.append(Group([element]))
    } else {
      makeGroupUnique(groups.count - 1)
      groups[groups.count - 1].items.append(element)
    }
    count += 1
  }

  mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
    for element in elements { append(element) }
  }

  /// Inserts `elements` before `index`. O(count - index + elements).
  mutating func insert<C: Collection>(contentsOf elements: C, at index: Int) where C.Element == Element {
    guard !elements.isEmpty else { return }
    if index == count { return append(contentsOf: elements) }
    var tail = takeGroups(from: index)
    tail.insert(contentsOf: elements, at: index & (Self.groupSize - 1))
    append(contentsOf: tail)
  }

  /// Removes the element at `index`. O(count - index).
  mutating func remove(at index: Int) {
    var tail = takeGroups(from: index)
    tail.remove(at: index & (Self.groupSize - 1))
    append(contentsOf: tail)
  }

  /// Removes the groups from the one holding `index` on and returns their elements.
  private mutating func takeGroups(from index: Int) -> [Element] {
    let first = index >> Self.groupShift
    var tail: [Element] = []
    tail.reserveCapacity(count - (first << Self.groupShift) + 1)
    for g in first..<groups.count { tail.append(contentsOf: groups[g].items) }
    groups.removeSubrange(first...)
    count = first << Self.groupShift
    return tail
  }

  @inline(__always) private mutating func makeGroupUnique(_ g: Int) {
    if !isKnownUniquelyReferenced(&groups[g]) { groups[g] = Group(groups[g].items) }
  }
}

extension GroupedReferences: Sendable where Element: Sendable {}
