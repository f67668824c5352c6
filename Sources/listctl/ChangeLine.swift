// One readable line per changeset, for watch and mutation answers.
import JSON

/// Describes wire changesets (Protocol/README.md §4) in one line.
enum ChangeLine {
  /// `v12  +3 'Alice' at 0:4 · −1 at 0:9 · ↕ 0:2→1:0 · ~ 'Bob'`; `v12  (no change)` for `{}`.
  static func describe(version: Int, changeset: JSONValue) -> String {
    var parts: [String] = []
    func each(_ key: String, _ body: (JSONValue) -> String?) {
      for entry in changeset[key]?.arrayValue ?? [] { if let part = body(entry) { parts.append(part) } }
    }
    func numbers(_ value: JSONValue) -> [Int] { (value.arrayValue ?? []).map { Int($0.intValue ?? 0) } }
    func rows(_ entry: JSONValue, _ sign: String, at: Bool) -> String {
      let rows = entry["rows"]?.arrayValue ?? []
      let count = rows.count == 1 && !at ? "" : "\(rows.count)"
      var text = "\(sign)\(count) '\(rows.first.map(TreeRenderer.label) ?? "")'"
      if at, let path = indexPath(entry["at"]) { text += " at \(path)" }
      return text
    }
    func ids(_ key: String, _ sign: String) {
      guard let ids = changeset[key]?.arrayValue, !ids.isEmpty else { return }
      parts.append(sign + " " + ids.compactMap(\.stringValue).joined(separator: " "))
    }
    each("sectionDeletes") { entry in
      let n = numbers(entry)
      guard n.count == 2 else { return nil }
      return n[1] == 1 ? "−§ \(n[0])" : "−\(n[1])§ at \(n[0])"
    }
    each("sectionInserts") {
      "+§ '\($0["section"]?["id"]?.stringValue ?? "?")' at \($0["index"]?.intValue ?? 0)"
    }
    each("sectionMoves") { entry in
      let n = numbers(entry)
      return n.count == 2 ? "↕§ \(n[0])→\(n[1])" : nil
    }
    each("sectionReloads") { "~§ '\($0["id"]?.stringValue ?? "?")'" }
    each("itemInserts") { rows($0, "+", at: true) }
    each("itemDeletes") { entry in
      let n = numbers(entry)
      return n.count == 3 ? "−\(n[2]) at \(n[0]):\(n[1])" : nil
    }
    each("itemMoves") { entry in
      let n = numbers(entry)
      guard n.count == 5 else { return nil }
      return "↕\(n[4] == 1 ? "" : "\(n[4])") \(n[0]):\(n[1])→\(n[2]):\(n[3])"
    }
    each("itemReloads") { rows($0, "⟳", at: false) }
    each("itemReconfigures") { rows($0, "~", at: false) }
    ids("selected", "✓")
    ids("deselected", "✗")
    ids("expanded", "▾")
    ids("collapsed", "▸")
    if let mode = changeset["selectionMode"]?.stringValue { parts.append("mode \(mode)") }
    return "v\(version)  " + (parts.isEmpty ? "(no change)" : parts.joined(separator: " · "))
  }
}
