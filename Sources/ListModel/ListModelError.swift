// The typed error thrown by every invalid snapshot operation, naming the offending id.

/// An invalid operation on a snapshot or changeset. The snapshot is unchanged when it is thrown.
public struct ListModelError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, with the offending id.
  public enum Kind: Equatable, Sendable {
    /// A section id that already exists, or appears twice in one edit.
    case duplicateSection(String)
    /// An item id that already exists in the list, or appears twice in one edit.
    case duplicateItem(String)
    case unknownSection(String)
    case unknownItem(String)
    /// Items were appended without a section to hold them.
    case noSections
    /// A section was moved before or after itself.
    case sectionMovedRelativeToItself(String)
    /// An item was moved (or inserted) before, after or under itself.
    case itemMovedRelativeToItself(String)
    /// An item was moved into its own subtree: (moved item, target inside its subtree).
    case itemMovedIntoOwnSubtree(String, String)
    /// Selection is disabled (mode `none`); carries the item that was to be selected, if any.
    case selectionDisabled(String?)
    /// More than one item was to be selected in single-selection mode.
    case multipleSelectionNotAllowed
    /// The item's payload says it cannot be selected.
    case itemNotSelectable(String)
    /// The item is hidden by a collapsed ancestor, so it cannot be selected.
    case itemNotVisible(String)
    /// A changeset does not fit the row list it is applied to.
    case invalidChangeset(String)
    /// Two columns with one id.
    case duplicateColumn(String)
    /// An item's cell names a column the list does not have: (item, column).
    case unknownColumn(String, String)
  }

  /// What went wrong.
  public var kind: Kind
  /// For a batch, the index of the edit that failed; nil for a direct call.
  public var editIndex: Int?

  public init(_ kind: Kind, editIndex: Int? = nil) {
    self.kind = kind
    self.editIndex = editIndex
  }

  /// A human-readable message naming the offending id (and the failing edit of a batch).
  public var message: String {
    let base: String
    switch kind {
    case .duplicateSection(let id): base = "duplicate section id '\(id)'"
    case .duplicateItem(let id): base = "duplicate item id '\(id)'"
    case .unknownSection(let id): base = "unknown section '\(id)'"
    case .unknownItem(let id): base = "unknown item '\(id)'"
    case .noSections: base = "cannot append items: the list has no section"
    case .sectionMovedRelativeToItself(let id): base = "section '\(id)' cannot be moved relative to itself"
    case .itemMovedRelativeToItself(let id): base = "item '\(id)' cannot be placed relative to itself"
    case .itemMovedIntoOwnSubtree(let id, let target):
      base = "item '\(id)' cannot be moved into its own subtree (at '\(target)')"
    case .selectionDisabled(let id):
      base = id.map { "cannot select '\($0)': selection mode is none" } ?? "selection mode is none"
    case .multipleSelectionNotAllowed: base = "cannot select more than one item in single-selection mode"
    case .itemNotSelectable(let id): base = "item '\(id)' is not selectable"
    case .itemNotVisible(let id): base = "item '\(id)' is hidden by a collapsed ancestor"
    case .invalidChangeset(let reason): base = "invalid changeset: \(reason)"
    case .duplicateColumn(let id): base = "duplicate column id '\(id)'"
    case .unknownColumn(let item, let column):
      base = "item '\(item)' has a cell for unknown column '\(column)' (cells.\(column))"
    }
    if let editIndex { return "edit \(editIndex): \(base)" }
    return base
  }

  public var description: String { message }
}
