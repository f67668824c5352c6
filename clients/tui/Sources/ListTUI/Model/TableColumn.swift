// A list's column as the TUI draws it (Protocol/README.md, Columns and kinds), and cell values as text.
import JSON

/// One column of a table list: `{id, title, alignment?, width?, sortable?}`.
public struct TableColumn: Equatable, Sendable {
  /// How a column's cells sit in their width.
  public enum Alignment: String, Sendable {
    case leading, center, trailing
  }

  /// The column id, which rows' `cells` name.
  public var id: String
  /// The header's title.
  public var title: String
  /// The alignment, `leading` by default.
  public var alignment: Alignment
  /// The width hint in characters, nil for automatic.
  public var width: Int?
  /// Whether the user may sort by it.
  public var sortable: Bool

  /// A column from its wire object; nil without an id.
  public init?(_ json: JSONValue) {
    guard let id = json["id"]?.stringValue else { return nil }
    self.id = id
    title = json["title"]?.stringValue ?? id
    alignment = json["alignment"]?.stringValue.flatMap(Alignment.init(rawValue:)) ?? .leading
    width = json["width"].flatMap { $0.doubleValue }.map { max(1, Int($0.rounded())) }
    sortable = json["sortable"]?.boolValue == true
  }

  /// The columns of a wire array (an absent or malformed member: none).
  public static func list(_ json: JSONValue?) -> [TableColumn] {
    (json?.arrayValue ?? []).compactMap(TableColumn.init)
  }

  /// A cell value as text: strings as they are, integral numbers without a fraction, Booleans
  /// as ✓ and ✗, `null` (or no cell) empty.
  public static func text(_ value: JSONValue?) -> String {
    switch value {
    case .string(let string)?: return string
    case .int(let int)?: return String(int)
    case .double(let double)?:
      return double == double.rounded() && abs(double) < 1e15 ? String(Int64(double)) : String(double)
    case .bool(let bool)?: return bool ? "✓" : "✗"
    default: return ""
    }
  }
}
