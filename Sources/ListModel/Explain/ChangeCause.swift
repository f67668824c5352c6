// Why a changeset entry is there: the cause of a run of rows, a section or a selection change.
import JSON

/// The cause of part of a changeset: a run of one entry's rows (or sections, or ids) that
/// changed for the same reason, named by the changeset member and the entry's index in it.
///
/// Causes follow the changeset's ranges: consecutive rows of one entry that share a reason
/// (and a related item, fields and edit) are one cause, so a 100,000-row expand is one cause.
public struct ChangeCause: Hashable, Sendable {
  /// The changeset member the cause explains (the wire name of that member).
  public enum Change: String, Hashable, Sendable, CaseIterable {
    case sectionDeletes, sectionInserts, sectionMoves, sectionReloads
    case itemDeletes, itemInserts, itemMoves, itemReloads, itemReconfigures
    case selected, deselected, expanded, collapsed, selectionMode, columns, emptyState, isEditing
  }

  /// Why the rows changed. See Protocol/README.md, "Inspector: explanations", for each.
  public enum Reason: String, Hashable, Sendable, CaseIterable {
    /// Inserts: the item (section) is new. Deletes: it is gone.
    case added, removed
    /// An insert of a row that was hidden under `related`, the outermost collapsed ancestor,
    /// now expanded; a delete of a row now hidden under `related`, the outermost collapsed one.
    case revealed, hidden
    /// The row's parent changed (to `related`) and it was, or now is, hidden.
    case reparented
    /// The row came from a deleted section (`related`), or left for an inserted one.
    case fromDeletedSection, toInsertedSection
    /// A reloaded row that also moved: UIKit cannot move and reload one item, so it is a
    /// delete plus an insert.
    case reloadedAndMoved
    /// A move inferred by the diff: the row left the longest increasing subsequence of kept
    /// rows; `after` and `before` name the rows it was placed between (new coordinates).
    case reordered
    /// A move between sections (`related` is the old section's id).
    case changedSection
    /// Reconfigures and section reloads: `fields` changed.
    case changed
    /// An explicit reload, reconfigure, expansion, selection or selection-mode change asked
    /// for by an edit or by the new content, with no field changed.
    case requested
    /// Deselections: the item was deselected, became hidden, became unselectable, or the
    /// selection mode changed.
    case deselected, unselectable, selectionMode
  }

  public var change: Change
  /// The index of the entry in its changeset member (0 for id lists and `selectionMode`).
  public var entry: Int
  /// The first row (section, id) of the entry this cause covers, and how many.
  public var offset: Int
  public var count: Int
  /// For runs: the first item (or section) covered; for id lists the first id.
  public var first: String?
  /// For id lists (`selected`, `deselected`, `expanded`, `collapsed`): the ids after `first`.
  public var rest: [String] = []
  /// For id lists: every id covered. For runs: the first item (or section) covered. O(ids).
  public var ids: [String] { first.map { [$0] + rest } ?? [] }
  public var reason: Reason
  /// The ancestor, parent or section the reason names (see ``Reason``).
  public var related: String?
  /// For moves: the rows (sections) the moved run now sits between; nil at an edge.
  public var after: String?
  public var before: String?
  /// For `changed`: the fields that changed, with their old and new values.
  public var fields: [FieldChange]
  /// The index of the edit of the batch that caused it, when the change was a batch of edits
  /// and one of them did.
  public var edit: Int?

  /// A cause whose ids are `first` and nothing else (a run).
  init(
    change: Change, entry: Int, offset: Int, count: Int, first: String?, reason: Reason, related: String?,
    fields: [FieldChange], edit: Int?, after: String?, before: String?
  ) {
    self.change = change
    self.entry = entry
    self.offset = offset
    self.count = count
    self.first = first
    self.reason = reason
    self.related = related
    self.after = after
    self.before = before
    self.fields = fields
    self.edit = edit
  }

  public init(
    change: Change, entry: Int, offset: Int = 0, count: Int = 1, ids: [String], reason: Reason,
    related: String? = nil, after: String? = nil, before: String? = nil, fields: [FieldChange] = [],
    edit: Int? = nil
  ) {
    self.change = change
    self.entry = entry
    self.offset = offset
    self.count = count
    self.first = ids.first
    self.rest = Array(ids.dropFirst())
    self.reason = reason
    self.related = related
    self.after = after
    self.before = before
    self.fields = fields
    self.edit = edit
  }
}

/// One field of a row or section that changed, with its old and new value.
public struct FieldChange: Hashable, Sendable {
  /// The field, by its wire name (Protocol/README.md §3).
  public enum Field: String, Hashable, Sendable, CaseIterable {
    case text, secondaryText, image, data, accessories
    case leadingSwipeActions, trailingSwipeActions, contextMenuActions
    case selectable, movable, level, parent, hasChildren, expanded
    case header, footer
    /// An item's `cells` or `kind`; a section's `kind` or `headerMode`.
    case cells, kind, headerMode
  }

  /// A field's value; `absent` for an unset optional.
  public enum Value: Hashable, Sendable {
    case absent
    case string(String)
    case json(JSONValue)
    case bool(Bool)
    case int(Int)
    case accessories([ListAccessory])
    case actions([ListAction])
  }

  public var field: Field
  public var old: Value
  public var new: Value

  public init(_ field: Field, old: Value, new: Value) {
    self.field = field
    self.old = old
    self.new = new
  }
}
