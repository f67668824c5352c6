// The edits of an edit script: the protocol's list/edit operations as plain data, one case per wire op.

/// One edit of an edit script (``ListSnapshot/editScript(from:to:)``): an operation of the
/// protocol's `list/edit`, named and shaped as on the wire, so that encoding it is one object
/// and the daemon decodes it back into ``edits``.
public enum ScriptEdit: Hashable, Sendable {
  /// Where inserted or moved sections and items go, relative to a sibling.
  public enum Anchor: Hashable, Sendable {
    case before(String)
    case after(String)
  }

  /// Where `moveItem` puts an item.
  public enum Destination: Hashable, Sendable {
    /// Just before or after a sibling.
    case sibling(Anchor)
    /// The end of a section's roots.
    case section(String)
    /// The end of an item's children.
    case parent(String)
  }

  /// `appendSections` (without items).
  case appendSections([SectionSpec])
  /// `insertSections` (without items).
  case insertSections([SectionSpec], Anchor)
  case deleteSections([String])
  case moveSection(String, Anchor)
  /// `updateSection`: `nil` keeps a field, `.some(nil)` clears it (`headerMode` cannot be cleared).
  case updateSection(
    String, header: String??, footer: String??, kind: String?? = nil, headerMode: HeaderMode? = nil)
  case reloadSections([String])
  /// `appendItems` with trees, to the end of a section's roots.
  case appendItems([OutlineNode], section: String)
  /// `insertItems` with trees, as siblings of the anchor.
  case insertItems([OutlineNode], Anchor)
  /// `appendChildren` with trees.
  case appendChildren([OutlineNode], parent: String)
  case moveItem(String, Destination)
  case deleteItems([String])
  /// `updateItems`: each item's whole payload.
  case updateItems([ListItem])
  case expand(String)
  case collapse(String)
  case select([String])
  case deselect([String])
  case reloadItems([String])
  case reconfigureItems([String])
  /// `setColumns`: all of the list's columns.
  case setColumns([ListColumn])
  /// `setEmptyState`: nil removes it.
  case setEmptyState(EmptyState?)
  /// `setEditing`.
  case setEditing(Bool)

  /// The model edits the daemon decodes this wire edit into (as `EditDecoding` does).
  public var edits: [ListEdit] {
    switch self {
    case .appendSections(let specs): return [.appendSections(specs)]
    case .insertSections(let specs, .before(let anchor)):
      return [.insertSectionsBefore(specs, section: anchor)]
    case .insertSections(let specs, .after(let anchor)): return [.insertSectionsAfter(specs, section: anchor)]
    case .deleteSections(let ids): return [.deleteSections(ids)]
    case .moveSection(let id, .before(let anchor)): return [.moveSectionBefore(id, section: anchor)]
    case .moveSection(let id, .after(let anchor)): return [.moveSectionAfter(id, section: anchor)]
    case .updateSection(let id, let header, let footer, let kind, let headerMode):
      var edits: [ListEdit] = [.updateSection(id, header: header, footer: footer)]
      if kind != nil || headerMode != nil {
        edits.append(.updateSectionStyle(id, kind: kind, headerMode: headerMode))
      }
      return edits
    case .reloadSections(let ids): return [.reloadSections(ids)]
    case .appendItems(let trees, let section): return [.appendTrees(trees, section: section)]
    case .insertItems(let trees, let anchor):
      // As the decoder does: the items, then each one's children, then the expanded ones.
      let items = trees.map(\.item)
      var edits: [ListEdit]
      switch anchor {
      case .before(let id): edits = [.insertItemsBefore(items, item: id)]
      case .after(let id): edits = [.insertItemsAfter(items, item: id)]
      }
      for tree in trees where !tree.children.isEmpty {
        edits.append(.appendChildTrees(tree.children, parent: tree.item.id))
      }
      for tree in trees where tree.isExpanded { edits.append(.expand([tree.item.id])) }
      return edits
    case .appendChildren(let trees, let parent): return [.appendChildTrees(trees, parent: parent)]
    case .moveItem(let id, .sibling(.before(let anchor))): return [.moveItemBefore(id, item: anchor)]
    case .moveItem(let id, .sibling(.after(let anchor))): return [.moveItemAfter(id, item: anchor)]
    case .moveItem(let id, .section(let section)): return [.moveItemToSection(id, section: section)]
    case .moveItem(let id, .parent(let parent)): return [.moveItemToParent(id, parent: parent)]
    case .deleteItems(let ids): return [.deleteItems(ids)]
    case .updateItems(let items): return items.map { .setPayload(item: $0.id, payload: $0.payload) }
    case .expand(let id): return [.expand([id])]
    case .collapse(let id): return [.collapse([id])]
    case .select(let ids): return [.select(ids)]
    case .deselect(let ids): return [.deselect(ids)]
    case .reloadItems(let ids): return [.reloadItems(ids)]
    case .reconfigureItems(let ids): return [.reconfigureItems(ids)]
    case .setColumns(let columns): return [.setColumns(columns)]
    case .setEmptyState(let state): return [.setEmptyState(state)]
    case .setEditing(let editing): return [.setEditing(editing)]
    }
  }
}
