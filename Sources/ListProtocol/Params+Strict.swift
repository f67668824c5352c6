// Rejects unknown members, so a typo in a field name is an error instead of a silent no-op.
import JSONRPC

extension Params {
  /// Throws -32602 naming the first member whose name is not in `known`. O(members × known).
  /// `null` params count as `{}` (LSP clients send `"params": null` for `shutdown`).
  public func requireKnown(_ known: [String]) throws(ResponseError) {
    if deferred == nil && value == .null { return }
    for key in try memberNames() where !known.contains(key) {
      guard !known.isEmpty else { throw invalid(key, "is not a known field here (this takes no fields)") }
      let list = known.map { "\"\($0)\"" }.joined(separator: ", ")
      throw invalid(key, "is not a known field here (expected one of \(list))")
    }
  }

  /// Exactly one of `keys` must be present; returns it. `what` describes the choice in errors.
  public func requireOne(of keys: [String], _ what: String) throws(ResponseError) -> String {
    var present: [String] = []
    for key in keys where try contains(key) { present.append(key) }
    guard present.count == 1 else {
      let names = keys.map { "\"\(path(of: $0))\"" }.joined(separator: ", ")
      let found = present.isEmpty ? "none" : present.map { "\"\(path(of: $0))\"" }.joined(separator: " and ")
      // At the top level `data.field` names a member: the second one given, or the first expected.
      let field = !path.isEmpty ? path : present.count > 1 ? present[1] : keys[0]
      throw .invalidParams("\(what): give exactly one of \(names), got \(found)", field: field)
    }
    return present[0]
  }
}
