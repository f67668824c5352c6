// Payload edits: setting an item's payload (content-equality change detection).

extension ListSnapshot {
  /// The payload of an item, or nil if unknown. O(1).
  public func payload(of id: String) -> ItemPayload? {
    itemID(id).map { node($0).payload }
  }

  /// Sets an item's payload. An equal payload changes nothing; a different one is reported by
  /// the next `diff` as a reconfigure of the row. Making a selected item non-selectable
  /// deselects it. O(1) plus the payload comparison.
  public mutating func setPayload(_ payload: ItemPayload, forItem id: String) throws(ListModelError) {
    let item = try requireItem(id)
    let at = location(item)
    let s = Int(at.slot)
    let position = Int(at.position)
    guard slots[s].nodes[position].payload != payload else { return }
    slots[s].nodes[position].payload = payload
    touch(at.slot)
    if !payload.isSelectable, selection.remove(item) != nil { touchSelection() }
  }

  /// The header of a section, or nil. O(1).
  public func header(ofSection id: String) -> String? {
    sectionSlot(id).flatMap { slots[Int($0)].header }
  }

  /// The footer of a section, or nil. O(1).
  public func footer(ofSection id: String) -> String? {
    sectionSlot(id).flatMap { slots[Int($0)].footer }
  }
}
