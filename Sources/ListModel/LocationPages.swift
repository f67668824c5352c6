// Where each interned item id sits in a snapshot, in pages that versions share until one edits a page.

/// An item's place as stored: its section slot, its chunk's serial in that section's
/// ``NodeChunks`` and its offset there (so inserting elsewhere in the section does not change
/// it). `slot` is -1 when the item is not in the snapshot, -2 while an edit claims it.
struct StoredLocation: Sendable, Equatable {
  var slot: Int32
  var chunk: Int32
  var offset: Int32

  static let absent = StoredLocation(slot: -1, chunk: 0, offset: 0)
  static let claimed = StoredLocation(slot: -2, chunk: 0, offset: 0)
}

/// One page of locations. Mutated only while uniquely referenced (``LocationPages`` copies a
/// shared page before writing), so snapshots on different threads may share it.
final class LocationPage: @unchecked Sendable {
  /// Unchecked at run time, as ``NodeChunk/nodes`` is: written only while uniquely referenced.
  @exclusivity(unchecked) var entries: [StoredLocation]

  init(_ entries: [StoredLocation]) { self.entries = entries }
}

/// The stored location of every interned id, by id, in pages of ``pageSize``: a copy shares
/// every page and writing copies only the page written to (and a group of the list of pages,
/// ``GroupedReferences``), so a version that moves k items costs O(k pages) more, not a copy
/// of every location.
struct LocationPages: Sendable {
  static let pageShift = 10
  static let pageSize = 1 << pageShift

  /// Grouped, so a version copying the list of pages for a write copies a group of it only.
  private(set) var pages = GroupedReferences<LocationPage>()
  private(set) var count = 0

  /// The location of `id`. O(1).
  subscript(id: Int) -> StoredLocation {
    @inline(__always) get { pages[id >> Self.pageShift].entries[id & (Self.pageSize - 1)] }
    set {
      let page = id >> Self.pageShift
      if !pages.isUniquelyReferenced(page) { pages[page] = LocationPage(pages[page].entries) }
      pages[page].entries[id & (Self.pageSize - 1)] = newValue
    }
  }

  /// Writes each location to its id, a run of ids on one page at a time. O(writes + pages).
  mutating func set(_ writes: [(id: Int32, location: StoredLocation)]) {
    var k = 0
    while k < writes.count {
      let page = Int(writes[k].id) >> Self.pageShift
      if !pages.isUniquelyReferenced(page) { pages[page] = LocationPage(pages[page].entries) }
      pages[page].entries.withUnsafeMutableBufferPointer { entries in
        while k < writes.count, Int(writes[k].id) >> Self.pageShift == page {
          entries[Int(writes[k].id) & (Self.pageSize - 1)] = writes[k].location
          k += 1
        }
      }
    }
  }

  /// The index in `ids` of the first id whose location is not absent (an item, or claimed),
  /// or nil; a run of ids on one page is read at a time. O(ids + pages).
  func firstNotAbsent(_ ids: [Int32]) -> Int? {
    var k = 0
    while k < ids.count {
      let page = Int(ids[k]) >> Self.pageShift
      let found: Int? = pages[page].entries.withUnsafeBufferPointer { entries in
        while k < ids.count, Int(ids[k]) >> Self.pageShift == page {
          if entries[Int(ids[k]) & (Self.pageSize - 1)].slot != -1 { return k }
          k += 1
        }
        return nil
      }
      if found != nil { return found }
    }
    return nil
  }

  /// Marks `ids` claimed in order, a run of ids on one page at a time, stopping at the first
  /// id found claimed already (a repeat): returns its index (the ids before it are claimed),
  /// or nil. O(ids + pages).
  mutating func claim(_ ids: [Int32]) -> Int? {
    var k = 0
    while k < ids.count {
      let page = Int(ids[k]) >> Self.pageShift
      if !pages.isUniquelyReferenced(page) { pages[page] = LocationPage(pages[page].entries) }
      let found: Int? = pages[page].entries.withUnsafeMutableBufferPointer { entries in
        while k < ids.count, Int(ids[k]) >> Self.pageShift == page {
          let entry = Int(ids[k]) & (Self.pageSize - 1)
          if entries[entry].slot != -1 { return k }
          entries[entry] = .claimed
          k += 1
        }
        return nil
      }
      if found != nil { return found }
    }
    return nil
  }

  /// Grows to `newCount` entries, the new ones absent. O(new entries).
  mutating func grow(to newCount: Int) {
    guard newCount > count else { return }
    if count & (Self.pageSize - 1) != 0 {
      let last = pages.count - 1
      let room = Self.pageSize - pages[last].entries.count
      let added = min(room, newCount - count)
      if !pages.isUniquelyReferenced(last) { pages[last] = LocationPage(pages[last].entries) }
      pages[last].entries.append(contentsOf: repeatElement(.absent, count: added))
      count += added
    }
    while count < newCount {
      let added = min(Self.pageSize, newCount - count)
      pages.append(LocationPage([StoredLocation](repeating: .absent, count: added)))
      count += added
    }
  }

  /// How many entries are in pages `other` does not share. O(pages).
  func entriesNotShared(with other: LocationPages) -> Int {
    var result = 0
    var index = 0
    while index < pages.count {
      if pages.sharesGroup(at: index, with: other.pages, at: index) {
        index += pages.groupCount(at: index)
        continue
      }
      if index >= other.pages.count || other.pages[index] !== pages[index] {
        result += pages[index].entries.count
      }
      index += 1
    }
    return result
  }
}
