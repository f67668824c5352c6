// How much storage a snapshot holds that another does not share: the cost of keeping both.

extension ListSnapshot {
  /// The number of items in sections whose storage `other` does not share (a section edited
  /// between the two, or any section when they do not share an id table): roughly what keeping
  /// this snapshot alive costs once `other` is kept too. O(sections).
  public func itemCount(notSharedWith other: ListSnapshot) -> Int {
    var count = 0
    for (index, store) in slots.enumerated() where store.id >= 0 {
      if table === other.table, index < other.slots.count, other.slots[index].stamp == store.stamp {
        continue
      }
      count += store.nodes.count
    }
    return count
  }
}
