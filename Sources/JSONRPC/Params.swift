// Typed access to request params, throwing -32602 errors that name the field path and its value.

/// A view of request params (or of an object nested in them) with typed accessors.
///
/// Every accessor throws a -32602 ``ResponseError`` that names the field's path and the value
/// found, with `data: {"field": path}`:
/// `invalid params: "ifVersion" must be an integer, got "abc"`,
/// `invalid params: missing required field "list"`,
/// `invalid params: "edits[3].item" must be a string, got 7`.
/// Optional accessors return nil for a missing member or a `null` one. Lookups are O(number of
/// members) (a linear scan, fastest for the small objects of a protocol).
/// A request's params may be kept as the frame's bytes (``deferred``): members are then parsed
/// one by one as they are asked for, and a handler can decode a large member straight from its
/// bytes (``memberText(_:)``) without building a tree.
public struct Params: Sendable {
  private let tree: JSONValue?
  /// The params as bytes, when the connection kept them so (the params object of a request).
  public let deferred: DeferredParams?
  /// The path of this value from the top of the params ("" for the params themselves).
  public let path: String

  public init(_ value: JSONValue?, path: String = "") {
    self.tree = value
    self.deferred = nil
    self.path = path
  }

  /// Params kept as bytes.
  public init(deferred: DeferredParams) {
    self.tree = nil
    self.deferred = deferred
    self.path = ""
  }

  /// The value viewed (nil when the request had no params). For deferred params this builds
  /// the whole tree: O(size).
  public var value: JSONValue? {
    if let deferred { return deferred.text.parsed() }
    return tree
  }

  /// The bytes of member `key` (the first of that name) when the params are deferred; nil when
  /// absent or not deferred. O(members).
  public func memberText(_ key: String) -> JSONText? {
    deferred?.member(key)
  }

  /// The member names, in order (duplicates kept); -32602 if the value is not an object
  /// (absent params count as `{}`).
  public func memberNames() throws(ResponseError) -> [String] {
    if let deferred { return deferred.keys }
    return try object().keys
  }

  /// The members, when the value is an object; -32602 otherwise (absent params count as `{}`).
  public func object() throws(ResponseError) -> JSONObject {
    if let deferred, case .object(let object) = deferred.text.parsed() { return object }
    switch tree {
    case .object(let object): return object
    case nil: return JSONObject()
    case .some(let other):
      let what = path.isEmpty ? "params" : "\"\(path)\""
      throw .invalidParams(
        "\(what) must be an object, got \(other.abbreviatedJSON)", field: path.isEmpty ? nil : path)
    }
  }

  /// The path of member `key`.
  public func path(of key: String) -> String {
    path.isEmpty ? key : path + "." + key
  }

  /// The raw member, nil if absent (a `null` member is returned as `.null`).
  public func member(_ key: String) throws(ResponseError) -> JSONValue? {
    if let deferred { return deferred.member(key)?.parsed() }
    return try object()[key]
  }

  /// Whether the member is present and not null.
  public func contains(_ key: String) throws(ResponseError) -> Bool {
    if let deferred { return deferred.member(key).map { !$0.isNull } ?? false }  // (nothing parsed)
    guard let value = try member(key) else { return false }
    return !value.isNull
  }

  // MARK: Required members

  /// A required member of any type (including null).
  public func value(_ key: String) throws(ResponseError) -> JSONValue {
    guard let value = try member(key) else { throw missing(key) }
    return value
  }

  public func string(_ key: String) throws(ResponseError) -> String {
    let value = try value(key)
    guard case .string(let string) = value else { throw mismatch(key, "a string", value) }
    return string
  }

  /// An integer member (a number with a fraction, or out of range, is a mismatch).
  public func int(_ key: String) throws(ResponseError) -> Int {
    let value = try value(key)
    guard let int = value.intValue.flatMap({ Int(exactly: $0) }) else {
      throw mismatch(key, "an integer", value)
    }
    return int
  }

  public func double(_ key: String) throws(ResponseError) -> Double {
    let value = try value(key)
    guard let double = value.doubleValue else { throw mismatch(key, "a number", value) }
    return double
  }

  public func bool(_ key: String) throws(ResponseError) -> Bool {
    let value = try value(key)
    guard case .bool(let bool) = value else { throw mismatch(key, "a boolean", value) }
    return bool
  }

  /// A nested object, viewed with its path (`"content"`, then `"content.sections"`, …).
  public func object(_ key: String) throws(ResponseError) -> Params {
    let value = try value(key)
    guard case .object = value else { throw mismatch(key, "an object", value) }
    return Params(value, path: path(of: key))
  }

  public func array(_ key: String) throws(ResponseError) -> [JSONValue] {
    let value = try value(key)
    guard case .array(let array) = value else { throw mismatch(key, "an array", value) }
    return array
  }

  /// An array of objects, each viewed with its path (`"edits[3]"`).
  public func objects(_ key: String) throws(ResponseError) -> [Params] {
    let array = try array(key)
    let base = path(of: key)
    var result: [Params] = []
    result.reserveCapacity(array.count)
    for (index, element) in array.enumerated() {
      let elementPath = "\(base)[\(index)]"
      guard case .object = element else {
        throw .invalidParams(
          "\"\(elementPath)\" must be an object, got \(element.abbreviatedJSON)", field: elementPath)
      }
      result.append(Params(element, path: elementPath))
    }
    return result
  }

  /// An array of strings (`"ids[2]" must be a string, got 5`).
  public func strings(_ key: String) throws(ResponseError) -> [String] {
    let array = try array(key)
    var result: [String] = []
    result.reserveCapacity(array.count)
    for (index, element) in array.enumerated() {
      guard case .string(let string) = element else {
        let elementPath = "\(path(of: key))[\(index)]"
        throw .invalidParams(
          "\"\(elementPath)\" must be a string, got \(element.abbreviatedJSON)", field: elementPath)
      }
      result.append(string)
    }
    return result
  }

  /// A string member that must be one of an enumeration's raw values
  /// (`"appearance" must be one of "plain", "grouped", got "round"`).
  public func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, as type: E.Type = E.self)
    throws(ResponseError) -> E where E.RawValue == String
  {
    let value = try value(key)
    guard case .string(let string) = value, let result = E(rawValue: string) else {
      let names = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw mismatch(key, "one of \(names)", value)
    }
    return result
  }

  // MARK: Optional members (absent or null → nil)

  public func optionalValue(_ key: String) throws(ResponseError) -> JSONValue? {
    guard let value = try member(key), !value.isNull else { return nil }
    return value
  }

  public func optionalString(_ key: String) throws(ResponseError) -> String? {
    try contains(key) ? try string(key) : nil
  }

  public func optionalInt(_ key: String) throws(ResponseError) -> Int? {
    try contains(key) ? try int(key) : nil
  }

  public func optionalDouble(_ key: String) throws(ResponseError) -> Double? {
    try contains(key) ? try double(key) : nil
  }

  public func optionalBool(_ key: String) throws(ResponseError) -> Bool? {
    try contains(key) ? try bool(key) : nil
  }

  public func optionalObject(_ key: String) throws(ResponseError) -> Params? {
    try contains(key) ? try object(key) : nil
  }

  public func optionalArray(_ key: String) throws(ResponseError) -> [JSONValue]? {
    try contains(key) ? try array(key) : nil
  }

  public func optionalObjects(_ key: String) throws(ResponseError) -> [Params]? {
    try contains(key) ? try objects(key) : nil
  }

  public func optionalStrings(_ key: String) throws(ResponseError) -> [String]? {
    try contains(key) ? try strings(key) : nil
  }

  public func optionalEnumeration<E: RawRepresentable & CaseIterable>(_ key: String, as type: E.Type = E.self)
    throws(ResponseError) -> E? where E.RawValue == String
  {
    try contains(key) ? try enumeration(key, as: type) : nil
  }

  // MARK: Errors

  /// `missing required field "path"`.
  public func missing(_ key: String) -> ResponseError {
    let field = path(of: key)
    return .invalidParams("missing required field \"\(field)\"", field: field)
  }

  /// `"path" must be <expected>, got <value>`.
  public func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> ResponseError {
    let field = path(of: key)
    return .invalidParams("\"\(field)\" must be \(expected), got \(value.abbreviatedJSON)", field: field)
  }

  /// A -32602 error about member `key` with a custom explanation (`"<path>" <explanation>`).
  public func invalid(_ key: String, _ explanation: String) -> ResponseError {
    let field = path(of: key)
    return .invalidParams("\"\(field)\" \(explanation)", field: field)
  }
}
