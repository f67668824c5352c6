// A JSON Schema (2020-12 subset) validator used to check every server message against Protocol/.
import JSON

/// Validates JSON values against the subset of JSON Schema that `Protocol/protocol.json` uses:
/// `type` (name or list), `properties`, `required`, `additionalProperties` (bool or schema),
/// `items`, `prefixItems`, `enum`, `const`, `minimum`, `maximum`, `minItems`, `maxItems`,
/// `minLength`, `oneOf`, `anyOf`, `allOf`, `not`, and `$ref` into the root's `$defs`.
/// Unknown keywords (`description`, `examples`, …) are ignored; an unknown `$ref` is a failure.
public struct SchemaValidator: Sendable {
  /// The document `$ref`s resolve against (`#/$defs/Name`).
  public let root: JSONValue

  public init(root: JSONValue) { self.root = root }

  /// Returns one message per violation, each prefixed with the JSON path of the offending value.
  /// An empty array means the value conforms.
  public func validate(_ value: JSONValue, against schema: JSONValue, path: String = "$") -> [String] {
    var problems: [String] = []
    check(value, schema, path, &problems, depth: 0)
    return problems
  }

  private func check(
    _ value: JSONValue, _ schema: JSONValue, _ path: String, _ problems: inout [String], depth: Int
  ) {
    guard depth < 64 else { return problems.append("\(path): schema nesting too deep (recursive $ref?)") }
    if case .bool(let allowed) = schema {
      if !allowed { problems.append("\(path): no value is allowed here") }
      return
    }
    guard let schema = schema.objectValue else { return problems.append("\(path): schema is not an object") }

    if let ref = schema["$ref"]?.stringValue {
      guard let target = resolve(ref) else { return problems.append("\(path): unknown $ref \(ref)") }
      check(value, target, path, &problems, depth: depth + 1)
    }
    if let type = schema["type"] {
      let names = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
      if !names.contains(where: { matches(value, type: $0) }) {
        problems.append(
          "\(path): expected \(names.joined(separator: " or ")), got \(value.typeName) \(brief(value))")
        return
      }
    }
    if let options = schema["enum"]?.arrayValue, !options.contains(value) {
      problems.append("\(path): \(brief(value)) is not one of \(brief(.array(options)))")
    }
    if let constant = schema["const"], constant != value {
      problems.append("\(path): expected \(brief(constant)), got \(brief(value))")
    }
    if let number = value.doubleValue {
      if let minimum = schema["minimum"]?.doubleValue, number < minimum {
        problems.append("\(path): \(brief(value)) is below the minimum \(minimum)")
      }
      if let maximum = schema["maximum"]?.doubleValue, number > maximum {
        problems.append("\(path): \(brief(value)) is above the maximum \(maximum)")
      }
    }
    if let string = value.stringValue, let minLength = schema["minLength"]?.intValue, string.count < minLength
    {
      problems.append("\(path): string shorter than \(minLength)")
    }
    if let object = value.objectValue { checkObject(object, schema, path, &problems, depth: depth) }
    if let array = value.arrayValue { checkArray(array, schema, path, &problems, depth: depth) }
    checkCombinators(value, schema, path, &problems, depth: depth)
  }

  private func checkObject(
    _ object: JSONObject, _ schema: JSONObject, _ path: String, _ problems: inout [String], depth: Int
  ) {
    let properties = schema["properties"]?.objectValue ?? JSONObject()
    for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
      problems.append("\(path): missing required member \"\(name)\"")
    }
    for (key, member) in object {
      if let propertySchema = properties[key] {
        check(member, propertySchema, "\(path).\(key)", &problems, depth: depth + 1)
      } else if let additional = schema["additionalProperties"] {
        if case .bool(false) = additional {
          problems.append("\(path): unexpected member \"\(key)\"")
        } else {
          check(member, additional, "\(path).\(key)", &problems, depth: depth + 1)
        }
      }
    }
  }

  private func checkArray(
    _ array: [JSONValue], _ schema: JSONObject, _ path: String, _ problems: inout [String], depth: Int
  ) {
    if let minItems = schema["minItems"]?.intValue, array.count < minItems {
      problems.append("\(path): fewer than \(minItems) elements")
    }
    if let maxItems = schema["maxItems"]?.intValue, array.count > maxItems {
      problems.append("\(path): more than \(maxItems) elements")
    }
    let prefix = schema["prefixItems"]?.arrayValue ?? []
    for (index, element) in array.enumerated() {
      if index < prefix.count {
        check(element, prefix[index], "\(path)[\(index)]", &problems, depth: depth + 1)
      } else if let items = schema["items"] {
        check(element, items, "\(path)[\(index)]", &problems, depth: depth + 1)
      }
    }
  }

  private func checkCombinators(
    _ value: JSONValue, _ schema: JSONObject, _ path: String, _ problems: inout [String], depth: Int
  ) {
    for sub in schema["allOf"]?.arrayValue ?? [] {
      check(value, sub, path, &problems, depth: depth + 1)
    }
    if let options = schema["anyOf"]?.arrayValue,
      !options.contains(where: { validate(value, against: $0, path: path).isEmpty })
    {
      problems.append("\(path): \(brief(value)) matches none of the anyOf alternatives")
    }
    if let options = schema["oneOf"]?.arrayValue {
      let outcomes = options.map { validate(value, against: $0, path: path) }
      let matching = outcomes.filter(\.isEmpty).count
      if matching != 1 {
        // The problems of the nearest alternative say what to fix (for a discriminated union:
        // the one whose `type` matched).
        let nearest = matching == 0 ? outcomes.min { $0.count < $1.count } ?? [] : []
        problems.append(
          "\(path): \(brief(value)) matches \(matching) of the oneOf alternatives, not exactly one"
            + (nearest.isEmpty ? "" : " (nearest: \(nearest.joined(separator: "; ")))"))
      }
    }
    if let negated = schema["not"], validate(value, against: negated, path: path).isEmpty {
      problems.append("\(path): \(brief(value)) matches a schema it must not match")
    }
  }

  private func resolve(_ ref: String) -> JSONValue? {
    let prefix = "#/$defs/"
    guard ref.hasPrefix(prefix) else { return nil }
    return root["$defs"]?[String(ref.dropFirst(prefix.count))]
  }

  private func matches(_ value: JSONValue, type: String) -> Bool {
    switch (type, value) {
    case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object):
      return true
    case ("integer", .int): return true
    case ("integer", .double(let number)): return number.rounded() == number
    case ("number", .int), ("number", .double): return true
    default: return false
    }
  }

  /// A short rendering of a value for messages.
  private func brief(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return String(flag)
    case .int(let number): return String(number)
    case .double(let number): return String(number)
    case .string(let text): return "\"\(text.prefix(40))\""
    case .array(let elements):
      return "[" + elements.prefix(5).map(brief).joined(separator: ", ") + (elements.count > 5 ? ", …]" : "]")
    case .object(let object): return "{" + object.keys.prefix(5).joined(separator: ", ") + "}"
    }
  }
}
