// The readable tree of `listctl show`: sections, outline indentation, selection marks, accessories.
import JSON
import ListClient

/// Renders a `list/subscribe` entry (info + full snapshot) as text.
enum TreeRenderer {
  /// The whole list, one line per header, row and footer, ending with a newline.
  static func render(_ entry: JSONValue) -> String {
    let info = entry["info"] ?? [:]
    let id = entry["list"]?.stringValue ?? "?"
    var lines = [
      "\(id) '\(info["title"]?.stringValue ?? id)' v\(entry["version"]?.intValue ?? 0) · "
        + "\(info["appearance"]?.stringValue ?? "plain") · selection \(info["selectionMode"]?.stringValue ?? "single")"
    ]
    let snapshot = entry["snapshot"] ?? [:]
    if snapshot["editing"]?.boolValue == true { lines[0] += " · editing" }
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
      var head = "§ \(section["id"]?.stringValue ?? "?")"
      if let header = section["header"]?.stringValue { head += " — \(header)" }
      lines.append(head)
      for row in section["rows"]?.arrayValue ?? [] {
        if let table {
          let mark = selection.contains(row["id"]?.stringValue ?? "") ? "●" : " "
          lines.append("\(mark) " + table.line(row))
          continue
        }
        let mark = selection.contains(row["id"]?.stringValue ?? "") ? "●" : " "
        let indent = String(repeating: "  ", count: Int(row["level"]?.intValue ?? 0))
        let disclosure =
          row["hasChildren"]?.boolValue == true ? (row["expanded"]?.boolValue == true ? "▾ " : "▸ ") : "  "
        var line = "\(mark) \(indent)\(disclosure)\(label(row))"
        if let secondary = row["secondaryText"]?.stringValue { line += " · \(secondary)" }
        // By type, whatever the array's order (Protocol/README.md, "Accessory order").
        let accessories = AccessoryOrder.displayed(row["accessories"]?.arrayValue ?? []).map(accessory)
        if !accessories.isEmpty { line += "  [" + accessories.joined(separator: "] [") + "]" }
        lines.append(line)
      }
      if let footer = section["footer"]?.stringValue { lines.append("  ⌊ \(footer)") }
    }
    return lines.joined(separator: "\n") + "\n"
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
