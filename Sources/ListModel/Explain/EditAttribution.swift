// Which edit of a batch touched an item or section, by the kind of change it can cause.

/// The edits of a batch indexed by what they name: for each item or section and each family of
/// change, the last edit that could have caused such a change of it.
struct EditAttribution {
  /// The kinds of change an edit can cause to what it names.
  enum Family: UInt8 {
    case insert, delete, move, reload, reconfigure, payload, expand, collapse, select, deselect
    /// A change of an item's children (its `hasChildren`).
    case children
    case sectionInsert, sectionDelete, sectionMove, sectionReload, sectionHeader
    case mode, columns, emptyState, editing
  }

  private struct Key: Hashable {
    var id: String
    var family: Family
  }

  private var items: [Key: Int] = [:]
  /// Edits scoped to a section (by section id): delete, expand, collapse, children.
  private var sections: [Key: Int] = [:]
  /// Edits that name nothing (`deleteAllItems`, `expandAll` of every section, `selectAll`…).
  private var global: [Family: Int] = [:]

  /// Indexes `edits`, applied to `old`. O(total size of the edits' operands).
  init(_ edits: [ListEdit], old: ListSnapshot) {
    var parents: [String: String?] = [:]  // items' parents as the batch goes, when known
    func parent(of id: String) -> String? {
      if let known = parents[id] { return known }
      return old.parent(of: id)
    }
    for (k, edit) in edits.enumerated() {
      func item(_ id: String, _ families: Family...) {
        for family in families { items[Key(id: id, family: family)] = k }
      }
      func section(_ id: String, _ families: Family...) {
        for family in families { sections[Key(id: id, family: family)] = k }
      }
      func scoped(_ id: String?, _ families: Family...) {
        for family in families {
          if let id { sections[Key(id: id, family: family)] = k } else { global[family] = k }
        }
      }
      func children(of id: String) {
        if let parent = parent(of: id) { item(parent, .children) }
      }
      func inserted(_ trees: [OutlineNode], parent: String?) {
        for tree in trees {
          item(tree.item.id, .insert, .payload, .move)
          parents[tree.item.id] = .some(parent)
          inserted(tree.children, parent: tree.item.id)
        }
      }
      switch edit {
      case .appendSections(let specs), .insertSectionsBefore(let specs, _),
        .insertSectionsAfter(let specs, _):
        for spec in specs { section(spec.id, .sectionInsert) }
      case .deleteSections(let ids):
        for id in ids { section(id, .sectionDelete, .delete, .deselect) }
      case .moveSectionBefore(let id, _), .moveSectionAfter(let id, _): section(id, .sectionMove)
      case .reloadSections(let ids): for id in ids { section(id, .sectionReload) }
      case .setSectionHeader(let id, _), .setSectionFooter(let id, _), .updateSection(let id, _, _):
        section(id, .sectionHeader)
      case .appendItems(let list, _), .insertItemsBefore(let list, _), .insertItemsAfter(let list, _):
        for entry in list { item(entry.id, .insert) }
      case .appendChildren(let list, let parentID):
        item(parentID, .children)
        for entry in list {
          item(entry.id, .insert)
          parents[entry.id] = .some(parentID)
        }
      case .appendTrees(let trees, _): inserted(trees, parent: nil)
      case .appendChildTrees(let trees, let parentID):
        item(parentID, .children)
        inserted(trees, parent: parentID)
      case .replaceItems(let list, let id):
        section(id, .delete, .deselect, .children, .expand, .collapse)
        for entry in list { item(entry.id, .insert, .payload, .move) }
      case .replaceItemTrees(let trees, let id):
        section(id, .delete, .deselect, .children, .expand, .collapse)
        inserted(trees, parent: nil)
      case .deleteItems(let ids):
        for id in ids {
          item(id, .delete, .deselect)
          children(of: id)
        }
      case .deleteAllItems:
        for family in [Family.delete, .sectionDelete, .deselect] { global[family] = k }
      case .moveItemBefore(let id, let anchor), .moveItemAfter(let id, let anchor):
        item(id, .move)
        children(of: id)
        if let parent = parent(of: anchor) { item(parent, .children) }
        parents[id] = .some(parent(of: anchor))
      case .moveItemToParent(let id, let parentID):
        item(id, .move)
        children(of: id)
        item(parentID, .children)
        parents[id] = .some(parentID)
      case .moveItemToSection(let id, _):
        item(id, .move)
        children(of: id)
        parents[id] = .some(nil)
      case .reloadItems(let ids): for id in ids { item(id, .reload) }
      case .reconfigureItems(let ids): for id in ids { item(id, .reconfigure) }
      case .setPayload(let id, _): item(id, .payload, .deselect)
      default: break
      }
      switch edit {
      case .expand(let ids): for id in ids { item(id, .expand) }
      case .collapse(let ids): for id in ids { item(id, .collapse, .deselect) }
      case .expandSubtree(let id): item(id, .expand)
      case .collapseSubtree(let id): item(id, .collapse, .deselect)
      case .expandAll(let id): scoped(id, .expand)
      case .collapseAll(let id): scoped(id, .collapse, .deselect)
      case .expandToLevel(_, let id): scoped(id, .expand, .collapse, .deselect)
      case .select(let ids):
        for id in ids { item(id, .select) }
        global[.deselect] = k  // single selection: selecting deselects the previous item
      case .deselect(let ids): for id in ids { item(id, .deselect) }
      case .selectAll: global[.select] = k
      case .deselectAll: global[.deselect] = k
      case .setSelectionMode: for family in [Family.mode, .deselect] { global[family] = k }
      case .updateSectionStyle(let id, _, _): section(id, .sectionHeader, .sectionReload)
      case .setColumns: global[.columns] = k
      case .setEmptyState: global[.emptyState] = k
      case .setEditing: global[.editing] = k
      default: break
      }
    }
  }

  /// Whether the batch had no edit at all.
  var isEmpty: Bool { items.isEmpty && sections.isEmpty && global.isEmpty }

  /// The last edit of `families` that names `id`, one of `ancestors` (for changes a subtree
  /// edit causes), one of `sectionIDs` (for section-scoped edits), or nothing (global edits).
  /// O(families × (ancestors + sections)).
  func edit(
    _ families: [Family], item id: String?, ancestors: [String] = [], sections sectionIDs: [String] = []
  ) -> Int? {
    var best: Int?
    func consider(_ k: Int?) {
      if let k, k > (best ?? -1) { best = k }
    }
    for family in families {
      if let id { consider(items[Key(id: id, family: family)]) }
      for ancestor in ancestors { consider(items[Key(id: ancestor, family: family)]) }
      for section in sectionIDs { consider(sections[Key(id: section, family: family)]) }
      consider(global[family])
    }
    return best
  }
}
