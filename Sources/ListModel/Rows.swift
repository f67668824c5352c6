// The row list: what a client displays (sections and their visible rows), obtainable from a snapshot.

/// One visible row, with everything a client needs to draw it.
public struct Row: Hashable, Sendable {
  public var id: String
  public var payload: ItemPayload
  /// Outline depth: 0 for roots.
  public var level: Int
  /// The parent item's id, nil for a root.
  public var parent: String?
  public var hasChildren: Bool
  /// The item's own expansion state.
  public var isExpanded: Bool

  public init(
    id: String, payload: ItemPayload = ItemPayload(), level: Int = 0, parent: String? = nil,
    hasChildren: Bool = false, isExpanded: Bool = false
  ) {
    self.id = id
    self.payload = payload
    self.level = level
    self.parent = parent
    self.hasChildren = hasChildren
    self.isExpanded = isExpanded
  }
}

/// A section as a client displays it: id, header, footer and visible rows.
public struct RowSection: Hashable, Sendable {
  public var id: String
  public var header: String?
  public var footer: String?
  /// The section's cell type, if any.
  public var kind: String?
  /// How the header is shown.
  public var headerMode: HeaderMode
  public var rows: [Row]

  public init(
    id: String, header: String? = nil, footer: String? = nil, kind: String? = nil,
    headerMode: HeaderMode = .supplementary, rows: [Row] = []
  ) {
    self.id = id
    self.header = header
    self.footer = footer
    self.kind = kind
    self.headerMode = headerMode
    self.rows = rows
  }
}

/// Everything a client mirrors: sections with their visible rows, and the selected item ids.
/// `apply(diff(a, b), to: a.rows) == b.rows` for any snapshots a and b.
public struct RowList: Hashable, Sendable {
  public var sections: [RowSection]
  public var selected: Set<String>
  /// The list's columns (a changeset's ``Changeset/columns`` replaces them).
  public var columns: [ListColumn]
  /// The list's empty state (a changeset's ``Changeset/emptyState`` replaces it).
  public var emptyState: EmptyState?
  /// Whether the list is in editing mode.
  public var isEditing: Bool

  public init(
    sections: [RowSection] = [], selected: Set<String> = [], columns: [ListColumn] = [],
    emptyState: EmptyState? = nil, isEditing: Bool = false
  ) {
    self.sections = sections
    self.selected = selected
    self.columns = columns
    self.emptyState = emptyState
    self.isEditing = isEditing
  }
}

extension ListSnapshot {
  /// The row list of this snapshot. O(rows + selected items).
  public var rows: RowList {
    let strings = table.strings()
    return RowList(
      sections: order.map { rowSection(slot: $0, strings: strings) },
      selected: Set(selection.map { strings[Int($0)] }), columns: columns, emptyState: emptyState,
      isEditing: isEditing)
  }

  /// The rows of one section. O(rows of the section).
  func rowSection(slot: Int32, strings: [String]) -> RowSection {
    let store = slots[Int(slot)]
    var rows: [Row] = []
    rows.reserveCapacity(store.visibleCount)
    store.forEachVisibleNode { rows.append(Self.row($1, strings: strings)) }
    return RowSection(
      id: strings[Int(store.id)], header: store.header, footer: store.footer, kind: store.kind,
      headerMode: store.headerMode, rows: rows)
  }

  /// The row of a node.
  static func row(_ node: Node, strings: [String]) -> Row {
    Row(
      id: strings[Int(node.id)], payload: node.payload, level: Int(node.level),
      parent: node.parent >= 0 ? strings[Int(node.parent)] : nil, hasChildren: node.hasChildren,
      isExpanded: node.isExpanded)
  }

  /// The row of a node read in place (no copy of the node).
  @inline(__always) static func row(_ node: UnsafePointer<Node>, strings: [String]) -> Row {
    Row(
      id: strings[Int(node.pointee.id)], payload: node.pointee.payload, level: Int(node.pointee.level),
      parent: node.pointee.parent >= 0 ? strings[Int(node.pointee.parent)] : nil,
      hasChildren: node.pointee.size > 1, isExpanded: node.pointee.isExpanded)
  }
}
