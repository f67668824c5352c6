// Wire values in words, for explanations: quoted strings, accessories and actions, shortened.
import JSON

/// Field values as people read them. The Neovim plugin (`lua/listd/words.lua`) words them the
/// same way; `clients/wording/explain-cases.json` holds the cases both are tested against.
public enum ValueWords {
  /// The longest value shown, in Unicode scalars; longer ones end in `…`.
  public static let limit = 40

  /// A field's value: `not set` for null, strings quoted, accessories and actions in words,
  /// other arrays and objects as compact JSON (sorted members) — each at most ``limit`` long.
  public static func value(_ value: JSONValue?, field: String) -> String {
    guard let value, !value.isNull else { return "not set" }
    switch (field, value) {
    case ("accessories", .array(let accessories)): return accessoryList(accessories)
    case (_, .array(let actions)) where field.hasSuffix("Actions"): return actionList(actions)
    case (_, .string(let text)): return quoted(text)
    default: return shortened(compact(value))
    }
  }

  /// `"text"`, cut to ``limit`` scalars, with `"` `\` and control characters escaped.
  public static func quoted(_ text: String) -> String { quotedFully(shortened(text)) }

  /// `text` cut to ``limit`` scalars: the first `limit - 1` and `…`.
  public static func shortened(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > limit else { return text }
    var result = String.UnicodeScalarView(scalars.prefix(limit - 1))
    result.append("…")
    return String(result)
  }

  /// Accessories in words, `none` for none: `badge "2", progress 53%, toggle on, checkmark`.
  public static func accessoryList(_ accessories: [JSONValue]) -> String {
    accessories.isEmpty ? "none" : shortened(accessories.map(accessory).joined(separator: ", "))
  }

  /// One accessory in words.
  public static func accessory(_ accessory: JSONValue) -> String {
    let type = accessory["type"]?.stringValue ?? "?"
    switch type {
    case "label", "badge": return "\(type) \(quoted(accessory["text"]?.stringValue ?? ""))"
    case "image", "custom": return "\(type) \(quoted(accessory["name"]?.stringValue ?? ""))"
    case "progress":
      let value = min(1, max(0, accessory["value"]?.doubleValue ?? 0))
      return "progress \(Int((value * 100 + 0.5).rounded(.down)))%"
    case "toggle": return accessory["isOn"]?.boolValue == true ? "toggle on" : "toggle off"
    case "popUpMenu":
      let count = accessory["actions"]?.arrayValue?.count ?? 0
      return "popUpMenu (\(count) action\(count == 1 ? "" : "s"))"
    default: return type
    }
  }

  /// Actions by title, `none` for none: `Cancel (destructive), Archive`.
  public static func actionList(_ actions: [JSONValue]) -> String {
    guard !actions.isEmpty else { return "none" }
    return shortened(
      actions.map { action in
        let title = action["title"]?.stringValue ?? action["id"]?.stringValue ?? "?"
        return action["style"]?.stringValue == "destructive" ? "\(title) (destructive)" : title
      }.joined(separator: ", "))
  }

  /// Compact JSON with object members sorted by name (so both clients write the same text).
  public static func compact(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let bool): return bool ? "true" : "false"
    case .int(let int): return String(int)
    case .double(let double):
      return double == double.rounded() && abs(double) < 1e15 ? String(Int64(double)) : "\(double)"
    case .string(let string): return quotedFully(string)
    case .array(let array): return "[" + array.map(compact).joined(separator: ",") + "]"
    case .object(let object):
      let members = zip(object.keys, object.values).sorted {
        Array($0.0.utf8).lexicographicallyPrecedes($1.0.utf8)
      }
      return "{" + members.map { quotedFully($0.0) + ":" + compact($0.1) }.joined(separator: ",") + "}"
    }
  }

  /// A JSON string literal of the whole of `text` (``quoted(_:)`` without the cut).
  static func quotedFully(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\t": escaped += "\\t"
      case "\r": escaped += "\\r"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return "\"" + escaped + "\""
  }
}
