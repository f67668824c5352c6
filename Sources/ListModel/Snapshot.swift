// ListSnapshot: the value type holding a list's sections, items, outlines, expansion and selection.

/// Where an item lives in a snapshot: the slot of its section and its preorder position
/// (resolved from its ``StoredLocation``).
struct ItemLocation: Sendable, Equatable {
  /// Section slot, or -1 when the item is not in the snapshot (-2 while an edit claims it).
  var slot: Int32
  var position: Int32

  static let absent = ItemLocation(slot: -1, position: -1)
  static let claimed = ItemLocation(slot: -2, position: -1)
}

/// The state of one list: ordered sections with unique ids, items with ids unique across the
/// whole list, their payloads, outline structure, expansion state and selection.
///
/// A value type with copy-on-write storage; `Sendable`. Copies share the id interning table, so
/// a `diff` between a snapshot and one derived from it compares integers only, and sections a
/// change did not touch are recognised in O(1) (and, inside a long section it touched, the
/// chunks it did not). Only visible rows (every ancestor expanded)
/// occupy index paths.
///
/// Every edit either succeeds or throws a ``ListModelError`` and leaves the snapshot exactly as
/// it was. Unless stated otherwise, n is the number of items in the sections an edit touches
/// and k the number of ids it names. A section's nodes live in chunks of up to 1,024, and item
/// locations in pages of 1,024, shared between copies: editing a snapshot whose storage is
/// shared first copies only the chunks and pages it writes, and the group of 64 of the
/// section's list of chunks (and of the list of pages) they are in (``GroupedReferences``), so
/// a version costs what it changes, not the list's size.
public struct ListSnapshot: Sendable {
  /// The interning table shared with every snapshot derived from this one.
  let table: IdentifierTable
  /// Section storage by slot; display order is `order`. Free slots hold `SectionStore.free`.
  var slots: [SectionStore] = []
  /// Slot of each section, in display order.
  var order: [Int32] = []
  /// Display index of each slot, -1 for a free slot.
  var indexOfSlot: [Int32] = []
  /// Free slots, reused by new sections.
  var freeSlots: [Int32] = []
  /// Slot of each section id.
  var slotOfSection: [Int32: Int32] = [:]
  /// Location of each item, indexed by interned id.
  var locations = LocationPages()
  /// Number of items (hidden ones included).
  var itemCount = 0
  /// Selected item ids (always visible, selectable items).
  var selection: Set<Int32> = []
  /// Changes whenever `selection` changes.
  var selectionStamp: UInt64 = 0
  /// How many items may be selected at once.
  public internal(set) var selectionMode: SelectionMode
  /// The list's table columns; every cell of every item names one of them.
  public internal(set) var columns: [ListColumn] = []
  /// What a viewer shows when the list has no rows; nil: nothing in particular.
  public internal(set) var emptyState: EmptyState?
  /// Whether the list is in editing mode (accessories shown `whenEditing`, …).
  public internal(set) var isEditing = false
  /// The snapshot this one was started from, while it is built (see ``BuildTemplate``).
  var template: BuildTemplate?

  /// An empty snapshot with its own new id table.
  public init(selectionMode: SelectionMode = .multiple) {
    self.table = IdentifierTable()
    self.selectionMode = selectionMode
  }

  /// An empty snapshot sharing `other`'s id table, so diffs between the two stay integer-only,
  /// and `other`'s list attributes (columns, empty state, editing), so content built on it is
  /// checked against them and keeps them.
  ///
  /// Content rebuilt equal costs a comparison: a section appended whole (one `appendItems`,
  /// `appendTrees` of leaves) with exactly what `other` holds at the same place (section id,
  /// header, footer, kind, item ids, payloads, expansion; no reload mark) takes over `other`'s
  /// storage for it, interning and placing nothing, and `diff(other, self)` skips it in O(1).
  /// O(1).
  public init(sharingIdentifiersWith other: ListSnapshot, selectionMode: SelectionMode = .multiple) {
    self.table = other.table
    self.selectionMode = selectionMode
    self.columns = other.columns
    self.emptyState = other.emptyState
    self.isEditing = other.isEditing
    self.template = BuildTemplate(other)
  }

  /// Whether `other` shares this snapshot's id table (diffs between them never hash strings).
  public func sharesIdentifiers(with other: ListSnapshot) -> Bool { table === other.table }

  // MARK: - Internal lookups

  /// The location of an interned item id. O(1).
  @inline(__always) func location(_ id: Int32) -> ItemLocation {
    let index = Int(id)
    guard index >= 0 && index < locations.count else { return .absent }
    let stored = locations[index]
    guard stored.slot >= 0 else { return stored.slot == -1 ? .absent : .claimed }
    let position = slots[Int(stored.slot)].nodes.position(serial: stored.chunk, offset: stored.offset)
    return ItemLocation(slot: stored.slot, position: Int32(position))
  }

  /// The location and node of an interned id, or nil if it is not an item. O(1), without the
  /// position search a node read by position costs.
  @inline(__always) func placed(_ id: Int32) -> (location: ItemLocation, node: Node)? {
    let index = Int(id)
    guard index >= 0 && index < locations.count else { return nil }
    let stored = locations[index]
    guard stored.slot >= 0 else { return nil }
    let (position, node) = slots[Int(stored.slot)].nodes.resolve(serial: stored.chunk, offset: stored.offset)
    return (ItemLocation(slot: stored.slot, position: Int32(position)), node)
  }

  /// `body(location, node)` with the location and node of an interned id, the node read in
  /// place (no copy, no retain of its payload); nil if it is not an item. O(1), as ``placed(_:)``.
  @inline(__always) func withPlaced<R>(_ id: Int32, _ body: (ItemLocation, UnsafePointer<Node>) -> R) -> R? {
    let index = Int(id)
    guard index >= 0 && index < locations.count else { return nil }
    let stored = locations[index]
    guard stored.slot >= 0 else { return nil }
    return slots[Int(stored.slot)].nodes.withNode(serial: stored.chunk, offset: stored.offset) {
      position, node in
      body(ItemLocation(slot: stored.slot, position: Int32(position)), node)
    }
  }

  /// Records where the nodes at `positions` of section `slot` now are. O(positions + log chunks).
  mutating func relocate(_ slot: Int32, _ positions: Range<Int>) {
    var writes: [(id: Int32, location: StoredLocation)] = []
    writes.reserveCapacity(positions.count)
    slots[Int(slot)].nodes.forEachPlacement(in: positions) { serial, offset, id in
      writes.append((id, StoredLocation(slot: slot, chunk: serial, offset: offset)))
    }
    locations.set(writes)
  }

  /// The interned id of an item string, if the item is in the snapshot. O(1) (one hash).
  func itemID(_ string: String) -> Int32? {
    guard let id = table.lookup(string), location(id).slot >= 0 else { return nil }
    return id
  }

  /// The interned id of an item string, or an `unknownItem` error.
  func requireItem(_ string: String) throws(ListModelError) -> Int32 {
    guard let id = itemID(string) else { throw ListModelError(.unknownItem(string)) }
    return id
  }

  /// The slot of a section string, if present. O(1) (one hash).
  func sectionSlot(_ string: String) -> Int32? {
    guard let id = table.lookup(string) else { return nil }
    return slotOfSection[id]
  }

  /// The slot of a section string, or an `unknownSection` error.
  func requireSection(_ string: String) throws(ListModelError) -> Int32 {
    guard let slot = sectionSlot(string) else { throw ListModelError(.unknownSection(string)) }
    return slot
  }

  /// The node of a present item. O(1).
  func node(_ id: Int32) -> Node {
    let location = location(id)
    return slots[Int(location.slot)].nodes[Int(location.position)]
  }

  /// The string of an interned id. O(1) (takes the table's lock).
  func string(_ id: Int32) -> String { table.string(id) }

  /// Grows `locations` so `id` can be indexed.
  mutating func ensureLocationCapacity(_ id: Int32) {
    let needed = Int(id) + 1
    if locations.count < needed { locations.grow(to: max(needed, table.count)) }
  }

  /// Gives section `slot` a fresh stamp, recording that its contents changed.
  mutating func touch(_ slot: Int32) {
    slots[Int(slot)].stamp = table.nextStamp()
  }

  /// Records a selection change.
  mutating func touchSelection() {
    selectionStamp = table.nextStamp()
  }
}
