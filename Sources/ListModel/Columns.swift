// Table columns and cells (SwiftUI's Table as data), and the presentation of sections.
import JSON

/// How a column's cells are aligned.
public enum ColumnAlignment: String, Hashable, Sendable, CaseIterable {
  case leading, center, trailing
}

/// A column of a list shown as a table. Rows give their values in ``ItemPayload/cells`` by the
/// column's `id`. The list only declares columns: it never sorts by them (a live view does).
public struct ListColumn: Hashable, Sendable {
  /// The identifier cells use.
  public var id: String
  /// The header title.
  public var title: String
  /// Leading by default.
  public var alignment: ColumnAlignment
  /// A width hint in points (a viewer in a terminal reads it as columns of text); nil: automatic.
  public var width: Double?
  /// Whether a viewer may offer to sort by this column.
  public var isSortable: Bool

  public init(
    id: String, title: String, alignment: ColumnAlignment = .leading, width: Double? = nil,
    isSortable: Bool = false
  ) {
    self.id = id
    self.title = title
    self.alignment = alignment
    self.width = width
    self.isSortable = isSortable
  }
}

/// The value of one cell: a string, a number, a Boolean or null (an empty cell).
public enum CellValue: Hashable, Sendable {
  case string(String)
  /// A number; NaN is never stored (the wire has no NaN), so equality stays reflexive.
  case number(Double)
  case bool(Bool)
  case null
}

extension CellValue {
  /// The cell as JSON: an integral number in the 53-bit range as an integer, so `1024` stays
  /// `1024`. O(1).
  public var json: JSONValue {
    switch self {
    case .string(let string): return .string(string)
    case .number(let number):
      if number.rounded() == number, abs(number) < 9_007_199_254_740_992 { return .int(Int64(number)) }
      return .double(number)
    case .bool(let bool): return .bool(bool)
    case .null: return .null
    }
  }

  /// Cells as a JSON object, members sorted by column id. O(cells log cells).
  public static func json(_ cells: [String: CellValue]) -> JSONValue {
    .object(JSONObject(cells.keys.sorted().map { ($0, cells[$0]!.json) }))
  }
}

/// Whether a row's separator shows (`UIListSeparatorConfiguration.Visibility`).
public enum SeparatorVisibility: String, Hashable, Sendable, CaseIterable {
  /// As the list's appearance decides.
  case automatic
  case visible
  case hidden
}

/// How a section shows its header, after `UICollectionLayoutListConfiguration.HeaderMode`.
public enum HeaderMode: String, Hashable, Sendable, CaseIterable {
  /// No header is shown, whatever the header text.
  case none
  /// The header text is shown as a supplementary view above the rows (the default).
  case supplementary
  /// The section's first item is drawn as its header (outline sidebars).
  case firstItemInSection
}
