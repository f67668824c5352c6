// One readable line per cause of an explanation: the items it concerns, why, and which edit did it.
import JSON
import ListClient
import ListProtocol

/// Describes an ``Explanation`` (Protocol/README.md, "Inspector: explanations") one cause a
/// line: `~ a  text "A" → "A2" (edit 1 patchItems)`, `+ d1, d2  revealed: d expanded`,
/// `↕ c  reordered, now between (start) and a`, `+ 100000 rows from d1  revealed: d expanded`.
///
/// Items are named by id, as the causes name parents and neighbours. The signs are those of
/// ``ChangeLine``.
enum ExplainLine {
  /// The lines of every cause of `explanation`, made for `changeset`.
  ///
  /// Inserted, reloaded and reconfigured rows are named from the rows the changeset carries;
  /// deleted and moved rows (and deleted sections) from `before`, the rows before the change.
  /// Without `before`, or when it does not match, a run of several rows is named by its first
  /// id and its length. O(causes).
  static func lines(_ explanation: Explanation, changeset: JSONValue, before: Mirror? = nil) -> [String] {
    let expanded = Set((changeset["expanded"]?.arrayValue ?? []).compactMap(\.stringValue))
    return explanation.causes.map { cause in
      subject(cause, changeset: changeset, before: before) + "  " + reason(cause, expanded: expanded)
    }
  }

  /// `list/edit by session 4 (listctl)`; the method alone for the daemon's own changes.
  static func source(_ source: Explanation.Source) -> String {
    guard let session = source.session else { return source.method }
    return "\(source.method) by session \(session)" + (source.name.map { " (\($0))" } ?? "")
  }

  /// The sign of each changeset member, as ``ChangeLine`` shows it.
  static let signs: [String: String] = [
    "sectionDeletes": "−§", "sectionInserts": "+§", "sectionMoves": "↕§", "sectionReloads": "~§",
    "itemDeletes": "−", "itemInserts": "+", "itemMoves": "↕", "itemReloads": "⟳", "itemReconfigures": "~",
    "selected": "✓", "deselected": "✗", "expanded": "▾", "collapsed": "▸", "selectionMode": "mode",
    "columns": "columns", "emptyState": "empty state", "isEditing": "editing",
  ]

  /// `+ d1, d2`: the sign and what the cause covers.
  static func subject(_ cause: Explanation.Cause, changeset: JSONValue, before: Mirror?) -> String {
    let sign = signs[cause.change] ?? cause.change
    switch cause.change {
    case "selectionMode":
      return "\(sign) \(cause.mode ?? "?")"
    case "columns", "emptyState", "isEditing":
      return sign
    case "selected", "deselected", "expanded", "collapsed":
      return "\(sign) "
        + names(cause.items, first: cause.items.first ?? "?", count: cause.items.count, "items")
    case let change where change.hasPrefix("section"):
      let first = cause.section ?? "?"
      let ids = covered(cause, changeset: changeset, before: before)
      return "\(sign) " + names(ids?.first == first ? ids : nil, first: first, count: cause.count, "sections")
    default:
      let first = cause.item ?? "?"
      let ids = covered(cause, changeset: changeset, before: before)
      return "\(sign) " + names(ids?.first == first ? ids : nil, first: first, count: cause.count, "rows")
    }
  }

  /// `a, b, c` for at most ``ChangeLine/shownNames`` known ids; else `first` alone, or
  /// `12 rows from first`.
  static func names(_ ids: [String]?, first: String, count: Int, _ noun: String) -> String {
    if let ids, ids.count == count, count <= ChangeLine.shownNames { return ids.joined(separator: ", ") }
    return count == 1 ? first : "\(count) \(noun) from \(first)"
  }

  /// The ids of the rows (sections) the cause covers, from the changeset's entry or the rows
  /// before; nil when they are not at hand.
  static func covered(_ cause: Explanation.Cause, changeset: JSONValue, before: Mirror?) -> [String]? {
    guard let index = cause.entry, let entries = changeset[cause.change]?.arrayValue,
      entries.indices.contains(index), cause.offset >= 0, cause.count >= 0
    else { return nil }
    let entry = entries[index]
    let range = cause.offset..<(cause.offset + cause.count)
    func slice<T>(_ all: [T], from start: Int) -> [T]? {
      let lower = start + range.lowerBound
      guard lower >= 0, lower + range.count <= all.count else { return nil }
      return Array(all[lower..<(lower + range.count)])
    }
    func oldIDs(section: Int?, row: Int?) -> [String]? {
      guard let section, let row, let old = before?.sections, old.indices.contains(section) else {
        return nil
      }
      return slice(old[section].rows, from: row)?.map { $0["id"]?.stringValue ?? "?" }
    }
    let numbers = (entry.arrayValue ?? []).map { $0.intValue.map(Int.init) }
    switch cause.change {
    case "itemInserts", "itemReloads", "itemReconfigures":
      return slice(entry["rows"]?.arrayValue ?? [], from: 0)?.map { $0["id"]?.stringValue ?? "?" }
    case "itemDeletes", "itemMoves":
      return numbers.count >= 2 ? oldIDs(section: numbers[0], row: numbers[1]) : nil
    case "sectionDeletes":
      guard let start = numbers.first ?? nil, let old = before?.sections else { return nil }
      return slice(old, from: start)?.map(\.id)
    case "sectionInserts":
      return entry["section"]?["id"]?.stringValue.map { [$0] }
    case "sectionReloads":
      return entry["id"]?.stringValue.map { [$0] }
    default:
      return nil
    }
  }

  /// Why, in words: `revealed: d expanded`, `text "A" → "A2"`, … then `(edit 2 deleteItems)`
  /// when an edit of the batch did it (`(outline/expand)` for a method of its own).
  /// A row is `revealed` by its ancestor's expansion when the change expanded it (`expanded`,
  /// the changeset's), else by a move out from under it; `hidden` likewise.
  static func reason(_ cause: Explanation.Cause, expanded: Set<String> = []) -> String {
    func between() -> String { "now between \(cause.after ?? "(start)") and \(cause.before ?? "(end)")" }
    var text: String
    switch cause.reason {
    case "revealed":
      text =
        cause.parent.map { expanded.contains($0) } == true
        ? "revealed: \(cause.parent ?? "?") expanded"
        : "revealed: moved out from under collapsed \(cause.parent ?? "?")"
    case "hidden": text = "hidden: \(cause.parent ?? "?") collapsed"
    case "reparented":
      text =
        (cause.parent.map { "reparented under \($0)" } ?? "reparented to the top level")
        + (cause.change == "itemInserts" ? ", was hidden" : ", now hidden")
    case "fromDeletedSection": text = "moved from deleted section \(cause.section ?? "?")"
    case "toInsertedSection": text = "moved to new section \(cause.section ?? "?")"
    case "reloadedAndMoved": text = "reloaded and moved"
    case "reordered": text = "reordered, " + between()
    case "changedSection": text = "moved from section \(cause.fromSection ?? "?"), " + between()
    case "changed":
      text = cause.fields.map { "\($0.field) \(value($0.old)) → \(value($0.new))" }.joined(separator: "; ")
    case "unselectable": text = "now unselectable"
    case "selectionMode": text = "the selection mode changed"
    default: text = cause.reason
    }
    // `✗ notes  removed` would read as a second removal of the row: say what happened to the
    // selection, and why (as the TUI and Neovim word it).
    if cause.change == "deselected" && cause.reason != "deselected" { text = "deselected: " + text }
    if let edit = cause.edit {
      text += edit.op.contains("/") ? " (\(edit.op))" : " (edit \(edit.index) \(edit.op))"
    }
    return text
  }

  /// The longest field value shown; longer ones end with `…`.
  static let valueLength = 40

  /// A field value as compact JSON (`"A"`, `true`, `[{"type":"badge",…`), `(none)` when unset.
  static func value(_ value: JSONValue) -> String {
    guard value != .null else { return "(none)" }
    let text = value.jsonString()
    return text.count <= valueLength ? text : String(text.prefix(valueLength - 1)) + "…"
  }
}
