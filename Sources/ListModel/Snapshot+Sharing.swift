// How much storage a snapshot holds that another does not share: the cost of keeping both.

extension ListSnapshot {
  /// Roughly what keeping this snapshot alive costs once `other` is kept too, in item-sized
  /// units (about 64 bytes): the items in chunks of section storage `other` does not share
  /// (edited between the two, or every section when they do not share an id table), plus the
  /// pages of item locations it does not share (12 bytes an id), plus the id table (about 32
  /// bytes an id) when it is not `other`'s. O(sections + chunks of edited sections + pages).
  public func retainedWeight(notSharedWith other: ListSnapshot) -> Int {
    var weight = 0
    for (index, store) in slots.enumerated() where store.id >= 0 {
      if table === other.table, index < other.slots.count, other.slots[index].stamp == store.stamp {
        continue
      }
      guard table === other.table, index < other.slots.count else {
        weight += store.nodes.count
        continue
      }
      weight += store.nodes.nodesNotShared(with: other.slots[index].nodes)
    }
    weight += locations.entriesNotShared(with: other.locations) * 12 / 64
    if table !== other.table { weight += table.count / 2 }
    return weight
  }
}
