// A batch update as UIKit's performBatchUpdates takes it, in runs; built from a Changeset or given directly.

/// A batch update in `UICollectionView.performBatchUpdates` terms: what ``checkBatchUpdate(before:_:after:)``
/// checks. Item entries are runs (`count` consecutive rows), so a changeset converts without
/// expanding its ranges; explicit UIKit index paths are runs of one.
///
/// Coordinates follow UIKit: `deleteSections`, `reloadSections`, `deleteItems`, `reloadItems`,
/// `reconfigureItems` and the `from` side of moves are **old** coordinates; `insertSections`,
/// `insertItems` and the `to` side of moves are **new** coordinates. An item index path's
/// section is the section's old index on the old side and its new index on the new side.
/// Section lists are index sets, as UIKit's `NSIndexSet`: an index given twice counts once.
public struct BatchUpdate: Hashable, Sendable {
  /// A run of `count` consecutive rows of one section, starting at `row`.
  public struct ItemRun: Hashable, Sendable {
    public var section: Int
    public var row: Int
    public var count: Int
    public init(section: Int, row: Int, count: Int = 1) {
      self.section = section
      self.row = row
      self.count = count
    }
  }

  /// `count` consecutive rows moved from `from` (old coordinates) to `to` (new coordinates).
  public struct ItemMove: Hashable, Sendable {
    public var from: ListIndexPath
    public var to: ListIndexPath
    public var count: Int
    public init(from: ListIndexPath, to: ListIndexPath, count: Int = 1) {
      self.from = from
      self.to = to
      self.count = count
    }
  }

  /// A section moved from old index `from` to new index `to`.
  public struct SectionMove: Hashable, Sendable {
    public var from: Int
    public var to: Int
    public init(from: Int, to: Int) {
      self.from = from
      self.to = to
    }
  }

  public var deleteSections: [Int] = []
  public var insertSections: [Int] = []
  public var moveSections: [SectionMove] = []
  public var reloadSections: [Int] = []
  public var deleteItems: [ItemRun] = []
  public var insertItems: [ItemRun] = []
  public var moveItems: [ItemMove] = []
  public var reloadItems: [ItemRun] = []
  /// `reconfigureItems`: old coordinates, checked like reloads, but not a delete plus an insert.
  public var reconfigureItems: [ItemRun] = []
  /// The number of items an inserted section brings (new index → count), when known (a
  /// changeset's inserted sections carry their rows). Used for the after counts when none are
  /// given; without an entry, an inserted section holds the items inserted into it.
  public var insertedSectionCounts: [Int: Int] = [:]

  public init() {}
}

extension BatchUpdate {
  /// The batch update a changeset describes: the same entries in UIKit's terms (section ranges
  /// become index lists, item runs stay runs). Selection and expansion changes play no part.
  /// O(sections + entries): rows are not expanded.
  public init(_ changeset: Changeset) {
    self.init()
    deleteSections = changeset.sectionDeletes.flatMap { Array($0) }
    insertSections = changeset.sectionInserts.map(\.index)
    for insert in changeset.sectionInserts { insertedSectionCounts[insert.index] = insert.section.rows.count }
    moveSections = changeset.sectionMoves.map { SectionMove(from: $0.from, to: $0.to) }
    reloadSections = changeset.sectionReloads.map(\.index)
    deleteItems = changeset.itemDeletes.map {
      ItemRun(section: $0.section, row: $0.rows.lowerBound, count: $0.rows.count)
    }
    insertItems = changeset.itemInserts.map {
      ItemRun(section: $0.section, row: $0.start, count: $0.rows.count)
    }
    moveItems = changeset.itemMoves.map { ItemMove(from: $0.from, to: $0.to, count: $0.count) }
    reloadItems = changeset.itemReloads.map {
      ItemRun(section: $0.section, row: $0.start, count: $0.rows.count)
    }
    reconfigureItems = changeset.itemReconfigures.map {
      ItemRun(section: $0.section, row: $0.start, count: $0.rows.count)
    }
  }
}
