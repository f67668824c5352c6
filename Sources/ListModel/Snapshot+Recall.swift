// A section's items as a snapshot holds them, for a reader that recognises content it already has.

/// The items of one section of a snapshot in order, recalled by id while content that may repeat
/// them is read (``ListSnapshot/recall(section:)``): the reader asks for each item it reads in
/// turn, and mostly gets the item at the same place, so no id is hashed; an item elsewhere is
/// found through the snapshot's id table. The section's nodes are read in place, not copied.
public struct SectionRecall: Sendable {
  private let snapshot: ListSnapshot
  /// The section's nodes (none for an unknown section).
  private let nodes: NodeChunks
  /// The positions in `nodes` of the section's top-level items when it is an outline; nil when
  /// it is flat (its nodes are its items).
  private let topLevel: [Int]?
  /// The id table's strings, read in place.
  private let strings: [String]
  /// The section's slot when it is flat, else -1.
  private let flatSlot: Int32
  /// The number of the section's top-level items.
  private let count: Int
  /// The place (among the top-level items) after the last item recalled.
  private var cursor = 0

  init(_ snapshot: ListSnapshot, nodes: NodeChunks, topLevel: [Int]?, flatSlot: Int32) {
    self.snapshot = snapshot
    self.nodes = nodes
    self.topLevel = topLevel
    self.flatSlot = flatSlot
    count = topLevel?.count ?? nodes.count
    strings = count == 0 ? [] : snapshot.table.strings()
  }

  /// The payload the snapshot holds for the item `id`, read next in the section's order: O(1)
  /// (a position read, O(log chunks)) when it is the item after the one recalled last (or the
  /// one after that: one item deleted), else an id lookup (which moves on to the item's place
  /// when it is in this flat section: items deleted or moved). Nil for an item the snapshot does
  /// not hold.
  public mutating func payload(of id: String) -> ItemPayload? {
    for step in 0..<2 where cursor + step < count {
      let position = topLevel?[cursor + step] ?? cursor + step
      let payload = nodes.withNode(at: position) { node in
        strings[Int(node.pointee.id)] == id ? node.pointee.payload : nil
      }
      if let payload {
        cursor += step + 1
        return payload
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
  /// is looked up by id. O(1) for a flat section, else O(top-level items × log chunks).
  public func recall(section id: String) -> SectionRecall {
    guard let slot = sectionSlot(id) else {
      return SectionRecall(self, nodes: NodeChunks(), topLevel: nil, flatSlot: -1)
    }
    let store = slots[Int(slot)]
    if store.nestedCount == 0 {
      return SectionRecall(self, nodes: store.nodes, topLevel: nil, flatSlot: slot)
    }
    // A top-level item's subtree ends where the next one starts.
    var topLevel: [Int] = []
    var position = 0
    while position < store.nodes.count {
      topLevel.append(position)
      position += Int(store.nodes.withNode(at: position) { $0.pointee.size })
    }
    return SectionRecall(self, nodes: store.nodes, topLevel: topLevel, flatSlot: -1)
  }
}
