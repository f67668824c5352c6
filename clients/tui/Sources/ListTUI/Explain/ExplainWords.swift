// A `list/explain {list, item}` answer in words: the version and source, then each cause.
import JSON
import ListProtocol

/// Explanations as lines of text. The Neovim plugin (`lua/listd/explain.lua`) writes the same
/// lines; `clients/wording/explain-cases.json` holds the cases both are tested against.
///
/// ```
/// v12 · list/edit by session 3 (listctl)
/// changed (edit 0: updateItems)
///   text: "Draft" → "Final"
/// ```
public enum ExplainWords {
  /// The lines for an answer of `list/explain` with `item`. `noun` names what the item is
  /// to the reader ("row", "item") in the line said when no kept change concerns it.
  public static func lines(answer: JSONValue, noun: String) -> [String] {
    guard let version = answer["version"]?.intValue else {
      return ["No kept change concerns this \(noun)."]
    }
    let explanation = answer["explain"].flatMap(Explanation.init)
    var lines = [header(version: Int(version), source: explanation?.source)]
    let expanded = Set((answer["changeset"]?["expanded"]?.arrayValue ?? []).compactMap(\.stringValue))
    for cause in explanation?.causes ?? [] { lines += causeLines(cause, expanded: expanded) }
    return lines
  }

  /// `v12 · list/edit by session 3 (listctl)`; `v5 · demo` for the daemon's own changes.
  public static func header(version: Int, source: Explanation.Source?) -> String {
    var text = "v\(version) · \(source?.method ?? "?")"
    if let session = source?.session {
      text += " by session \(session)"
      if let name = source?.name { text += " (\(name))" }
    }
    return text
  }

  /// A cause: its phrase and edit on one line, then one indented line per changed field.
  /// `expanded`: the ids the change expanded (its changeset's `expanded`).
  public static func causeLines(_ cause: Explanation.Cause, expanded: Set<String> = []) -> [String] {
    var line = phrase(cause, expanded: expanded)
    if let edit = cause.edit { line += " (edit \(edit.index): \(edit.op))" }
    let fields = cause.fields.map { change in
      "  \(change.field): \(ValueWords.value(change.old, field: change.field)) → "
        + ValueWords.value(change.new, field: change.field)
    }
    return [line] + fields
  }

  /// The reason in words, with the ids it names: `moved between a and c`, `hidden under
  /// collapsed folder`. Section changes start with `section ID`.
  /// A row is `revealed` by its ancestor's expansion when the change expanded it (`expanded`),
  /// else by a move out from under it.
  public static func phrase(_ cause: Explanation.Cause, expanded: Set<String> = []) -> String {
    let (change, reason, parent) = (cause.change, cause.reason, cause.parent)
    let section = cause.section ?? "?"
    let words: String
    switch reason {
    case "added", "removed", "changed": words = reason
    case "hidden": words = "hidden under collapsed \(parent ?? "?")"
    case "revealed":
      words =
        parent.map { expanded.contains($0) } == true
        ? "revealed: \(parent ?? "?") was expanded"
        : "revealed: moved out from under collapsed \(parent ?? "?")"
    case "reparented":
      let under = parent.map { "moved under \($0)" } ?? "moved to the top level"
      words = under + (change == "itemDeletes" ? ", now hidden" : ", was hidden")
    case "fromDeletedSection": words = "moved out of deleted section \(section)"
    case "toInsertedSection": words = "moved to new section \(section)"
    case "reloadedAndMoved": words = "reloaded and moved"
    case "reordered": words = ["moved", neighbours(cause)].compactMap { $0 }.joined(separator: " ")
    case "changedSection":
      let from = "moved from section \(cause.fromSection ?? "?")"
      words = [from, neighbours(cause)].compactMap { $0 }.joined(separator: ", ")
    case "requested": words = requested(change, mode: cause.mode)
    case "unselectable": words = "no longer selectable"
    case "selectionMode": words = "the selection mode changed"
    case "deselected": words = "deselected"
    default: words = reason
    }
    if change == "deselected" && reason != "deselected" {
      return "deselected: " + (reason == "hidden" ? "hidden under collapsed \(parent ?? "?")" : words)
    }
    return change.hasPrefix("section") ? "section \(section) \(words)" : words
  }

  /// `between a and c`, `to the start, before c`, `to the end, after a`, or nil (no neighbours).
  static func neighbours(_ cause: Explanation.Cause) -> String? {
    switch (cause.after, cause.before) {
    case (let after?, let before?): return "between \(after) and \(before)"
    case (nil, let before?): return "to the start, before \(before)"
    case (let after?, nil): return "to the end, after \(after)"
    case (nil, nil): return nil
    }
  }

  /// What a `requested` change asked for.
  static func requested(_ change: String, mode: String?) -> String {
    switch change {
    case "itemReloads", "sectionReloads": return "reload requested"
    case "itemReconfigures": return "reconfigure requested"
    case "selected", "expanded", "collapsed": return change
    case "selectionMode": return "selection mode set to \(mode ?? "?")"
    default: return "requested"
    }
  }
}
