// A view's definition on the wire: `filter`, `sort` and `group` decoded from params and encoded back.
import JSON
import JSONRPC
import ListModel
import ListProtocol

enum ViewDecoding {
  /// A field name (`text`, `secondaryText`, `image`, `id`, `data.a.b`, `cells.column` or a column id).
  static func field(_ p: Params, _ key: String) throws(ResponseError) -> ViewField {
    let name = try p.string(key)
    guard let field = ViewField(wire: name) else {
      throw p.invalid(
        key, "must name a field (text, secondaryText, image, id, data.path, cells.column), got \"\(name)\"")
    }
    return field
  }

  /// A scalar value (`null`, Boolean, number or string).
  static func value(_ p: Params, _ key: String, _ json: JSONValue) throws(ResponseError) -> ViewValue {
    switch json {
    case .array, .object:
      throw p.mismatch(key, "a string, number, Boolean or null", json)
    default: return ViewValue(json: json)
    }
  }

  /// `{query?, match?: "all" | "any", predicates?: [{field, op, value}]}`.
  static func filter(_ p: Params) throws(ResponseError) -> ViewFilter {
    try p.requireKnown(["query", "match", "predicates"])
    var filter = ViewFilter(query: try p.optionalString("query"))
    filter.combination = try p.optionalEnumeration("match", as: ViewFilter.Combination.self) ?? .all
    for (index, predicate) in (try p.optionalObjects("predicates") ?? []).enumerated() {
      _ = index
      try predicate.requireKnown(["field", "op", "value"])
      let field = try field(predicate, "field")
      let opName = try predicate.string("op")
      guard let op = FieldPredicate.Operator(wire: opName) else {
        throw predicate.invalid(
          "op", "must be one of =, ≠ (!=), <, ≤ (<=), >, ≥ (>=), contains, in; got \"\(opName)\"")
      }
      let raw = try predicate.value("value")
      let values: [ViewValue]
      if op == .in {
        guard case .array(let array) = raw else {
          throw predicate.mismatch("value", "an array (for \"in\")", raw)
        }
        var decoded: [ViewValue] = []
        for element in array { decoded.append(try value(predicate, "value", element)) }
        values = decoded
      } else {
        values = [try value(predicate, "value", raw)]
        if op == .contains, case .string = values[0] {
        } else if op == .contains {
          throw predicate.mismatch("value", "a string (for \"contains\")", raw)
        }
      }
      filter.predicates.append(FieldPredicate(field: field, op: op, values: values))
    }
    return filter
  }

  /// `[{field, descending?}]`.
  static func sort(_ p: Params) throws(ResponseError) -> [SortKey] {
    var keys: [SortKey] = []
    for key in try p.objects("sort") {
      try key.requireKnown(["field", "descending"])
      keys.append(
        SortKey(field: try field(key, "field"), descending: try key.optionalBool("descending") ?? false))
    }
    return keys
  }

  /// `{field, by?: "value" | "initial", descending?}`.
  static func group(_ p: Params) throws(ResponseError) -> ViewGrouping {
    try p.requireKnown(["field", "by", "descending"])
    let by = try p.optionalString("by") ?? "value"
    guard by == "value" || by == "initial" else {
      throw p.invalid("by", "must be \"value\" or \"initial\", got \"\(by)\"")
    }
    return ViewGrouping(
      field: try field(p, "field"), byInitial: by == "initial",
      descending: try p.optionalBool("descending") ?? false)
  }

  /// The definition in `params`; members left out keep `base`'s, `null` removes them.
  static func definition(_ p: Params, base: ViewDefinition = ViewDefinition()) throws(ResponseError)
    -> ViewDefinition
  {
    var definition = base
    if try p.member("filter") != nil {
      definition.filter = try p.optionalObject("filter").map { (f) throws(ResponseError) in try filter(f) }
    }
    if try p.member("sort") != nil { definition.sort = try p.contains("sort") ? try sort(p) : [] }
    if try p.member("group") != nil {
      definition.group = try p.optionalObject("group").map { (g) throws(ResponseError) in try group(g) }
    }
    return definition
  }

  /// Refuses a cell field — `cells.X`, or a name that is no built-in field — of the `filter`,
  /// `sort` and `group` that `p` gives when `X` is not a column of the source (`columns`, as the
  /// source is when the view is made or changed): every cell names a column of its list, so the
  /// field could only ever be null — a misspelt field, which would sort nothing or filter
  /// everything out. -32602 naming the field's path and the name.
  static func checkColumns(_ p: Params, columns: [ListColumn], source: String) throws(ResponseError) {
    let ids = Set(columns.map(\.id))
    func check(_ q: Params) throws(ResponseError) {
      let name = try q.string("field")
      guard case .cell(let column)? = ViewField(wire: name), !ids.contains(column) else { return }
      let field = q.path(of: "field")
      let known =
        columns.isEmpty ? "it has no columns" : "its columns: " + columns.map(\.id).joined(separator: ", ")
      throw ResponseError(
        .invalidParams,
        "invalid params: \"\(field)\" must name a field (text, secondaryText, image, id, data.path, "
          + "cells.column or a column id), got \"\(name)\": '\(column)' is not a column of '\(source)' (\(known))",
        data: ["field": .string(field), "value": .string(name), "list": .string(source)])
    }
    if let filter = try p.optionalObject("filter") {
      for predicate in try filter.optionalObjects("predicates") ?? [] { try check(predicate) }
    }
    if try p.contains("sort") { for key in try p.objects("sort") { try check(key) } }
    if let group = try p.optionalObject("group") { try check(group) }
  }

  /// `{filter, sort, group}` as the wire has them (`null` when absent).
  static func encode(_ definition: ViewDefinition) -> JSONValue {
    var filter: JSONValue = .null
    if let f = definition.filter {
      var object: JSONObject = [:]
      if let query = f.query { object.append("query", .string(query)) }
      object.append("match", .string(f.combination.rawValue))
      object.append(
        "predicates",
        .array(
          f.predicates.map { predicate in
            [
              "field": .string(predicate.field.wire), "op": .string(predicate.op.rawValue),
              "value": predicate.op == .in ? .array(predicate.values.map(\.json)) : predicate.values[0].json,
            ]
          }))
      filter = .object(object)
    }
    let sort: JSONValue = .array(
      definition.sort.map { ["field": .string($0.field.wire), "descending": .bool($0.descending)] })
    let group: JSONValue =
      definition.group.map {
        [
          "field": .string($0.field.wire), "by": .string($0.byInitial ? "initial" : "value"),
          "descending": .bool($0.descending),
        ]
      } ?? .null
    return ["filter": filter, "sort": sort, "group": group]
  }
}
