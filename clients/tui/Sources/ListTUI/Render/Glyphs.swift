// Accessories drawn as glyphs: › ✓ ⓘ ≡, badges, labels, progress bars, toggles, a spinner.
import JSON

/// The glyphs of accessories and outline disclosure.
public enum Glyphs {
  /// The spinner frames of `activityIndicator` and of a pending refresh.
  public static let spinner: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// The spinner frame at `time` seconds (10 frames a second).
  public static func spinner(at time: Double) -> String {
    spinner[Int((time * 10).rounded(.down)) % spinner.count]
  }

  /// The disclosure triangle of an outline row: ▾ expanded, ▸ collapsed, nil for a leaf.
  public static func disclosure(hasChildren: Bool, expanded: Bool) -> String? {
    hasChildren ? (expanded ? "▾" : "▸") : nil
  }

  /// An accessory as spans: `›`, `✓`, `ⓘ`, `≡`, ` 3 ` (badge), `label`, `[████░░░░] 64%`,
  /// `[on ]`/`[off]`, a spinner frame, … Nil for accessories drawn elsewhere
  /// (`outlineDisclosure`: the ▸/▾; `multiselect`: the selection mark).
  public static func accessory(_ value: JSONValue, time: Double) -> (text: String, style: Style)? {
    switch value["type"]?.stringValue ?? "" {
    case "disclosureIndicator": return ("›", Style(dim: true))
    case "checkmark": return ("✓", Style(color: Style.blue, bold: true))
    case "detail": return ("ⓘ", Style(color: Style.blue))
    case "reorder": return ("≡", Style(dim: true))
    case "delete": return ("⊖", Style(color: Style.red))
    case "label": return (value["text"]?.stringValue ?? "", Style(dim: true))
    case "badge": return (" \(value["text"]?.stringValue ?? "") ", Style(color: Style.red, reverse: true))
    case "image": return ("◇\(value["name"]?.stringValue ?? "")", Style(dim: true))
    case "custom": return ("‹\(value["name"]?.stringValue ?? "")›", Style(dim: true))
    case "progress":
      let fraction = max(0, min(1, value["value"]?.doubleValue ?? 0))
      let filled = Int((fraction * 8).rounded())
      let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 8 - filled)
      return ("[\(bar)] \(Int((fraction * 100).rounded()))%", Style(color: Style.cyan))
    case "activityIndicator": return (spinner(at: time), Style(color: Style.cyan))
    case "toggle":
      return value["isOn"]?.boolValue == true
        ? ("[on ]", Style(color: Style.green, bold: true)) : ("[off]", Style(dim: true))
    case "popUpMenu":
      let first = value["actions"]?.arrayValue?.first?["title"]?.stringValue ?? ""
      return ("\(first) ⌄", Style(color: Style.blue))
    default: return nil
    }
  }
}
