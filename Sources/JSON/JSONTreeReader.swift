// A JSONPullReader over a parsed tree, so a one-pass decoder of bytes also decodes a JSONValue.

/// Reads a ``JSONValue`` token by token as ``JSONReader`` reads bytes: the same calls give the
/// same values. Each call is O(1) but ``readValue()`` (which shares the subtree) and
/// ``nextKey(in:)`` (O(names)). Misuse (reading a kind that does not come next) throws.
public struct JSONTreeReader: JSONPullReader {
  /// The value that comes next, when one does (nil inside a container between its values).
  private var next: JSONValue?
  /// The open containers, innermost last, with the index of their next member or element.
  private var containers: [JSONValue] = []
  private var positions: [Int] = []

  public init(_ value: JSONValue) {
    next = value
  }

  public mutating func skip(ifNext bytes: UnsafeBufferPointer<UInt8>) -> Bool { false }

  public mutating func skip(ifNextValue bytes: UnsafeBufferPointer<UInt8>) -> Bool { false }

  private var misuse: JSONParseError { JSONParseError(.unexpectedEnd, offset: 0) }

  /// The next value, consumed.
  private mutating func take() throws(JSONParseError) -> JSONValue {
    guard let value = next else { throw misuse }
    next = nil
    return value
  }

  public mutating func peek() throws(JSONParseError) -> JSONReader.Kind {
    switch next {
    case .object?: .object
    case .array?: .array
    case .string?: .string
    case .int?, .double?: .number
    case .bool?: .bool
    case .null?: .null
    case nil: throw misuse
    }
  }

  public mutating func beginObject() throws(JSONParseError) {
    guard case .object = next else { throw misuse }
    try enter()
  }

  public mutating func nextKey() throws(JSONParseError) -> String? {
    guard case .object(let object)? = containers.last else { throw misuse }
    guard let position = nextPosition(of: object.count) else { return nil }
    next = object.values[position]
    return object.keys[position]
  }

  public mutating func nextKey(in names: JSONNames) throws(JSONParseError) -> Int? {
    guard let key = try nextKey() else { return nil }
    return names.index(of: key)
  }

  public mutating func beginArray() throws(JSONParseError) {
    guard case .array = next else { throw misuse }
    try enter()
  }

  public mutating func nextElement() throws(JSONParseError) -> Bool {
    guard case .array(let array)? = containers.last else { throw misuse }
    guard let position = nextPosition(of: array.count) else { return false }
    next = array[position]
    return true
  }

  /// Opens the container that comes next.
  private mutating func enter() throws(JSONParseError) {
    containers.append(try take())
    positions.append(0)
  }

  /// The position of the innermost container's next entry (of `count`), or nil after its last
  /// (the container is closed).
  private mutating func nextPosition(of count: Int) -> Int? {
    let position = positions[positions.count - 1]
    guard position < count else {
      containers.removeLast()
      positions.removeLast()
      return nil
    }
    positions[positions.count - 1] = position + 1
    return position
  }

  public mutating func readString() throws(JSONParseError) -> String {
    guard case .string(let string) = try take() else { throw misuse }
    return string
  }

  public mutating func readBool() throws(JSONParseError) -> Bool {
    guard case .bool(let bool) = try take() else { throw misuse }
    return bool
  }

  public mutating func readNull() throws(JSONParseError) {
    guard case .null = try take() else { throw misuse }
  }

  public mutating func readValue() throws(JSONParseError) -> JSONValue { try take() }

  public mutating func passValue() throws(JSONParseError) { _ = try take() }
}
