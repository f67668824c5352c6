// The fields of --sort, --where and --group named as the table shows them: a column's id or title, in any case.
import JSON
import ListClient

/// Resolves field names against a table's columns, so that `--sort PID` sorts by the column
/// whose id is `pid` and whose header says `PID`. The daemon matches fields exactly
/// (Protocol/README.md, Live views); listctl sends it the column id the user meant.
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

  /// The field `name` means: a built-in field or a column id as given; else the column whose id,
  /// then whose title, equals it ignoring case (`cells.NAME` too); else a built-in field
  /// ignoring case; else `name` unchanged.
  func resolve(_ name: String) -> String {
    if name.hasPrefix("cells.") { return "cells." + column(String(name.dropFirst("cells.".count))) }
    if Self.builtIn.contains(name) || name.hasPrefix("data.") || columns.contains(where: { $0.id == name }) {
      return name
    }
    let resolved = column(name)
    if resolved != name { return resolved }
    return Self.builtIn.first { $0.lowercased() == name.lowercased() } ?? name
  }

  /// The id of the column `name` names: its id or title, ignoring case; else `name`.
  private func column(_ name: String) -> String {
    let folded = name.lowercased()
    if let byID = columns.first(where: { $0.id == name || $0.id.lowercased() == folded }) { return byID.id }
    return columns.first { $0.title.lowercased() == folded }?.id ?? name
  }

  /// `sort`, `filter` or `group` JSON with every `field` member resolved.
  func resolveFields(_ value: JSONValue?) -> JSONValue? {
    guard let value else { return nil }
    switch value {
    case .array(let elements): return .array(elements.map { resolveFields($0) ?? $0 })
    case .object(let object):
      var resolved: JSONObject = [:]
      for (key, member) in object {
        if key == "field", let name = member.stringValue {
          resolved.append(key, .string(resolve(name)))
        } else {
          resolved.append(key, resolveFields(member) ?? member)
        }
      }
      return .object(resolved)
    default: return value
    }
  }
}
