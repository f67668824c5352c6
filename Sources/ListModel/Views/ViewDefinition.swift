// A live view's definition: which items of the source it keeps (filter), in which order (sort), in which sections (group).

/// A field of an item a view filters, sorts or groups by.
public enum ViewField: Hashable, Sendable {
  /// The item's id.
  case id
  case text
  case secondaryText
  case image
  /// A value inside the item's `data`: the members named by `path` in turn (empty: `data` itself).
  case data([String])
  /// The item's cell of a column.
  case cell(String)

  /// Parses the wire form: `id`, `text`, `secondaryText`, `image`, `data` or `data.a.b`,
  /// `cells.column`; any other name is a column id. Nil for an empty name.
  public init?(wire name: String) {
    switch name {
    case "": return nil
    case "id": self = .id
    case "text": self = .text
    case "secondaryText": self = .secondaryText
    case "image": self = .image
    case "data": self = .data([])
    default:
      if name.hasPrefix("data.") {
        let path = name.dropFirst(5).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !path.contains(where: \.isEmpty) else { return nil }
        self = .data(path)
      } else if name.hasPrefix("cells.") {
        let column = String(name.dropFirst(6))
        guard !column.isEmpty else { return nil }
        self = .cell(column)
      } else {
        self = .cell(name)
      }
    }
  }

  /// The wire form ``init(wire:)`` parses.
  public var wire: String {
    switch self {
    case .id: "id"
    case .text: "text"
    case .secondaryText: "secondaryText"
    case .image: "image"
    case .data(let path): path.isEmpty ? "data" : "data." + path.joined(separator: ".")
    case .cell(let column): "cells." + column
    }
  }
}

/// A comparison of a field with a value.
public struct FieldPredicate: Hashable, Sendable {
  public enum Operator: String, Hashable, Sendable, CaseIterable {
    case equal = "="
    case notEqual = "≠"
    case less = "<"
    case lessOrEqual = "≤"
    case greater = ">"
    case greaterOrEqual = "≥"
    /// The field's string contains the value's string, case- and diacritic-insensitively.
    case contains
    /// The field equals one of the values of an array.
    case `in`

    /// Parses an operator, accepting the ASCII spellings `!=`, `<=` and `>=` too.
    public init?(wire: String) {
      switch wire {
      case "!=": self = .notEqual
      case "<=": self = .lessOrEqual
      case ">=": self = .greaterOrEqual
      case "==": self = .equal
      default: self.init(rawValue: wire)
      }
    }
  }

  public var field: ViewField
  public var op: Operator
  /// The value compared with (for `in`, the candidates).
  public var values: [ViewValue]

  public init(field: ViewField, op: Operator, values: [ViewValue]) {
    self.field = field
    self.op = op
    self.values = values
  }

  public init(field: ViewField, op: Operator, value: ViewValue) {
    self.init(field: field, op: op, values: [value])
  }
}

/// Which items a view keeps: those matching the text query (if any) and the predicates,
/// combined with all (every predicate holds) or any (at least one holds; none given: all pass).
public struct ViewFilter: Hashable, Sendable {
  public enum Combination: String, Hashable, Sendable, CaseIterable { case all, any }
  /// Matched case- and diacritic-insensitively as a substring of text, secondary text and cells.
  public var query: String?
  public var predicates: [FieldPredicate]
  public var combination: Combination

  public init(query: String? = nil, predicates: [FieldPredicate] = [], combination: Combination = .all) {
    self.query = query
    self.predicates = predicates
    self.combination = combination
  }
}

/// One sort key: a field, ascending or descending.
public struct SortKey: Hashable, Sendable {
  public var field: ViewField
  public var descending: Bool
  public init(field: ViewField, descending: Bool = false) {
    self.field = field
    self.descending = descending
  }
}

/// How a view makes sections: one per distinct value of a field (or of its initial), with that
/// value as the header, in ascending order of the value (descending if asked).
public struct ViewGrouping: Hashable, Sendable {
  public var field: ViewField
  /// Groups by the first character of the field's string, folded and upper-cased (contacts by initial).
  public var byInitial: Bool
  public var descending: Bool
  public init(field: ViewField, byInitial: Bool = false, descending: Bool = false) {
    self.field = field
    self.byInitial = byInitial
    self.descending = descending
  }
}

/// A live view: filter, sort and group applied to a source list's rows.
///
/// A view holds the source's **rows** — its visible items, in every section — flattened: a
/// view's rows have level 0, no parent and no children, whatever outline they come from (an
/// item hidden under a collapsed parent is not in the view; expanding the parent brings its
/// children in). Rows keep their ids and payloads. Without a sort the source order is kept;
/// ties of the sort keys keep the source order (section, then row).
public struct ViewDefinition: Hashable, Sendable {
  public var filter: ViewFilter?
  public var sort: [SortKey]
  public var group: ViewGrouping?

  public init(filter: ViewFilter? = nil, sort: [SortKey] = [], group: ViewGrouping? = nil) {
    self.filter = filter
    self.sort = sort
    self.group = group
  }

  /// The id of the one section of a view without grouping.
  public static let ungroupedSectionID = "items"
}
