// How much storage a snapshot holds that another does not share: the cost of keeping both.

extension ListSnapshot {
  /// Roughly what keeping this snapshot alive costs once `other` is kept too, in item-sized
  /// units (about 64 bytes): the items of sections whose storage `other` does not share (edited
  /// between the two, or every section when they do not share an id table), plus the item
  /// locations (8 bytes an id) when not shared, plus the id table (about 32 bytes an id) when
  /// it is not `other`'s. O(sections).
  public func retainedWeight(notSharedWith other: ListSnapshot) -> Int {
    var weight = 0
    for (index, store) in slots.enumerated() where store.id >= 0 {
      if table === other.table, index < other.slots.count, other.slots[index].stamp == store.stamp {
        continue
      }
      weight += store.nodes.count
    }
    let sharedLocations = locations.withUnsafeBufferPointer { mine in
      other.locations.withUnsafeBufferPointer { mine.baseAddress == $0.baseAddress }
    }
    if !sharedLocations { weight += locations.count / 8 }
    if table !== other.table { weight += table.count / 2 }
    return weight
  }
}
