// Equal content rebuilt on a snapshot's id table: sections taken over whole from the snapshot it was started from.

/// The snapshot a new one was started from (``ListSnapshot/init(sharingIdentifiersWith:selectionMode:)``),
/// kept while the new one is built: a section appended with exactly the items (ids, payloads,
/// expansion) that section holds there takes over its storage, stamp included, instead of
/// interning and placing every item again, and a diff between the two skips it in O(1).
///
/// Held without its own template (so snapshots never chain), and let go once the build reaches
/// the template's last section; until then it keeps the template's storage alive, most of it
/// shared with the new snapshot anyway.
final class BuildTemplate: Sendable {
  let snapshot: ListSnapshot

  init(_ snapshot: ListSnapshot) {
    var snapshot = snapshot
    snapshot.template = nil
    self.snapshot = snapshot
  }
}

extension ListSnapshot {
  /// Takes over the storage of the template's section at the display index of the empty
  /// section `slot` when it is that section (same id, header, footer, kind, header mode), flat,
  /// holds `count` nodes, carries no reload or reconfigure mark, and `matches(k, node, id)`
  /// holds for its k-th node and that node's id string (read in place in the id table's
  /// storage, so a check by representation retains nothing); none of its items may already be
  /// in this snapshot. Returns whether it did (else nothing changed). The template is let go
  /// once the build reaches its last section. O(count): one pass comparing ids by their bytes
  /// (by representation when they are the same strings) and payloads by reference first, no
  /// hashing.
  mutating func adoptTemplateSection(
    _ slot: Int32, count: Int, _ matches: (Int, UnsafePointer<Node>, UnsafePointer<String>) -> Bool
  ) -> Bool {
    // Read through the class reference: a snapshot bound out of the optional would be a copy
    // (a retain and a release of each of its references, per section built).
    guard let held = self.template else { return false }
    let s = Int(slot)
    let index = Int(indexOfSlot[s])
    if index >= held.snapshot.order.count - 1 { self.template = nil }
    guard held.snapshot.table === table, index < held.snapshot.order.count, slots[s].nodes.isEmpty, count > 0,
      held.snapshot.slots[Int(held.snapshot.order[index])].id == slots[s].id
    else { return false }
    let template = held.snapshot
    let store = template.slots[Int(template.order[index])]
    let mine = slots[s]
    guard store.nodes.count == count, store.visibility == nil, store.nestedCount == 0,
      store.mark == 0, store.header == mine.header, store.footer == mine.footer, store.kind == mine.kind,
      store.headerMode == mine.headerMode
    else { return false }
    let strings = table.strings()
    // With no item placed yet (and none claimed between edits) no id can be here already.
    let fresh = itemCount == 0
    let matched = strings.withUnsafeBufferPointer { strings in
      let base = strings.baseAddress!
      if fresh {
        return store.nodes.allSatisfy { k, node in
          node.pointee.mark == 0 && matches(k, node, base + Int(node.pointee.id))
        }
      }
      let locations = self.locations
      return store.nodes.allSatisfy { k, node in
        let id = Int(node.pointee.id)
        guard node.pointee.mark == 0, id >= locations.count || locations[id].slot == -1 else { return false }
        return matches(k, node, base + id)
      }
    }
    guard matched else { return false }
    slots[s] = store
    itemCount += count
    if fresh && template.order[index] == slot && count == template.itemCount {
      // The section holds every item of the template, in the same slot: the template's
      // locations are exactly this snapshot's, so its pages are shared instead of rewritten.
      locations = template.locations
    } else {
      if locations.count < strings.count { locations.grow(to: strings.count) }
      relocate(slot, 0..<count)
    }
    return true
  }

  /// Whether a node holds `payload`: by reference, else field by field.
  @inline(__always) static func holds(_ node: UnsafePointer<Node>, _ payload: ItemPayload) -> Bool {
    node.pointee.payload.isIdentical(to: payload) || node.pointee.payload == payload
  }
}
