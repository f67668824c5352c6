// The payload of an item: content, accessories, actions and flags; not part of the item's identity.
import JSON
import Synchronization

/// What a row shows: text, secondary text, an image name and free-form JSON data.
public struct ItemContent: Hashable, Sendable {
  public var text: String?
  public var secondaryText: String?
  /// An image name (for example an SF Symbol name); the viewer decides how to render it.
  public var image: String?
  /// Free-form data the list's owner attaches to the row.
  public var data: JSONValue?

  public init(
    text: String? = nil, secondaryText: String? = nil, image: String? = nil, data: JSONValue? = nil
  ) {
    self.text = text
    self.secondaryText = secondaryText
    self.image = image
    self.data = data
  }
}

/// Everything an item carries besides its id. Changing it under the same id is reported by
/// `diff` as a reconfigure (content equality), without an explicit `reconfigureItems`.
///
/// Stored behind one shared immutable reference (a small one for text alone, the commonest
/// payload), so copying a payload is O(1), comparing two copies of the same
/// payload is O(1), and comparing two independently built payloads is O(size of their content).
public struct ItemPayload: Hashable, Sendable {
  fileprivate struct Fields: Hashable, Sendable {
    var content = ItemContent()
    var accessories: [PlacedAccessory] = []
    var topSeparator = SeparatorVisibility.automatic
    var bottomSeparator = SeparatorVisibility.automatic
    var leadingSwipeActions: [ListAction] = []
    var trailingSwipeActions: [ListAction] = []
    var contextMenuActions: [ListAction] = []
    var isSelectable = true
    var isMovable = false
    var cells: [String: CellValue] = [:]
    var kind: String?
  }

  /// Where a payload's fields live: one shared immutable object. `@unchecked Sendable`: the
  /// base and both subclasses have only `let` storage.
  private class Storage: @unchecked Sendable {
    var fields: Fields { Fields() }
  }

  /// Any payload's fields, and once asked for (``canonicalBytes(_:)``) their encoded form.
  private final class Box: Storage, @unchecked Sendable {
    let stored: Fields
    /// Set once, by whichever thread asks first; every thread then reads the same bytes.
    let encoded = AtomicLazyReference<CanonicalBytes>()
    init(_ fields: Fields) { self.stored = fields }
    override var fields: Fields { stored }
    static let empty = Box(Fields())
  }

  /// A payload's encoded form, kept with its fields.
  private final class CanonicalBytes: Sendable {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
  }

  /// A payload of text alone (the commonest): 32 bytes, not a whole field set, for each item.
  private final class TextBox: Storage, @unchecked Sendable {
    let text: String
    init(_ text: String) { self.text = text }
    override var fields: Fields { Fields(content: ItemContent(text: text)) }
  }

  private var storage: Storage

  private var fields: Fields { storage.fields }

  /// One field, read in place where the fields are stored whole: `fields` makes a copy of all of
  /// them (a retain and a release of each) to read one.
  @inline(__always) private func field<T>(_ read: (Fields) -> T) -> T {
    if let box = storage as? Box { return read(box.stored) }
    return read(storage.fields)
  }

  /// The storage of `fields`: a text box when it is text alone.
  private static func storage(_ fields: Fields) -> Storage {
    if let text = fields.content.text, fields == Fields(content: ItemContent(text: text)) {
      return TextBox(text)
    }
    return Box(fields)
  }

  /// The empty payload: no content, no accessories, no actions, selectable, not movable.
  public init() { storage = Box.empty }

  /// A payload with the given parts.
  public init(
    content: ItemContent = ItemContent(), accessories: [ListAccessory] = [],
    leadingSwipeActions: [ListAction] = [], trailingSwipeActions: [ListAction] = [],
    contextMenuActions: [ListAction] = [], isSelectable: Bool = true, isMovable: Bool = false,
    cells: [String: CellValue] = [:], kind: String? = nil
  ) {
    storage = Self.storage(
      Fields(
        content: content, accessories: accessories.map { PlacedAccessory($0) },
        leadingSwipeActions: leadingSwipeActions,
        trailingSwipeActions: trailingSwipeActions, contextMenuActions: contextMenuActions,
        isSelectable: isSelectable, isMovable: isMovable, cells: cells, kind: kind))
  }

  /// A payload with its accessories already placed and its separators set, as a decoder reads
  /// it: one storage allocation, where setting them one by one would copy the fields each time.
  public init(
    content: ItemContent, placedAccessories: [PlacedAccessory], leadingSwipeActions: [ListAction],
    trailingSwipeActions: [ListAction], contextMenuActions: [ListAction], isSelectable: Bool, isMovable: Bool,
    cells: [String: CellValue], kind: String?, topSeparator: SeparatorVisibility,
    bottomSeparator: SeparatorVisibility
  ) {
    storage = Self.storage(
      Fields(
        content: content, accessories: placedAccessories, topSeparator: topSeparator,
        bottomSeparator: bottomSeparator, leadingSwipeActions: leadingSwipeActions,
        trailingSwipeActions: trailingSwipeActions, contextMenuActions: contextMenuActions,
        isSelectable: isSelectable, isMovable: isMovable, cells: cells, kind: kind))
  }

  /// A payload with only text content.
  public init(text: String) {
    self.init(content: ItemContent(text: text))
  }

  private mutating func update(_ change: (inout Fields) -> Void) {
    var fields = fields
    change(&fields)
    storage = Self.storage(fields)
  }

  /// Text, secondary text, image name and free-form data.
  public var content: ItemContent {
    get { field { $0.content } }
    set { update { $0.content = newValue } }
  }
  /// Cell accessories, in display order. Setting them gives each its type's placement and
  /// displayed state (``placedAccessories`` sets them too).
  public var accessories: [ListAccessory] {
    get { field { $0.accessories.map(\.accessory) } }
    set { update { $0.accessories = newValue.map { PlacedAccessory($0) } } }
  }
  /// Cell accessories with their placement and displayed state, in display order.
  public var placedAccessories: [PlacedAccessory] {
    get { field { $0.accessories } }
    set { update { $0.accessories = newValue } }
  }
  /// The visibility of the separator above the row (`automatic` by default).
  public var topSeparator: SeparatorVisibility {
    get { field { $0.topSeparator } }
    set { update { $0.topSeparator = newValue } }
  }
  /// The visibility of the separator below the row (`automatic` by default).
  public var bottomSeparator: SeparatorVisibility {
    get { field { $0.bottomSeparator } }
    set { update { $0.bottomSeparator = newValue } }
  }
  /// Actions revealed by swiping from the leading edge.
  public var leadingSwipeActions: [ListAction] {
    get { field { $0.leadingSwipeActions } }
    set { update { $0.leadingSwipeActions = newValue } }
  }
  /// Actions revealed by swiping from the trailing edge.
  public var trailingSwipeActions: [ListAction] {
    get { field { $0.trailingSwipeActions } }
    set { update { $0.trailingSwipeActions = newValue } }
  }
  /// Actions of the item's context menu.
  public var contextMenuActions: [ListAction] {
    get { field { $0.contextMenuActions } }
    set { update { $0.contextMenuActions = newValue } }
  }
  /// Whether the item can be selected. Selecting a non-selectable item throws, and making a
  /// selected item non-selectable deselects it.
  public var isSelectable: Bool {
    get { field { $0.isSelectable } }
    set { update { $0.isSelectable = newValue } }
  }
  /// Whether a viewer may let the user reorder the item. Advisory: the model's own move edits
  /// do not check it.
  public var isMovable: Bool {
    get { field { $0.isMovable } }
    set { update { $0.isMovable = newValue } }
  }

  /// The row's values for the list's columns, by column id (see ``ListColumn``). A column
  /// without a value is an empty cell.
  public var cells: [String: CellValue] {
    get { field { $0.cells } }
    set { update { $0.cells = newValue } }
  }
  /// The cell type that draws the row (the seeds' mixed data sources); nil: the default cell.
  /// A change of kind is reported as a reload, never a reconfigure: a cell cannot be
  /// reconfigured into another class.
  public var kind: String? {
    get { field { $0.kind } }
    set { update { $0.kind = newValue } }
  }

  /// The payload's canonical encoded form: what `encode` makes of it, computed on the first call
  /// and kept with the payload (shared by its copies) for the calls after; nil for a payload of
  /// text alone, which keeps nothing besides its text (decoding it again costs little). The
  /// model never reads the bytes: a protocol layer compares incoming content against them, so
  /// equal payloads are recognised as bytes without being decoded. `encode` must be the same
  /// pure function on every call (the protocol's row encoding of a payload): bytes computed
  /// by another are kept too. O(1) after the first call, else O(encoding).
  public func canonicalBytes(_ encode: (ItemPayload) -> [UInt8]) -> [UInt8]? {
    guard let box = storage as? Box else { return nil }
    if let kept = box.encoded.load() { return kept.bytes }
    return box.encoded.storeIfNil(CanonicalBytes(encode(self))).bytes
  }

  /// Whether this payload has exactly these parts (as
  /// ``init(content:placedAccessories:leadingSwipeActions:trailingSwipeActions:contextMenuActions:isSelectable:isMovable:cells:kind:topSeparator:bottomSeparator:)``
  /// takes them): equal to the payload they would make, told without making it, so that a
  /// decoder can keep a payload it already has. O(size of content).
  public func holds(
    content: ItemContent, placedAccessories: [PlacedAccessory], leadingSwipeActions: [ListAction],
    trailingSwipeActions: [ListAction], contextMenuActions: [ListAction], isSelectable: Bool, isMovable: Bool,
    cells: [String: CellValue], kind: String?, topSeparator: SeparatorVisibility,
    bottomSeparator: SeparatorVisibility
  ) -> Bool {
    // The fields' own equality, so a field added to them is compared here too.
    field { fields in
      fields
        == Fields(
          content: content, accessories: placedAccessories, topSeparator: topSeparator,
          bottomSeparator: bottomSeparator, leadingSwipeActions: leadingSwipeActions,
          trailingSwipeActions: trailingSwipeActions, contextMenuActions: contextMenuActions,
          isSelectable: isSelectable, isMovable: isMovable, cells: cells, kind: kind)
    }
  }

  /// Whether two payloads share storage: if so they are equal. O(1).
  public func isIdentical(to other: ItemPayload) -> Bool { storage === other.storage }

  /// Content equality. O(1) for copies of one payload, else O(size of content).
  public static func == (lhs: ItemPayload, rhs: ItemPayload) -> Bool {
    if lhs.isIdentical(to: rhs) { return true }
    if let left = lhs.storage as? Box, let right = rhs.storage as? Box { return left.stored == right.stored }
    return lhs.fields == rhs.fields
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(fields)
  }
}
