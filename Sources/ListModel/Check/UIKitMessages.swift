// The rule ids of a batch-update check and the text UIKit raises for each (Protocol/README.md lists them).

/// A rule UIKit enforces on a batch update (or a diffable snapshot); the raw value is the
/// stable camelCase id the protocol reports.
public enum CheckRule: String, Hashable, Sendable, CaseIterable {
  // Counts.
  case sectionCount, itemCount
  // Sections.
  case deleteSectionOutOfBounds, insertSectionOutOfBounds, moveSectionOutOfBounds, reloadSectionOutOfBounds
  case deleteAndMoveSection, insertAndMoveSection, moveSectionTwice, moveSectionsToSameIndex
  case deleteAndReloadSection
  // Items, old coordinates.
  case deleteItemOutOfBounds, reloadItemOutOfBounds, reconfigureItemOutOfBounds
  case deleteItemTwice, deleteAndMoveItem, deleteAndReloadItem, deleteAndReconfigureItem
  case moveItemTwice, reloadAndMoveItem, moveItemFromDeletedSection
  // Items, new coordinates.
  case insertItemOutOfBounds, insertItemTwice, insertAndMoveItem, moveItemsToSameIndexPath
  case moveItemOutOfBounds, moveItemIntoInsertedSection
  // Diffable snapshots.
  case duplicateItemIdentifiers, duplicateSectionIdentifiers, itemInNoSection
  // Cells.
  case duplicateSystemAccessory
}

/// UIKit's exception texts, word for word where UIKit's own text is known (see the spec for
/// which are quoted and which are listd's wording in UIKit's style). An `NSIndexPath` prints
/// as UIKit prints it, with the fixed placeholder address `0x0`.
public enum UIKitMessages {
  /// `<NSIndexPath: 0x0> {length = 2, path = 0 - 3}`.
  static func indexPath(_ path: ListIndexPath) -> String {
    "<NSIndexPath: 0x0> {length = 2, path = \(path.section) - \(path.item)}"
  }

  static func sectionCount(after: Int, before: Int, inserted: Int, deleted: Int) -> String {
    "Invalid update: invalid number of sections. The number of sections contained in the collection view "
      + "after the update (\(after)) must be equal to the number of sections contained in the collection "
      + "view before the update (\(before)), plus or minus the number of sections inserted or deleted "
      + "(\(inserted) inserted, \(deleted) deleted)."
  }

  static func itemCount(
    section: Int, after: Int, before: Int, inserted: Int, deleted: Int, movedIn: Int, movedOut: Int
  ) -> String {
    "Invalid update: invalid number of items in section \(section). The number of items contained in an "
      + "existing section after the update (\(after)) must be equal to the number of items contained in "
      + "that section before the update (\(before)), plus or minus the number of items inserted or deleted "
      + "from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of items "
      + "moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out)."
  }

  static func deleteSection(_ section: Int, sections: Int) -> String {
    "attempt to delete section \(section), but there are only \(sections) sections before the update"
  }

  static func insertSection(_ section: Int, sections: Int) -> String {
    "attempt to insert section \(section) but there are only \(sections) sections after the update"
  }

  static func moveSectionFrom(_ section: Int, sections: Int) -> String {
    "attempt to move section \(section), but there are only \(sections) sections before the update"
  }

  static func moveSectionTo(_ from: Int, _ to: Int, sections: Int) -> String {
    "attempt to move section \(from) to section \(to), but there are only \(sections) sections after the update"
  }

  static func deleteAndMoveSection(_ section: Int) -> String {
    "attempt to perform a delete and a move from the same section (\(section))"
  }

  static func insertAndMoveSection(_ section: Int) -> String {
    "attempt to perform an insert and a move to the same section (\(section))"
  }

  static func moveSectionTwice(_ section: Int) -> String {
    "attempt to perform two moves from the same section (\(section))"
  }

  static func moveSectionsToSameIndex(_ section: Int) -> String {
    "attempt to perform two moves to the same section (\(section))"
  }

  static func deleteAndReloadSection(_ section: Int) -> String {
    "attempt to delete and reload the same section (\(section))"
  }

  static func deleteItem(_ path: ListIndexPath, items: Int) -> String {
    "attempt to delete item \(path.item) from section \(path.section) which only contains \(items) items "
      + "before the update"
  }

  static func deleteItem(_ path: ListIndexPath, sections: Int) -> String {
    "attempt to delete item \(path.item) from section \(path.section), but there are only \(sections) "
      + "sections before the update"
  }

  static func reconfigureItem(_ path: ListIndexPath, items: Int) -> String {
    "attempt to reconfigure item \(path.item) from section \(path.section) which only contains \(items) "
      + "items before the update"
  }

  static func reconfigureItem(_ path: ListIndexPath, sections: Int) -> String {
    "attempt to reconfigure item \(path.item) from section \(path.section), but there are only "
      + "\(sections) sections before the update"
  }

  static func insertItem(_ path: ListIndexPath, items: Int) -> String {
    "attempt to insert item \(path.item) into section \(path.section), but there are only \(items) items "
      + "in section \(path.section) after the update"
  }

  static func insertItem(_ path: ListIndexPath, sections: Int) -> String {
    "attempt to insert item \(path.item) into section \(path.section), but there are only \(sections) "
      + "sections after the update"
  }

  static func moveItemFrom(_ path: ListIndexPath, items: Int) -> String {
    "attempt to move index path (\(indexPath(path))) that does not exist - there are only \(items) items "
      + "in section \(path.section) before the update"
  }

  static func moveItemFrom(_ path: ListIndexPath, sections: Int) -> String {
    "attempt to move index path (\(indexPath(path))) that does not exist - there are only \(sections) "
      + "sections before the update"
  }

  static func moveItemTo(_ from: ListIndexPath, _ to: ListIndexPath, items: Int) -> String {
    "attempt to move index path (\(indexPath(from))) to index path (\(indexPath(to))) that does not exist "
      + "- there are only \(items) items in section \(to.section) after the update"
  }

  static func moveItemTo(_ from: ListIndexPath, _ to: ListIndexPath, sections: Int) -> String {
    "attempt to move index path (\(indexPath(from))) to index path (\(indexPath(to))) that does not exist "
      + "- there are only \(sections) sections after the update"
  }

  static func deleteItemTwice(_ path: ListIndexPath) -> String {
    "attempt to delete the same index path twice (\(indexPath(path)))"
  }

  static func insertItemTwice(_ path: ListIndexPath) -> String {
    "attempt to insert the same index path twice (\(indexPath(path)))"
  }

  /// Also what UIKit raises for a reload and a move of one index path (a reload is a delete
  /// plus an insert).
  static func deleteAndMoveItem(_ path: ListIndexPath) -> String {
    "attempt to perform a delete and a move from the same index path (\(indexPath(path)))"
  }

  static func insertAndMoveItem(_ path: ListIndexPath) -> String {
    "attempt to perform an insert and a move to the same index path (\(indexPath(path)))"
  }

  static func moveItemTwice(_ path: ListIndexPath) -> String {
    "attempt to perform two moves from the same index path (\(indexPath(path)))"
  }

  static func moveItemsToSameIndexPath(_ path: ListIndexPath) -> String {
    "attempt to perform two moves to the same index path (\(indexPath(path)))"
  }

  static func deleteAndReloadItem(_ path: ListIndexPath) -> String {
    "attempt to delete and reload the same index path (\(indexPath(path)))"
  }

  static func deleteAndReconfigureItem(_ path: ListIndexPath) -> String {
    "attempt to delete and reconfigure the same index path (\(indexPath(path)))"
  }

  static func moveItemFromDeletedSection(_ section: Int) -> String {
    "cannot move a row out of a deleted section (\(section))"
  }

  static func moveItemIntoInsertedSection(_ section: Int) -> String {
    "cannot move a row into a newly inserted section (\(section))"
  }

  /// `{(a, b)}`: an `NSSet` of identifiers on one line (UIKit prints one per line).
  static func identifierSet(_ ids: [String]) -> String { "{(" + ids.joined(separator: ", ") + ")}" }

  static func duplicateItemIdentifiers(_ ids: [String]) -> String {
    "Supplied item identifiers are not unique. Duplicate identifiers: \(identifierSet(ids))"
  }

  static func duplicateSectionIdentifiers(_ ids: [String]) -> String {
    "Supplied section identifiers are not unique. Duplicate identifiers: \(identifierSet(ids))"
  }

  static let noSections = "There are currently no sections in the data source. Please add a section first."

  /// UIKit's documentation: "The system throws an exception if you include more than one
  /// instance of any system accessory" (its exception text is not published).
  public static func duplicateSystemAccessory(_ type: String, item: String) -> String {
    "More than one instance of the system accessory \(type) for item identifier (\(item)): "
      + "the system throws an exception if a cell includes more than one instance of any system accessory"
  }

  static func itemInNoSection(_ item: String) -> String {
    "Item identifier (\(item)) is in no section: every item of a snapshot must be in a section"
  }

  static func itemInUnknownSection(_ item: String, section: String) -> String {
    "Invalid section identifier (\(section)) for item identifier (\(item)): the section is not in the snapshot"
  }
}
