// A section's items as a snapshot holds them, for a reader that recognises content it already has.

/// The items of one section of a snapshot in order, recalled by id while content that may repeat
/// them is read (``ListSnapshot/recall(section:)``): the reader asks for each item it reads in
/// turn, and mostly gets the item at the same place, so no id is hashed; an item elsewhere is
/// found through the snapshot's id table.
public struct SectionRecall: Sendable {
  private let snapshot: ListSnapshot
  /// The section's top-level items (none for an unknown section).
  private let nodes: [Node]
  /// The id table's strings, read in place.
  private let strings: [String]
  /// The place after the last item recalled at its place.
  private var cursor = 0

  init(_ snapshot: ListSnapshot, nodes: [Node]) {
    self.snapshot = snapshot
    self.nodes = nodes
    strings = nodes.isEmpty ? [] : snapshot.table.strings()
  }

  /// The payload the snapshot holds for the item `id`, read next in the section's order: O(1)
  /// when it is the item after the one recalled last (or the one after that: one item deleted),
  /// else an id lookup. Nil for an item the snapshot does not hold.
  public mutating func payload(of id: String) -> ItemPayload? {
    for step in 0..<2 where cursor + step < nodes.count {
      let node = nodes[cursor + step]
      if strings[Int(node.id)] == id {
        cursor += step + 1
        return node.payload
      }
    }
    return snapshot.payload(of: id)
  }
}

extension ListSnapshot {
  /// The items of section `id` (its top-level items, in order), for recalling their payloads
  /// while content is read; empty for a section the snapshot does not hold, where every item
  /// is looked up by id. O(items of the section).
  public func recall(section id: String) -> SectionRecall {
    guard let slot = sectionSlot(id) else { return SectionRecall(self, nodes: []) }
    let store = slots[Int(slot)]
    let nodes = store.nestedCount == 0 ? Array(store.nodes) : store.nodes.filter { $0.level == 0 }
    return SectionRecall(self, nodes: nodes)
  }
}
