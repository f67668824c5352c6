// `listctl show` of a table: a header row and cells aligned in columns, truncated with `…`.
import JSON

/// Lays out the rows of a list with columns: each column as wide as its `width` hint, or else
/// its widest value (title included) up to ``maxWidth``; values longer than their column end
/// with `…`; columns aligned as they say (leading, center, trailing).
struct TableRenderer {
  /// The widest a column without a `width` hint gets.
  static let maxWidth = 24

  struct Column {
    let id: String
    let title: String
    let alignment: String
    let width: Int
  }

  let columns: [Column]

  /// Nil when `columns` is empty (not a table).
  init?(columns values: [JSONValue], sections: [JSONValue]) {
    guard !values.isEmpty else { return nil }
    let rows = sections.flatMap { $0["rows"]?.arrayValue ?? [] }
    columns = values.map { value in
      let id = value["id"]?.stringValue ?? "?"
      let title = value["title"]?.stringValue ?? id
      let hint = value["width"]?.doubleValue.map { max(1, Int($0.rounded())) }
      let widest = rows.reduce(title.count) { max($0, Self.text(of: $1["cells"]?[id]).count) }
      return Column(
        id: id, title: title, alignment: value["alignment"]?.stringValue ?? "leading",
        width: hint ?? min(widest, Self.maxWidth))
    }
  }

  /// The header row: the column titles.
  func header() -> String {
    Self.trimmed(columns.map { Self.fit($0.title, $0.width, $0.alignment) }.joined(separator: "  "))
  }

  /// One row's cells (an empty cell for a column it does not name).
  func line(_ row: JSONValue) -> String {
    let cells = row["cells"]
    return Self.trimmed(
      columns.map { Self.fit(Self.text(of: cells?[$0.id]), $0.width, $0.alignment) }.joined(separator: "  "))
  }

  /// Without trailing spaces.
  static func trimmed(_ line: String) -> String {
    String(line.reversed().drop { $0 == " " }.reversed())
  }

  /// A cell as text: strings as they are, integral numbers without a fraction, Booleans as ✓ / ✗,
  /// null or absent as nothing.
  static func text(of value: JSONValue?) -> String {
    switch value {
    case .string(let string)?: return string
    case .int(let int)?: return String(int)
    case .double(let double)?:
      return double.rounded() == double && abs(double) < 1e15 ? String(Int64(double)) : String(double)
    case .bool(let bool)?: return bool ? "✓" : "✗"
    default: return ""
    }
  }

  /// `text` in exactly `width` characters: truncated with `…`, padded as `alignment` says.
  static func fit(_ text: String, _ width: Int, _ alignment: String) -> String {
    let clipped = text.count > width ? String(text.prefix(max(0, width - 1))) + "…" : text
    let pad = width - clipped.count
    switch alignment {
    case "trailing": return String(repeating: " ", count: pad) + clipped
    case "center":
      return String(repeating: " ", count: pad / 2) + clipped + String(repeating: " ", count: pad - pad / 2)
    default: return clipped + String(repeating: " ", count: pad)
    }
  }

  /// An empty list's empty state: its title, image and description, or the search variant's.
  static func emptyState(_ state: JSONValue) -> [String] {
    var lines = ["  ∅ " + (state["title"]?.stringValue ?? "")]
    if let image = state["image"]?.stringValue { lines[0] += "  [\(image)]" }
    if let description = state["description"]?.stringValue { lines.append("    " + description) }
    return lines
  }
}
