// The changeset: what changed between two snapshots, in UICollectionView batch-update conventions.

/// The difference between two snapshots, with the data a client needs to apply it.
///
/// Index conventions (those of `UICollectionView.performBatchUpdates`):
/// - *Old coordinates* are index paths in the old row list; *new coordinates* in the new one.
/// - `sectionDeletes`, `sectionReloads`, `itemDeletes`, `itemReloads`, `itemReconfigures` and
///   the `from` side of moves use old coordinates. `sectionInserts`, `itemInserts` and the `to`
///   side of moves use new coordinates. An item index path's section is the section's old
///   index in old coordinates and its new index in new coordinates, even when the section moved.
/// - A deleted section takes its rows with it and an inserted section brings its rows (in
///   ``SectionInsert/section``); neither is repeated in the item lists. A moved section carries
///   its rows along; rows that change inside it are listed with the old section index on the
///   old side and the new one on the new side.
/// - Item moves between sections only happen between sections present in both snapshots; an
///   item that leaves for an inserted section is an item delete, and one that arrives from a
///   deleted section is an item insert.
/// - An item is never both moved and reloaded: a reloaded item that moved is a delete plus an
///   insert. It can be moved and reconfigured. An item whose payload `kind` changed is reloaded,
///   never reconfigured.
///
/// Applying it (``apply(_:to:)`` does exactly this):
/// 1. Section reloads set header and footer at their old index; item reloads and reconfigures
///    replace the rows at their old index paths.
/// 2. Rows at item-delete and move-source index paths (old coordinates) are removed, the
///    moved rows kept aside; then deleted sections and move-source sections are removed (moved
///    sections keep their remaining rows).
/// 3. Inserted and moved sections are placed at their new indexes in ascending order; the
///    other sections keep their relative order around them.
/// 4. Inserted and moved rows are placed at their new index paths in ascending order.
/// 5. `deselected` ids leave the selection and `selected` ids join it; `columns`, `emptyState`
///    and `isEditing`, if present, replace the list's.
///
/// Contiguous runs are ranges: an item-delete entry is a section and a range of rows, an insert
/// is a starting index path with consecutive rows, a move is a run of consecutive rows from one
/// place to another. Entries of each list are sorted by their index path (moves by their
/// destination).
public struct Changeset: Hashable, Sendable {
  /// A section inserted at `index` (new coordinates), with its header, footer and rows.
  public struct SectionInsert: Hashable, Sendable {
    public var index: Int
    public var section: RowSection
    /// The section's row count when `section` was left without its rows (a diff asked for
    /// counts only, ``ListSnapshot/diff(from:to:rowsOfInsertedSections:)``), else nil.
    public private(set) var countedRows: Int?

    public init(index: Int, section: RowSection) {
      self.index = index
      self.section = section
    }

    /// An insert that counts the section's rows instead of carrying them (`section.rows` is
    /// empty): what an answer without rows needs, without a `Row` per item.
    public init(index: Int, sectionWithoutRows section: RowSection, rowCount: Int) {
      self.index = index
      self.section = section
      self.countedRows = rowCount
    }

    /// The number of rows the section is inserted with.
    public var rowCount: Int { countedRows ?? section.rows.count }
  }

  /// A section moved from `from` (old index) to `to` (new index), carrying its rows.
  public struct SectionMove: Hashable, Sendable {
    public var from: Int
    public var to: Int
    public init(from: Int, to: Int) {
      self.from = from
      self.to = to
    }
  }

  /// A section whose header, footer, kind or header mode changed (or was explicitly reloaded),
  /// at its old index, with all four new values. Its rows are diffed separately.
  public struct SectionReload: Hashable, Sendable {
    public var index: Int
    public var id: String
    public var header: String?
    public var footer: String?
    public var kind: String?
    public var headerMode: HeaderMode
    public init(
      index: Int, id: String, header: String?, footer: String?, kind: String? = nil,
      headerMode: HeaderMode = .supplementary
    ) {
      self.index = index
      self.id = id
      self.header = header
      self.footer = footer
      self.kind = kind
      self.headerMode = headerMode
    }
  }

  /// A run of rows of one section: `rows.count` consecutive rows starting at `start`.
  public struct ItemRun: Hashable, Sendable {
    public var section: Int
    public var start: Int
    public var rows: [Row]
    public init(section: Int, start: Int, rows: [Row]) {
      self.section = section
      self.start = start
      self.rows = rows
    }
    /// The row indexes covered.
    public var range: Range<Int> { start..<(start + rows.count) }
  }

  /// A run of deleted rows of one section (old coordinates).
  public struct ItemRange: Hashable, Sendable {
    public var section: Int
    public var rows: Range<Int>
    public init(section: Int, rows: Range<Int>) {
      self.section = section
      self.rows = rows
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

  /// Deleted sections: ranges of old indexes, ascending.
  public var sectionDeletes: [Range<Int>] = []
  /// Inserted sections at new indexes, ascending, with their data.
  public var sectionInserts: [SectionInsert] = []
  /// Moved sections (old index → new index), by ascending destination; the fewest possible
  /// (every section not on a longest increasing subsequence of new indexes).
  public var sectionMoves: [SectionMove] = []
  /// Sections whose header/footer changed or that were explicitly reloaded (old indexes).
  public var sectionReloads: [SectionReload] = []
  /// Deleted rows (old coordinates).
  public var itemDeletes: [ItemRange] = []
  /// Inserted rows (new coordinates) with their data.
  public var itemInserts: [ItemRun] = []
  /// Moved rows (old → new), by ascending destination; the fewest possible within a section.
  public var itemMoves: [ItemMove] = []
  /// Explicitly reloaded rows that did not move (old coordinates), with their new data.
  public var itemReloads: [ItemRun] = []
  /// Rows whose data changed — payload (content equality), level, parent, hasChildren,
  /// isExpanded — or that were explicitly reconfigured (old coordinates), with their new data.
  public var itemReconfigures: [ItemRun] = []
  /// Items that joined the selection, in index-path order (``deselected``: by old index paths).
  public var selected: [String] = []
  /// Items that left the selection (including deleted and newly hidden ones).
  public var deselected: [String] = []
  /// Items whose own expansion state became expanded (visible or not), in list order
  /// (section, then preorder position); ``collapsed`` likewise.
  public var expanded: [String] = []
  /// Items whose own expansion state became collapsed (visible or not).
  public var collapsed: [String] = []
  /// The new selection mode, if it changed.
  public var selectionMode: SelectionMode?
  /// The list's new columns (all of them), if they changed.
  public var columns: [ListColumn]?
  /// The list's new empty state, if it changed: `.some(nil)` when it was removed.
  public var emptyState: EmptyState??
  /// The list's new editing mode, if it changed.
  public var isEditing: Bool?

  public init() {}

  /// Whether nothing changed.
  public var isEmpty: Bool { self == Changeset() }

  /// Number of rows deleted, inserted, moved, reloaded and reconfigured (run lengths summed),
  /// not counting rows of deleted or inserted sections. O(entries).
  public var itemChangeCount: Int {
    itemDeletes.reduce(0) { $0 + $1.rows.count } + itemInserts.reduce(0) { $0 + $1.rows.count }
      + itemMoves.reduce(0) { $0 + $1.count } + itemReloads.reduce(0) { $0 + $1.rows.count }
      + itemReconfigures.reduce(0) { $0 + $1.rows.count }
  }
}
