// Edits as data: one case per snapshot operation, and the atomic batch `apply`.

/// One edit of a snapshot, as plain data (the daemon decodes JSON into these). Each case calls
/// the snapshot method of the same name; see those for semantics and complexity.
public enum ListEdit: Hashable, Sendable {
  // Sections
  case appendSections([SectionSpec])
  case insertSectionsBefore([SectionSpec], section: String)
  case insertSectionsAfter([SectionSpec], section: String)
  case deleteSections([String])
  case moveSectionBefore(String, section: String)
  case moveSectionAfter(String, section: String)
  case reloadSections([String])
  case setSectionHeader(section: String, header: String?)
  case setSectionFooter(section: String, footer: String?)
  /// Sets a section's header and footer: `nil` keeps one, `.some(nil)` removes it. The section
  /// must exist even when both are kept.
  case updateSection(String, header: String??, footer: String??)
  /// Sets a section's kind and header mode: `nil` keeps one (`kind: .some(nil)` removes it).
  case updateSectionStyle(String, kind: String??, headerMode: HeaderMode?)

  // Items
  /// Appends items to a section (the last one if nil).
  case appendItems([ListItem], section: String?)
  case insertItemsBefore([ListItem], item: String)
  case insertItemsAfter([ListItem], item: String)
  case deleteItems([String])
  /// Deletes every item and section (as UIKit's `deleteAllItems`).
  case deleteAllItems
  case moveItemBefore(String, item: String)
  case moveItemAfter(String, item: String)
  case reloadItems([String])
  case reconfigureItems([String])
  case replaceItems([ListItem], section: String)
  /// Replaces a section's items with trees; see ``ListSnapshot/replaceItems(_:inSection:)-(OutlineNode)``.
  case replaceItemTrees([OutlineNode], section: String)
  case setPayload(item: String, payload: ItemPayload)

  // Outline
  case appendChildren([ListItem], parent: String)
  /// Appends trees as roots of a section (the last one if nil).
  case appendTrees([OutlineNode], section: String?)
  case appendChildTrees([OutlineNode], parent: String)
  case moveItemToParent(String, parent: String)
  case moveItemToSection(String, section: String)
  case expand([String])
  case collapse([String])
  case expandSubtree(String)
  case collapseSubtree(String)
  /// Expands every item of a section (every section if nil).
  case expandAll(section: String?)
  /// Collapses every item of a section (every section if nil).
  case collapseAll(section: String?)
  /// Shows exactly the rows of levels 0...level of a section (every section if nil).
  case expandToLevel(Int, section: String?)

  // Selection
  case select([String])
  case deselect([String])
  case selectAll
  case deselectAll
  case setSelectionMode(SelectionMode)

  // List attributes
  case setColumns([ListColumn])
  /// Sets (nil: removes) the empty state.
  case setEmptyState(EmptyState?)
  case setEditing(Bool)
}

extension ListSnapshot {
  /// Applies a batch of edits atomically: if one throws, the snapshot is exactly as before and
  /// the error's `editIndex` names the failing edit. A reload or reconfigure in the batch holds
  /// for the item whatever later edits of the batch do to it, as long as it exists at the end. O(sum of the edits' costs); a batch of
  /// more than one edit also keeps the old storage alive while it runs, so its first write to
  /// each touched array copies it (a single edit validates before writing and needs no copy).
  public mutating func apply(_ edits: [ListEdit]) throws(ListModelError) {
    if edits.count == 1 {
      do throws(ListModelError) {
        try apply(edits[0])
      } catch {
        throw ListModelError(error.kind, editIndex: 0)
      }
      return
    }
    let backup = self
    for (index, edit) in edits.enumerated() {
      do throws(ListModelError) {
        try apply(edit)
      } catch {
        self = backup
        throw ListModelError(error.kind, editIndex: index)
      }
    }
    remarkReloadedItems(of: edits)
  }

  /// Applies one edit; atomic (on error nothing changed). Items it brings must have cells only
  /// for the list's columns.
  public mutating func apply(_ edit: ListEdit) throws(ListModelError) {
    try checkCells(of: edit)
    switch edit {
    case .appendSections(let sections): try appendSections(sections)
    case .insertSectionsBefore(let sections, let anchor): try insertSections(sections, before: anchor)
    case .insertSectionsAfter(let sections, let anchor): try insertSections(sections, after: anchor)
    case .deleteSections(let ids): try deleteSections(ids)
    case .moveSectionBefore(let id, let anchor): try moveSection(id, before: anchor)
    case .moveSectionAfter(let id, let anchor): try moveSection(id, after: anchor)
    case .reloadSections(let ids): try reloadSections(ids)
    case .setSectionHeader(let section, let header): try setHeader(header, forSection: section)
    case .setSectionFooter(let section, let footer): try setFooter(footer, forSection: section)
    case .updateSection(let section, let header, let footer):
      try updateSection(section, header: header, footer: footer)
    case .updateSectionStyle(let section, let kind, let headerMode):
      try updateSectionStyle(section, kind: kind, headerMode: headerMode)
    case .appendItems(let items, let section): try appendItems(items, toSection: section)
    case .insertItemsBefore(let items, let anchor): try insertItems(items, before: anchor)
    case .insertItemsAfter(let items, let anchor): try insertItems(items, after: anchor)
    case .deleteItems(let ids): try deleteItems(ids)
    case .deleteAllItems: deleteAllItems()
    case .moveItemBefore(let id, let anchor): try moveItem(id, before: anchor)
    case .moveItemAfter(let id, let anchor): try moveItem(id, after: anchor)
    case .reloadItems(let ids): try reloadItems(ids)
    case .reconfigureItems(let ids): try reconfigureItems(ids)
    case .replaceItems(let items, let section): try replaceItems(items, inSection: section)
    case .replaceItemTrees(let trees, let section): try replaceItems(trees, inSection: section)
    case .setPayload(let item, let payload): try setPayload(payload, forItem: item)
    case .appendChildren(let items, let parent): try appendChildren(items, to: parent)
    case .appendTrees(let trees, let section): try appendTrees(trees, toSection: section)
    case .appendChildTrees(let trees, let parent): try appendTrees(trees, under: parent)
    case .moveItemToParent(let id, let parent): try moveItem(id, toParent: parent)
    case .moveItemToSection(let id, let section): try moveItem(id, toSection: section)
    case .expand(let ids): try expand(ids)
    case .collapse(let ids): try collapse(ids)
    case .expandSubtree(let id): try expandSubtree(id)
    case .collapseSubtree(let id): try collapseSubtree(id)
    case .expandAll(let section): try expandAll(inSection: section)
    case .collapseAll(let section): try collapseAll(inSection: section)
    case .expandToLevel(let level, let section): try expand(toLevel: level, inSection: section)
    case .select(let ids): try select(ids)
    case .deselect(let ids): try deselect(ids)
    case .selectAll: try selectAll()
    case .deselectAll: deselectAll()
    case .setSelectionMode(let mode): setSelectionMode(mode)
    case .setColumns(let columns): try setColumns(columns)
    case .setEmptyState(let state): setEmptyState(state)
    case .setEditing(let editing): setEditing(editing)
    }
  }
}
