// A pull tokenizer over validated JSON bytes: walk objects and arrays, build only the values you ask for.

/// Reads a validated JSON value (``JSONText/withReader(_:)``) token by token. Strings and numbers
/// decode exactly as ``JSONParser`` decodes them (the same code), so a value read here equals the
/// same value in the parsed tree.
///
/// Usage: ``peek()`` says what comes next; ``beginObject()`` then ``nextKey()`` until nil, reading
/// or skipping each member's value; ``beginArray()`` then ``nextElement()`` until false.
/// Methods throw only on bytes that are not valid JSON, which a validated text never holds.
public struct JSONReader {
  /// What the next value is.
  public enum Kind: Sendable, Hashable {
    case object, array, string, number, bool, null
  }

  var state: ParserState

  init(state: ParserState) {
    self.state = state
  }

  /// The offset of the next unread byte, from the start of the text.
  public var offset: Int { state.index }

  /// The kind of the next value (whitespace before it is skipped).
  public mutating func peek() throws(JSONParseError) -> Kind {
    state.skipWhitespace()
    guard state.index < state.count else { throw JSONParseError(.unexpectedEnd, offset: state.count) }
    switch state.base[state.index] {
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case quote: return .string
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    default: throw state.unexpected("a JSON value")
    }
  }

  /// Enters the object that comes next.
  public mutating func beginObject() throws(JSONParseError) {
    guard try peek() == .object else { throw state.unexpected("'{'") }
    state.index += 1
  }

  /// Moves to the opening quote of the object's next member name and returns true, or past the
  /// object's `}` and returns false.
  private mutating func atNextKey() throws(JSONParseError) -> Bool {
    state.skipWhitespace()
    guard state.index < state.count else { throw JSONParseError(.unexpectedEnd, offset: state.count) }
    if state.base[state.index] == UInt8(ascii: "}") {
      state.index += 1
      return false
    }
    if state.base[state.index] == comma {
      state.index += 1
      state.skipWhitespace()
    }
    guard state.index < state.count, state.base[state.index] == quote else {
      throw state.unexpected("a string key")
    }
    return true
  }

  /// The next member's name (its `:` consumed), or nil after the object's `}`.
  public mutating func nextKey() throws(JSONParseError) -> String? {
    guard try atNextKey() else { return nil }
    let key = try state.parseString()
    state.skipWhitespace()
    guard state.index < state.count, state.base[state.index] == colon else { throw state.unexpected("':'") }
    state.index += 1
    return key
  }

  /// The next member's name as its index in `names` (its `:` consumed), -1 for a name not in
  /// `names`, or nil after the object's `}`. Builds no string for a name without escapes.
  public mutating func nextKey(in names: JSONNames) throws(JSONParseError) -> Int? {
    guard try atNextKey() else { return nil }
    let start = state.index + 1
    var end = start
    while end < state.count && state.base[end] != quote && state.base[end] != backslash { end += 1 }
    let found: Int
    if end < state.count && state.base[end] == quote {
      found = names.index(of: UnsafeBufferPointer(start: state.base + start, count: end - start))
      state.index = end + 1
    } else {
      let key = try state.parseString()
      found = names.strings.firstIndex(of: key) ?? -1
    }
    state.skipWhitespace()
    guard state.index < state.count, state.base[state.index] == colon else { throw state.unexpected("':'") }
    state.index += 1
    return found
  }

  /// Enters the array that comes next.
  public mutating func beginArray() throws(JSONParseError) {
    guard try peek() == .array else { throw state.unexpected("'['") }
    state.index += 1
  }

  /// Whether another element follows (its separating `,` consumed); false after the array's `]`.
  public mutating func nextElement() throws(JSONParseError) -> Bool {
    state.skipWhitespace()
    guard state.index < state.count else { throw JSONParseError(.unexpectedEnd, offset: state.count) }
    if state.base[state.index] == UInt8(ascii: "]") {
      state.index += 1
      return false
    }
    if state.base[state.index] == comma { state.index += 1 }
    return true
  }

  /// The string that comes next.
  public mutating func readString() throws(JSONParseError) -> String {
    guard try peek() == .string else { throw state.unexpected("a string") }
    return try state.parseString()
  }

  /// The Boolean that comes next.
  public mutating func readBool() throws(JSONParseError) -> Bool {
    if state.base[state.index] == UInt8(ascii: "t") {
      try state.expectLiteral("true")
      return true
    }
    try state.expectLiteral("false")
    return false
  }

  /// Consumes the `null` that comes next.
  public mutating func readNull() throws(JSONParseError) {
    _ = try peek()
    try state.expectLiteral("null")
  }

  /// The next value as a tree (for small free-form values such as an item's `data`).
  public mutating func readValue() throws(JSONParseError) -> JSONValue {
    try state.parseValue()
  }

  /// Skips the next value; returns its byte range (relative to the text's start).
  @discardableResult
  public mutating func skipValue() throws(JSONParseError) -> Range<Int> {
    state.skipWhitespace()
    let start = state.index
    try state.skipValue()
    return start..<state.index
  }
}

/// A fixed set of member names that ``JSONReader/nextKey(in:)`` matches keys against by their bytes.
public struct JSONNames: Sendable {
  /// The names, in order.
  public let strings: [String]
  /// Each name's length and first 24 bytes as three little-endian words (zero padded).
  private let packed: [(count: Int, words: (UInt64, UInt64, UInt64))]

  public init(_ names: [String]) {
    strings = names
    packed = names.map { name in
      let bytes = Array(name.utf8)
      return (bytes.count, Self.words(bytes.count <= 24 ? bytes[...] : bytes[..<24]))
    }
  }

  /// Up to 24 bytes as three words (zero padded), as memory holds them.
  private static func words<C: Collection>(_ bytes: C) -> (UInt64, UInt64, UInt64) where C.Element == UInt8 {
    var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &words) { buffer in
      for (offset, byte) in bytes.enumerated() { buffer[offset] = byte }
    }
    return words
  }

  private static func words(_ key: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, UInt64) {
    var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(key)) }
    return words
  }

  /// The index of `key`, or -1.
  public func index(of key: String) -> Int {
    var key = key
    return key.withUTF8 { index(of: $0) }
  }

  /// The index of the name spelled by `key`, or -1.
  func index(of key: UnsafeBufferPointer<UInt8>) -> Int {
    guard key.count <= 24 else {
      for (index, name) in strings.enumerated() where name.utf8.elementsEqual(key) { return index }
      return -1
    }
    let words = Self.words(key)
    for index in packed.indices {
      let name = packed[index]
      if name.count == key.count && name.words == words { return index }
    }
    return -1
  }
}
