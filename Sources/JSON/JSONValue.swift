// The JSON value type shared by the model (free-form item data) and the protocol layer.

/// A JSON value. Integers that fit in `Int64` stay exact in `.int`; every other number is `.double`.
///
/// Equality is structural and exact: `.int(1) != .double(1)`, and objects compare key order too
/// (see ``JSONObject``), so a value that round-trips through the writer and parser compares equal.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)
}

extension JSONValue {
  /// The string, if this is `.string`.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The integer, if this is `.int` (or a `.double` with an exact Int64 value).
  public var intValue: Int64? {
    switch self {
    case .int(let value): return value
    case .double(let value):
      guard value.rounded() == value, let exact = Int64(exactly: value) else { return nil }
      return exact
    default: return nil
    }
  }

  /// The number as a Double, if this is `.int` or `.double`.
  public var doubleValue: Double? {
    switch self {
    case .int(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }

  /// The Boolean, if this is `.bool`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, if this is `.array`.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The object, if this is `.object`.
  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// Whether this is `.null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The member named `key` if this is an object that has it. O(number of members).
  public subscript(key: String) -> JSONValue? {
    objectValue?[key]
  }

  /// This object with the member `key` set to `value` (replaced or appended); other values are
  /// returned unchanged. O(number of members).
  public func setting(_ key: String, _ value: JSONValue) -> JSONValue {
    guard case .object(var object) = self else { return self }
    object[key] = value
    return .object(object)
  }

  /// The JSON type name used in error messages: "null", "boolean", "integer", "number",
  /// "string", "array" or "object".
  public var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .int: return "integer"
    case .double: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements))
  }
}

/// A JSON object that preserves the order of its members.
///
/// Lookup by key is a linear scan, which is the fastest choice for the small objects of a
/// protocol (a handful of members); build a dictionary yourself for large ones.
/// Duplicate keys are kept as given; `subscript(key)` returns the first.
public struct JSONObject: Hashable, Sendable, RandomAccessCollection {
  public typealias Element = (key: String, value: JSONValue)

  /// Member names, in order.
  public private(set) var keys: [String]
  /// Member values, parallel to `keys`.
  public private(set) var values: [JSONValue]

  /// An empty object.
  public init() {
    keys = []
    values = []
  }

  /// An object with the given members, in order. O(n).
  public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
    keys = []
    values = []
    // Sized once when the count is known (an array, a literal): appending would grow both
    // arrays by doubling and leave them larger than the object, for as long as it lives (an
    // item's canonical `data` lives as long as the item).
    reserveCapacity(members.underestimatedCount)
    for (key, value) in members {
      keys.append(key)
      values.append(value)
    }
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { keys.count }
  public subscript(position: Int) -> Element { (keys[position], values[position]) }

  /// The value of the first member named `key`, or nil. Setting nil removes every member with
  /// that name; setting a value replaces the first member or appends a new one. O(n).
  public subscript(key: String) -> JSONValue? {
    get {
      guard let index = keys.firstIndex(of: key) else { return nil }
      return values[index]
    }
    set {
      if let newValue {
        if let index = keys.firstIndex(of: key) {
          values[index] = newValue
        } else {
          append(key, newValue)
        }
      } else {
        while let index = keys.firstIndex(of: key) {
          keys.remove(at: index)
          values.remove(at: index)
        }
      }
    }
  }

  /// Appends a member without checking for an existing one with the same name. Amortized O(1).
  public mutating func append(_ key: String, _ value: JSONValue) {
    keys.append(key)
    values.append(value)
  }

  /// Reserves room for `capacity` members.
  public mutating func reserveCapacity(_ capacity: Int) {
    keys.reserveCapacity(capacity)
    values.reserveCapacity(capacity)
  }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.keys == rhs.keys && lhs.values == rhs.values
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(keys)
    hasher.combine(values)
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }
}

extension JSONObject {
  /// Adopts parallel arrays as they are (no copy, no duplicate check): for a builder that has
  /// them exactly sized, such as the parser. `keys.count` must equal `values.count`. O(1).
  public init(adoptingKeys keys: [String], values: [JSONValue]) {
    precondition(keys.count == values.count, "keys and values must be parallel")
    self.keys = keys
    self.values = values
  }
}
