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
  /// The section's slot when it is flat (its nodes are its items, at their positions), else -1.
  private let flatSlot: Int32
  /// The place after the last item recalled.
  private var cursor = 0

  init(_ snapshot: ListSnapshot, nodes: [Node], flatSlot: Int32) {
    self.snapshot = snapshot
    self.nodes = nodes
    self.flatSlot = flatSlot
    strings = nodes.isEmpty ? [] : snapshot.table.strings()
  }

  /// The payload the snapshot holds for the item `id`, read next in the section's order: O(1)
  /// when it is the item after the one recalled last (or the one after that: one item deleted),
  /// else an id lookup (which moves on to the item's place when it is in this flat section:
  /// items deleted or moved). Nil for an item the snapshot does not hold.
  public mutating func payload(of id: String) -> ItemPayload? {
    for step in 0..<2 where cursor + step < nodes.count {
      let node = nodes[cursor + step]
      if strings[Int(node.id)] == id {
        cursor += step + 1
        return node.payload
      }
    }
    guard let item = snapshot.itemID(id) else { return nil }
    let at = snapshot.location(item)
    if at.slot == flatSlot { cursor = Int(at.position) + 1 }
    return snapshot.node(item).payload
  }
}

extension ListSnapshot {
  /// The items of section `id` (its top-level items, in order), for recalling their payloads
  /// while content is read; empty for a section the snapshot does not hold, where every item
  /// is looked up by id. O(items of the section).
  public func recall(section id: String) -> SectionRecall {
    guard let slot = sectionSlot(id) else { return SectionRecall(self, nodes: [], flatSlot: -1) }
    let store = slots[Int(slot)]
    if store.nestedCount == 0 { return SectionRecall(self, nodes: Array(store.nodes), flatSlot: slot) }
    return SectionRecall(self, nodes: store.nodes.filter { $0.level == 0 }, flatSlot: -1)
  }
}
