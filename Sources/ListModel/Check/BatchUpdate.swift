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

    /// The rows a changeset run covers.
    public init(_ run: Changeset.ItemRun) {
      self.init(section: run.section, row: run.start, count: run.rows.count)
    }
  }

  /// `count` consecutive rows moved from `from` (old coordinates) to `to` (new coordinates):
  /// the changeset's own move.
  public typealias ItemMove = Changeset.ItemMove

  /// A section moved from old index `from` to new index `to`: the changeset's own move.
  public typealias SectionMove = Changeset.SectionMove

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
    moveSections = changeset.sectionMoves
    reloadSections = changeset.sectionReloads.map(\.index)
    deleteItems = changeset.itemDeletes.map {
      ItemRun(section: $0.section, row: $0.rows.lowerBound, count: $0.rows.count)
    }
    insertItems = changeset.itemInserts.map(ItemRun.init)
    moveItems = changeset.itemMoves
    reloadItems = changeset.itemReloads.map(ItemRun.init)
    reconfigureItems = changeset.itemReconfigures.map(ItemRun.init)
  }
}
