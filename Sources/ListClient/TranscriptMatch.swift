// Structural matching with "*" wildcards, for scripted sessions and example transcripts.
import JSON

/// Structural matching of JSON-RPC messages against expectations in which `"*"` matches any
/// value: how `listctl run` and the protocol's example transcripts are checked.
public enum TranscriptMatch {
  /// Where `actual` differs from `expected` (`"*"` matching anything), or nil if it matches.
  /// Objects must have the same members; arrays the same length. O(size of `expected`).
  public static func difference(_ expected: JSONValue, _ actual: JSONValue, path: String = "$") -> String? {
    if expected == "*" { return nil }
    switch (expected, actual) {
    case (.object(let e), .object(let a)):
      let expectedKeys = Set(e.keys)
      let actualKeys = Set(a.keys)
      if expectedKeys != actualKeys {
        let missing = expectedKeys.subtracting(actualKeys).sorted()
        let extra = actualKeys.subtracting(expectedKeys).sorted()
        return "members of \(path) differ (missing \(missing), unexpected \(extra))"
      }
      for (key, value) in e {
        if let other = a[key], let difference = difference(value, other, path: "\(path).\(key)") {
          return difference
        }
      }
      return nil
    case (.array(let e), .array(let a)):
      if e.count != a.count { return "\(path) has \(a.count) elements, expected \(e.count)" }
      for (index, (x, y)) in zip(e, a).enumerated() {
        if let difference = difference(x, y, path: "\(path)[\(index)]") { return difference }
      }
      return nil
    default:
      return expected == actual
        ? nil
        : "\(path) is \(actual.jsonString(prettyPrinted: false)), expected \(expected.jsonString(prettyPrinted: false))"
    }
  }

  /// `actual` with `"*"` wherever `expected` has it: rewriting expectations keeps their
  /// wildcards. O(size of `actual`).
  public static func mergeWildcards(_ expected: JSONValue, _ actual: JSONValue) -> JSONValue {
    if expected == "*" { return "*" }
    switch (expected, actual) {
    case (.object(let e), .object(let a)):
      var merged = JSONObject()
      for (key, value) in a {
        let previous: JSONValue? = e[key]
        merged.append(key, previous.map { mergeWildcards($0, value) } ?? value)
      }
      return .object(merged)
    case (.array(let e), .array(let a)) where e.count == a.count:
      return .array(zip(e, a).map(mergeWildcards))
    default:
      return actual
    }
  }
}
