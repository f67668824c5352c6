// The view command's --where, --sort, --group and --filter read into a view's filter, sort and group, fields resolved.
import CommandLineDescription
import JSON
import ListClient

extension Command {
  /// The operators of `--where`, as the daemon reads them (Protocol/README.md, Live views).
  static let whereOperators: Set<String> = [
    "=", "==", "!=", "≠", "<", "<=", "≤", ">", ">=", "≥", "contains", "in",
  ]

  /// The filter from --filter, or from --query, --where and --any; nil when none is given.
  static func viewFilter(_ arguments: Arguments, _ fields: ColumnFields) throws -> JSONValue? {
    if let json = arguments.value("--filter") {
      guard let value = try? JSONValue(parsing: Array(json.utf8)) else {
        throw UsageError("--filter must be JSON, got \(json)")
      }
      return try fields.resolveFields(value, option: "--filter")
    }
    let wheres = arguments.all("--where")
    let query = arguments.value("--query")
    guard query != nil || !wheres.isEmpty else { return nil }
    var filter: JSONObject = [:]
    if let query { filter.append("query", .string(query)) }
    if arguments.has("--any") { filter.append("match", "any") }
    let predicates = try wheres.map { try predicate($0, fields) }
    if !predicates.isEmpty { filter.append("predicates", .array(predicates)) }
    return .object(filter)
  }

  /// `{field, op, value}` from `FIELD OP VALUE`. A field may contain spaces (a title such as
  /// `CPU %`), so the operator is the first operator word after which the words before name a
  /// known field (else the first operator word); a field in double quotes is taken as it is.
  static func predicate(_ clause: String, _ fields: ColumnFields) throws -> JSONValue {
    let usage = UsageError("--where needs 'FIELD OP VALUE', got '\(clause)'")
    let candidates: [(field: String, op: String, value: String)]
    if clause.hasPrefix("\""), let close = clause.dropFirst().firstIndex(of: "\"") {
      let rest = clause[clause.index(after: close)...].drop { $0 == " " }
      let words = rest.split(separator: " ", maxSplits: 1).map(String.init)
      guard words.count == 2 else { throw usage }
      candidates = [(String(clause[clause.index(after: clause.startIndex)..<close]), words[0], words[1])]
    } else {
      let words = clause.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      candidates = words.indices.dropFirst().dropLast().filter { whereOperators.contains(words[$0]) }.map {
        (
          words[..<$0].joined(separator: " ").trimmingSpaces, words[$0],
          words[($0 + 1)...].joined(separator: " ")
        )
      }
    }
    guard let chosen = candidates.first(where: { fields.resolve($0.field) != nil }) ?? candidates.first,
      !chosen.field.isEmpty, !chosen.value.isEmpty
    else { throw usage }
    let value = (try? JSONValue(parsing: Array(chosen.value.utf8))) ?? .string(chosen.value)
    return [
      "field": .string(try fields.field(chosen.field, option: "--where")), "op": .string(chosen.op),
      "value": value,
    ]
  }

  /// `[{field, descending}]` from --sort F[:desc],… (`:desc` or `:asc` read from the right, so a
  /// title may contain spaces or colons).
  static func viewSort(_ arguments: Arguments, _ fields: ColumnFields) throws -> JSONValue? {
    guard let sort = arguments.value("--sort") else { return nil }
    return .array(
      try sort.split(separator: ",").map { key in
        let (name, suffix) = splitSuffix(String(key), among: ["desc", "asc"])
        try refuseUnknownSuffix(name, option: "--sort", kind: "order", among: ["asc", "desc"], fields)
        return [
          "field": .string(try fields.field(name, option: "--sort")), "descending": .bool(suffix == "desc"),
        ]
      })
  }

  /// `{field, by}` from --group F[:initial] (`:initial` or `:value` read from the right).
  static func viewGroup(_ arguments: Arguments, _ fields: ColumnFields) throws -> JSONValue? {
    guard let group = arguments.value("--group") else { return nil }
    let (name, suffix) = splitSuffix(group, among: ["initial", "value"])
    try refuseUnknownSuffix(name, option: "--group", kind: "grouping", among: ["initial", "value"], fields)
    return [
      "field": .string(try fields.field(name, option: "--group")),
      "by": .string(suffix == "initial" ? "initial" : "value"),
    ]
  }

  /// A usage error for `text:down`: a name that is no field but would be one without its last
  /// `:SUFFIX` has a mistyped suffix, which is what to say (not "unknown field 'text:down'").
  static func refuseUnknownSuffix(
    _ name: String, option: String, kind: String, among suffixes: [String], _ fields: ColumnFields
  ) throws {
    guard fields.resolve(name) == nil, let colon = name.lastIndex(of: ":"), colon != name.startIndex,
      fields.resolve(String(name[..<colon])) != nil
    else { return }
    let suffix = String(name[name.index(after: colon)...])
    throw UsageError(
      "\(option): unknown \(kind) '\(suffix)' in '\(name)'\(Suggestion.phrase(for: suffix, among: suffixes)) "
        + "(\(suffixes.joined(separator: ", ")))")
  }

  /// `text` without a last `:SUFFIX` of `suffixes`, and that suffix (nil: none).
  static func splitSuffix(_ text: String, among suffixes: [String]) -> (String, String?) {
    for suffix in suffixes where text.hasSuffix(":" + suffix) && text.count > suffix.count + 1 {
      return (String(text.dropLast(suffix.count + 1)), suffix)
    }
    return (text, nil)
  }
}

extension String {
  /// Without leading and trailing spaces.
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
