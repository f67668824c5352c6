// The plain values edits take as input: new items, new sections, outline trees, index paths.

/// A new item: its id and its payload.
public struct ListItem: Hashable, Sendable {
  public var id: String
  public var payload: ItemPayload

  public init(_ id: String, payload: ItemPayload = ItemPayload()) {
    self.id = id
    self.payload = payload
  }
}

/// A new section: its id, header/footer text, kind and header mode.
public struct SectionSpec: Hashable, Sendable {
  public var id: String
  public var header: String?
  public var footer: String?
  /// The section's cell type (the seeds' section controllers chosen by section type); nil: none.
  public var kind: String?
  /// How the header is shown; `supplementary` by default.
  public var headerMode: HeaderMode

  public init(
    _ id: String, header: String? = nil, footer: String? = nil, kind: String? = nil,
    headerMode: HeaderMode = .supplementary
  ) {
    self.id = id
    self.header = header
    self.footer = footer
    self.kind = kind
    self.headerMode = headerMode
  }
}

/// A tree of new items for an outline section, after the seeds' `OutlineItem`.
public struct OutlineNode: Hashable, Sendable {
  public var item: ListItem
  public var children: [OutlineNode]
  /// Whether the node starts expanded (new nodes are collapsed by default, as in UIKit).
  public var isExpanded: Bool
  /// Whether the node takes its expansion from the item of the same id in the snapshot given
  /// to ``ListSnapshot/appendTrees(_:toSection:inheritingExpansionFrom:)`` (then `isExpanded`
  /// is only the fallback, used when that snapshot lacks the item or no snapshot is given).
  public var inheritsExpansion: Bool

  public init(_ item: ListItem, children: [OutlineNode] = [], isExpanded: Bool = false) {
    self.item = item
    self.children = children
    self.isExpanded = isExpanded
    self.inheritsExpansion = false
  }

  /// A node that keeps the expansion its item has in the snapshot given to
  /// ``ListSnapshot/appendTrees(_:toSection:inheritingExpansionFrom:)`` (collapsed when the
  /// item is new), so a caller need not look every id up itself.
  public static func inheritingExpansion(_ item: ListItem, children: [OutlineNode] = []) -> OutlineNode {
    var node = OutlineNode(item, children: children)
    node.inheritsExpansion = true
    return node
  }

  public init(_ id: String, children: [OutlineNode] = [], isExpanded: Bool = false) {
    self.init(ListItem(id), children: children, isExpanded: isExpanded)
  }
}

/// The position of a visible row: section index and row index within the section.
/// (Named so it does not clash with Foundation's `IndexPath`.)
public struct ListIndexPath: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var section: Int
  public var item: Int

  public init(section: Int, item: Int) {
    self.section = section
    self.item = item
  }

  public static func < (lhs: ListIndexPath, rhs: ListIndexPath) -> Bool {
    (lhs.section, lhs.item) < (rhs.section, rhs.item)
  }

  public var description: String { "[\(section), \(item)]" }
}

/// How many items may be selected at once.
public enum SelectionMode: String, Hashable, Sendable, CaseIterable {
  case none
  case single
  case multiple
}
