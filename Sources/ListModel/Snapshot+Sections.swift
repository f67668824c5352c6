// Section edits: append, insert before/after, delete, move, reload, header and footer.

extension ListSnapshot {
  /// Checks and interns new section ids: none may exist or repeat. O(k).
  private func newSectionIDs(_ sections: [SectionSpec]) throws(ListModelError) -> [Int32] {
    let ids = table.intern(sections.map(\.id))
    // An id already in the list is reported before one repeated within the batch.
    for (index, id) in ids.enumerated() where slotOfSection[id] != nil {
      throw ListModelError(.duplicateSection(sections[index].id))
    }
    guard ids.count > 1 else { return ids }
    var seen = Set<Int32>(minimumCapacity: ids.count)
    for (index, id) in ids.enumerated() where !seen.insert(id).inserted {
      throw ListModelError(.duplicateSection(sections[index].id))
    }
    return ids
  }

  /// Recomputes the display index of every slot. O(sections).
  private mutating func reindexSections() {
    indexOfSlot = [Int32](repeating: -1, count: slots.count)
    for (index, slot) in order.enumerated() { indexOfSlot[Int(slot)] = Int32(index) }
  }

  private mutating func insertSections(_ sections: [SectionSpec], ids: [Int32], at index: Int) {
    if slots.isEmpty, let template {
      // A snapshot built on a template mostly gets as many sections: room for them at once,
      // not regrown (and the section map rehashed) as a list of many short sections is built
      // one section at a time.
      let expected = Swift.max(template.snapshot.order.count, sections.count)
      slots.reserveCapacity(expected)
      order.reserveCapacity(expected)
      indexOfSlot.reserveCapacity(expected)
      slotOfSection.reserveCapacity(expected)
    }
    var newSlots: [Int32] = []
    for (spec, id) in zip(sections, ids) {
      var store = SectionStore(id: id, header: spec.header, footer: spec.footer, stamp: table.nextStamp())
      store.kind = spec.kind
      store.headerMode = spec.headerMode
      let slot: Int32
      if let free = freeSlots.popLast() {
        slot = free
        slots[Int(slot)] = store
      } else {
        slot = Int32(slots.count)
        slots.append(store)
      }
      slotOfSection[id] = slot
      newSlots.append(slot)
    }
    if index == order.count {
      // At the end: the display index of every other slot stays (a list built section by
      // section would otherwise reindex every section per section).
      order.append(contentsOf: newSlots)
      if indexOfSlot.count < slots.count {
        indexOfSlot.append(contentsOf: repeatElement(-1, count: slots.count - indexOfSlot.count))
      }
      for (k, slot) in newSlots.enumerated() { indexOfSlot[Int(slot)] = Int32(index + k) }
      return
    }
    order.insert(contentsOf: newSlots, at: index)
    reindexSections()
  }

  /// Appends sections at the end. O(k + sections).
  public mutating func appendSections(_ sections: [SectionSpec]) throws(ListModelError) {
    let ids = try newSectionIDs(sections)
    insertSections(sections, ids: ids, at: order.count)
  }

  /// Appends sections with the given ids and no header or footer. O(k + sections).
  public mutating func appendSections(_ ids: [String]) throws(ListModelError) {
    try appendSections(ids.map { SectionSpec($0) })
  }

  /// Inserts sections before the section `before`. O(k + sections).
  public mutating func insertSections(_ sections: [SectionSpec], before: String) throws(ListModelError) {
    let anchor = try requireSection(before)
    let ids = try newSectionIDs(sections)
    insertSections(sections, ids: ids, at: Int(indexOfSlot[Int(anchor)]))
  }

  /// Inserts sections after the section `after`. O(k + sections).
  public mutating func insertSections(_ sections: [SectionSpec], after: String) throws(ListModelError) {
    let anchor = try requireSection(after)
    let ids = try newSectionIDs(sections)
    insertSections(sections, ids: ids, at: Int(indexOfSlot[Int(anchor)]) + 1)
  }

  /// Deletes sections and all their items (which also leave the selection).
  /// O(k + items of the deleted sections + sections).
  public mutating func deleteSections(_ ids: [String]) throws(ListModelError) {
    var doomed: [Int32] = []
    for id in ids {
      let slot = try requireSection(id)
      if !doomed.contains(slot) { doomed.append(slot) }
    }
    var deselected = false
    for slot in doomed {
      let store = slots[Int(slot)]
      for node in store.nodes {
        locations[Int(node.id)] = .absent
        if !selection.isEmpty, selection.remove(node.id) != nil { deselected = true }
      }
      itemCount -= store.nodes.count
      slotOfSection[store.id] = nil
      slots[Int(slot)] = .free
      freeSlots.append(slot)
    }
    if deselected { touchSelection() }
    let doomedSet = Set(doomed)
    order.removeAll { doomedSet.contains($0) }
    reindexSections()
  }

  /// Moves a section before another. O(sections).
  public mutating func moveSection(_ id: String, before: String) throws(ListModelError) {
    try moveSection(id, relativeTo: before, offset: 0)
  }

  /// Moves a section after another. O(sections).
  public mutating func moveSection(_ id: String, after: String) throws(ListModelError) {
    try moveSection(id, relativeTo: after, offset: 1)
  }

  private mutating func moveSection(_ id: String, relativeTo anchor: String, offset: Int)
    throws(ListModelError)
  {
    let moving = try requireSection(id)
    let target = try requireSection(anchor)
    if moving == target { throw ListModelError(.sectionMovedRelativeToItself(id)) }
    order.remove(at: Int(indexOfSlot[Int(moving)]))
    let index = order.firstIndex(of: target)! + offset
    order.insert(moving, at: index)
    reindexSections()
  }

  /// Marks sections for reload: the next `diff` against a snapshot from before the mark reports
  /// them in `sectionReloads` (with their header and footer) even if those did not change.
  /// Their rows are diffed as usual. O(k).
  public mutating func reloadSections(_ ids: [String]) throws(ListModelError) {
    var marked: [Int32] = []
    for id in ids { marked.append(try requireSection(id)) }
    for slot in marked {
      slots[Int(slot)].mark = table.nextStamp() | 1
      touch(slot)
    }
  }

  /// Sets a section's header text (nil removes it). A change is reported as a section reload.
  /// O(1).
  public mutating func setHeader(_ header: String?, forSection id: String) throws(ListModelError) {
    let slot = try requireSection(id)
    guard slots[Int(slot)].header != header else { return }
    slots[Int(slot)].header = header
    touch(slot)
  }

  /// Sets a section's footer text (nil removes it). A change is reported as a section reload.
  /// O(1).
  public mutating func setFooter(_ footer: String?, forSection id: String) throws(ListModelError) {
    let slot = try requireSection(id)
    guard slots[Int(slot)].footer != footer else { return }
    slots[Int(slot)].footer = footer
    touch(slot)
  }

  /// Sets a section's header and/or footer: `nil` keeps that field, `.some(nil)` removes it. The
  /// section must exist even when both are kept (then nothing changes). O(1).
  public mutating func updateSection(_ id: String, header: String??, footer: String??)
    throws(ListModelError)
  {
    let slot = try requireSection(id)
    var changed = false
    if let header, slots[Int(slot)].header != header {
      slots[Int(slot)].header = header
      changed = true
    }
    if let footer, slots[Int(slot)].footer != footer {
      slots[Int(slot)].footer = footer
      changed = true
    }
    if changed { touch(slot) }
  }

  /// Sets a section's kind and/or header mode: `nil` keeps that field (`kind: .some(nil)`
  /// removes the kind). A change is reported as a section reload. The section must exist even
  /// when both are kept. O(1).
  public mutating func updateSectionStyle(_ id: String, kind: String??, headerMode: HeaderMode?)
    throws(ListModelError)
  {
    let slot = try requireSection(id)
    var changed = false
    if let kind, slots[Int(slot)].kind != kind {
      slots[Int(slot)].kind = kind
      changed = true
    }
    if let headerMode, slots[Int(slot)].headerMode != headerMode {
      slots[Int(slot)].headerMode = headerMode
      changed = true
    }
    if changed { touch(slot) }
  }

  /// The kind of a section, or nil. O(1).
  public func kind(ofSection id: String) -> String? {
    sectionSlot(id).flatMap { slots[Int($0)].kind }
  }

  /// The header mode of a section (`supplementary` for an unknown one). O(1).
  public func headerMode(ofSection id: String) -> HeaderMode {
    sectionSlot(id).map { slots[Int($0)].headerMode } ?? .supplementary
  }
}
