// The fields of --sort, --where and --group named as the table shows them: a column's id or title, in any case.
import CommandLineDescription
import JSON
import ListClient

/// Resolves field names against a table's columns, so that `--sort PID` sorts by the column
/// whose id is `pid` and whose header says `PID`. The daemon matches fields exactly
/// (Protocol/README.md, Live views); listctl sends it the column id the user meant, and
/// refuses a name that means nothing: no built-in field, no `data.` path and no column.
struct ColumnFields {
  /// The built-in fields of an item, which no column shadows.
  static let builtIn = ["text", "secondaryText", "image", "id", "data"]

  /// The source's columns: `[{id, title}]`.
  let columns: [(id: String, title: String)]

  /// The columns of `list` (none when it is not a table).
  init(of list: String, _ client: ListClient) async throws {
    let info = try await client.info(list)
    columns = (info["columns"]?.arrayValue ?? []).compactMap { column in
      guard let id = column["id"]?.stringValue else { return nil }
      return (id, column["title"]?.stringValue ?? id)
    }
  }

  init(columns: [(id: String, title: String)]) { self.columns = columns }

  /// The field `name` means: a built-in field, `data…` or a column id as given; else the column
  /// whose id, then whose title, equals it ignoring case (`cells.NAME` too); else a built-in
  /// field ignoring case; else nil: it names nothing of the list.
  func resolve(_ name: String) -> String? {
    if name.hasPrefix("cells.") {
      return column(String(name.dropFirst("cells.".count))).map { "cells." + $0 }
    }
    if Self.builtIn.contains(name) || name.hasPrefix("data.") || columns.contains(where: { $0.id == name }) {
      return name
    }
    if let resolved = column(name) { return resolved }
    return Self.builtIn.first { $0.lowercased() == name.lowercased() }
  }

  /// ``resolve(_:)``, or a usage error naming `name`, the nearest field and the fields there are.
  func field(_ name: String, option: String) throws -> String {
    if let field = resolve(name) { return field }
    let names = Self.builtIn + columns.flatMap { [$0.id, $0.title] }
    let known =
      columns.isEmpty
      ? ""
      : "; columns: "
        + columns.map { $0.id == $0.title ? $0.id : "\($0.id) (\($0.title))" }
        .joined(separator: ", ")
    throw UsageError(
      "\(option): unknown field '\(name)'\(Suggestion.phrase(for: name, among: names)): fields are "
        + "text, secondaryText, image, id, data.PATH, cells.COLUMN or a column's id or title\(known)")
  }

  /// The id of the column `name` names: its id or title, ignoring case; nil if none.
  private func column(_ name: String) -> String? {
    let folded = name.lowercased()
    if let byID = columns.first(where: { $0.id == name || $0.id.lowercased() == folded }) { return byID.id }
    return columns.first { $0.title.lowercased() == folded }?.id
  }

  /// `sort`, `filter` or `group` JSON with every `field` member resolved; a usage error for a
  /// field that names nothing (`option` says where it came from).
  func resolveFields(_ value: JSONValue?, option: String) throws -> JSONValue? {
    guard let value else { return nil }
    switch value {
    case .array(let elements): return .array(try elements.map { try resolveFields($0, option: option) ?? $0 })
    case .object(let object):
      var resolved: JSONObject = [:]
      for (key, member) in object {
        if key == "field", let name = member.stringValue {
          resolved.append(key, .string(try field(name, option: option)))
        } else {
          resolved.append(key, try resolveFields(member, option: option) ?? member)
        }
      }
      return .object(resolved)
    default: return value
    }
  }
}
