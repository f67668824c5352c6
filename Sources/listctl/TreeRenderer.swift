// The readable tree of `listctl show`: sections, outline indentation, selection marks, accessories.
import JSON
import ListClient

/// Renders a `list/subscribe` entry (info + full snapshot) as text.
enum TreeRenderer {
  /// The whole list, one line per header, row and footer, ending with a newline.
  static func render(_ entry: JSONValue) -> String {
    let info = entry["info"] ?? [:]
    let snapshot = entry["snapshot"] ?? [:]
    var lines = [
      headLine(
        list: entry["list"]?.stringValue ?? "?", info: info, version: Int(entry["version"]?.intValue ?? 0),
        editing: snapshot["editing"]?.boolValue == true)
    ]
    let selection = Set((snapshot["selection"]?.arrayValue ?? []).compactMap(\.stringValue))
    let sections = snapshot["sections"]?.arrayValue ?? []
    if let state = snapshot["emptyState"],
      sections.allSatisfy({ ($0["rows"]?.arrayValue ?? []).isEmpty })
    {
      lines += TableRenderer.emptyState(state)
    }
    let table = (snapshot["columns"]?.arrayValue).flatMap { TableRenderer(columns: $0, sections: sections) }
    if let table { lines.append("  " + table.header()) }
    for section in sections {
      lines.append(sectionHead(section))
      for row in section["rows"]?.arrayValue ?? [] {
        lines.append(line(row, selected: selection.contains(row["id"]?.stringValue ?? ""), table: table))
      }
      if let footer = sectionFoot(section) { lines.append(footer) }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `todo 'Todo' v3 · plain · selection single`, and ` · editing` while editing.
  static func headLine(list id: String, info: JSONValue, version: Int, editing: Bool) -> String {
    "\(id) '\(info["title"]?.stringValue ?? id)' v\(version) · "
      + "\(info["appearance"]?.stringValue ?? "plain") · selection \(info["selectionMode"]?.stringValue ?? "single")"
      + (editing ? " · editing" : "")
  }

  /// `§ id — header`.
  static func sectionHead(_ section: JSONValue) -> String {
    var head = "§ \(section["id"]?.stringValue ?? "?")"
    if let header = section["header"]?.stringValue { head += " — \(header)" }
    return head
  }

  /// `  ⌊ footer`, nil without one.
  static func sectionFoot(_ section: JSONValue) -> String? {
    section["footer"]?.stringValue.map { "  ⌊ \($0)" }
  }

  /// One row: the selection mark, then a table's cells, or the outline indentation, ▸/▾, the
  /// text and the accessories.
  static func line(_ row: JSONValue, selected: Bool, table: TableRenderer?) -> String {
    let mark = selected ? "●" : " "
    if let table { return "\(mark) " + table.line(row) }
    let indent = String(repeating: "  ", count: Int(row["level"]?.intValue ?? 0))
    let disclosure =
      row["hasChildren"]?.boolValue == true ? (row["expanded"]?.boolValue == true ? "▾ " : "▸ ") : "  "
    var line = "\(mark) \(indent)\(disclosure)\(label(row))"
    if let secondary = row["secondaryText"]?.stringValue { line += " · \(secondary)" }
    // By type, whatever the array's order (Protocol/README.md, "Accessory order"); ▸/▾ already
    // show an outline disclosure.
    let accessories = AccessoryOrder.displayed(row["accessories"]?.arrayValue ?? [])
      .filter { $0["type"]?.stringValue != "outlineDisclosure" }.map(accessory)
    if !accessories.isEmpty { line += "  [" + accessories.joined(separator: "] [") + "]" }
    return line
  }

  /// A row's text, or `#id` when it has none.
  static func label(_ row: JSONValue) -> String {
    row["text"]?.stringValue ?? "#\(row["id"]?.stringValue ?? "?")"
  }

  /// A short form of an accessory: `›`, `✓`, `badge 3`, `toggle on`, …
  static func accessory(_ value: JSONValue) -> String {
    let type = value["type"]?.stringValue ?? "?"
    switch type {
    case "disclosureIndicator": return "›"
    case "checkmark": return "✓"
    case "label", "badge": return "\(type) \(value["text"]?.stringValue ?? "")"
    case "image", "custom": return "\(type) \(value["name"]?.stringValue ?? "")"
    case "progress": return "progress \(Int((value["value"]?.doubleValue ?? 0) * 100))%"
    case "toggle": return "toggle \(value["isOn"]?.boolValue == true ? "on" : "off")"
    default: return type
    }
  }
}
