// A snapshot's whole content as plain values, section by section in preorder: what content formats are written from.

extension ListSnapshot {
  /// One item of ``contentSections``.
  public struct ContentItem: Sendable, Equatable {
    public let id: String
    /// Outline depth, 0 for roots.
    public let level: Int
    public let payload: ItemPayload
    /// The item's own expansion state (kept while an ancestor is collapsed; leaves have one too).
    public let isExpanded: Bool
  }

  /// One section of ``contentSections``.
  public struct ContentSection: Sendable, Equatable {
    public let id: String
    public let header: String?
    public let footer: String?
    public let kind: String?
    public let headerMode: HeaderMode
    /// Every item of the section, hidden ones included, in preorder (a node's subtree follows
    /// it, one level deeper).
    public let items: [ContentItem]
  }

  /// Every section with every item, in order. O(items), reading the id table once.
  public var contentSections: [ContentSection] {
    let strings = table.strings()
    return order.map { slot in
      let store = slots[Int(slot)]
      return ContentSection(
        id: strings[Int(store.id)], header: store.header, footer: store.footer, kind: store.kind,
        headerMode: store.headerMode,
        items: store.nodes.map {
          ContentItem(
            id: strings[Int($0.id)], level: Int($0.level), payload: $0.payload, isExpanded: $0.isExpanded)
        })
    }
  }
}
