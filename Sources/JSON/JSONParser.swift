// The strict RFC 8259 JSON parser: bytes in, JSONValue out, errors with lines, columns and byte offsets.

/// A strict RFC 8259 JSON parser working directly on UTF-8 bytes.
///
/// It rejects trailing commas, comments, `NaN`/`Infinity`, leading zeros, unescaped control
/// characters, invalid UTF-8 (anywhere), unpaired surrogate escapes and data after the value.
/// Integers that fit in `Int64` become `.int`; every other number becomes `.double` (a number
/// whose magnitude overflows a Double is an error). Object member order is preserved, and
/// duplicate keys are kept as given. Nesting deeper than `maxDepth` throws instead of
/// exhausting the stack. A leading byte-order mark is rejected, as RFC 8259 allows.
///
/// Parsing is O(n) in the length of the text. The parser recurses once per nesting level, so
/// keep `maxDepth` modest (the default, 512, needs well under 512 KiB of stack).
public struct JSONParser: Sendable {
  /// The default nesting limit.
  public static let defaultMaxDepth = 512

  /// Arrays and objects may nest this deep; one more level throws `.nestingTooDeep`.
  public var maxDepth: Int

  /// Working storage kept between calls of ``parseReusingStorage(_:)`` (copy-on-write: a copy of
  /// the parser gets its own on first use).
  var storage: ParserStorage?

  public init(maxDepth: Int = JSONParser.defaultMaxDepth) {
    self.maxDepth = maxDepth
  }

  /// Parses one JSON text (surrounding whitespace allowed). O(n).
  public func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
    try Self.parse(bytes, maxDepth: maxDepth, storage: ParserStorage())
  }

  /// Parses like ``parse(_:)-(UnsafeRawBufferPointer)`` but keeps its working storage (stacks,
  /// caches) for the next call: the fast way to parse many small texts in a row, such as every
  /// message of a connection. O(n).
  public mutating func parseReusingStorage(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError)
    -> JSONValue
  {
    if storage == nil || !isKnownUniquelyReferenced(&storage!) { storage = ParserStorage() }
    return try Self.parse(bytes, maxDepth: maxDepth, storage: storage!)
  }

  private static func parse(
    _ bytes: UnsafeRawBufferPointer, maxDepth: Int, storage: ParserStorage
  ) throws(JSONParseError) -> JSONValue {
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      throw JSONParseError(.unexpectedEnd, offset: 0)
    }
    var state = ParserState(
      base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: maxDepth, storage: storage
    )
    do {
      return try state.parseDocument()
    } catch {
      storage.reset()
      var located = error
      located.locate(in: bytes)
      throw located
    }
  }

  /// Parses one JSON text from any byte collection (contiguous storage is used without copying).
  public func parse<Bytes: Collection>(_ bytes: Bytes) throws(JSONParseError) -> JSONValue
  where Bytes.Element == UInt8 {
    let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable {
      buffer in
      Result { () throws(JSONParseError) -> JSONValue in try parse(UnsafeRawBufferPointer(buffer)) }
    }
    if let result { return try result.get() }
    let copy = Array(bytes)
    return try copy.withUnsafeBytes { buffer in
      Result { () throws(JSONParseError) -> JSONValue in try parse(buffer) }
    }.get()
  }

  /// Parses one JSON text held in a String (its UTF-8 bytes).
  public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    var text = text
    return try text.withUTF8 { buffer in
      Result { () throws(JSONParseError) -> JSONValue in try parse(UnsafeRawBufferPointer(buffer)) }
    }.get()
  }
}

extension JSONValue {
  /// Parses a JSON text from UTF-8 bytes with ``JSONParser``. O(n).
  public init<Bytes: Collection>(
    parsing bytes: Bytes, maxDepth: Int = JSONParser.defaultMaxDepth
  ) throws(JSONParseError) where Bytes.Element == UInt8 {
    self = try JSONParser(maxDepth: maxDepth).parse(bytes)
  }

  /// Parses a JSON text held in a String with ``JSONParser``. O(n).
  public init(parsing text: String, maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONParseError) {
    self = try JSONParser(maxDepth: maxDepth).parse(text)
  }
}

// MARK: - The parser proper

let quote = UInt8(ascii: "\"")
let backslash = UInt8(ascii: "\\")
let comma = UInt8(ascii: ",")
let colon = UInt8(ascii: ":")

/// Powers of ten that are exact in a Double, for the fast path of decimal conversion.
private let exactPowersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
  1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// The parser's cursor over one text (shared by the tree parser, the validator and ``JSONReader``).
struct ParserState {
  let base: UnsafePointer<UInt8>
  let count: Int
  let maxDepth: Int
  var index = 0
  var depth = 0
  /// Reused buffer for strings that contain escapes.
  var scratch: [UInt8] = []
  /// Elements and member values of the open containers.
  let values: ValueStack
  /// Member names of the open objects.
  let keys: KeyStack

  init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, storage: ParserStorage) {
    self.base = base
    self.count = count
    self.maxDepth = maxDepth
    values = storage.values
    keys = storage.keys
  }

  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    let value = try parseValue()
    skipWhitespace()
    if index < count { throw JSONParseError(.trailingData, offset: index) }
    return value
  }

  @inline(__always)
  mutating func skipWhitespace() {
    while index < count {
      switch base[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  func unexpected(_ expected: String) -> JSONParseError {
    if index >= count { return JSONParseError(.unexpectedEnd, offset: count) }
    return JSONParseError(.unexpectedByte(base[index], expected: expected), offset: index)
  }

  mutating func parseValue() throws(JSONParseError) -> JSONValue {
    skipWhitespace()
    guard index < count else { throw JSONParseError(.unexpectedEnd, offset: count) }
    switch base[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case quote: return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    default:
      throw unexpected("a JSON value")
    }
  }

  mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let length = literal.utf8CodeUnitCount
    let text = literal.utf8Start
    for offset in 0..<length {
      guard index + offset < count else { throw JSONParseError(.unexpectedEnd, offset: count) }
      if base[index + offset] != text[offset] {
        index += offset
        throw unexpected("'\(literal)'")
      }
    }
    index += length
  }

  mutating func enterContainer() throws(JSONParseError) {
    depth += 1
    if depth > maxDepth { throw JSONParseError(.nestingTooDeep(limit: maxDepth), offset: index) }
  }

  mutating func parseArray() throws(JSONParseError) -> JSONValue {
    let start = values.count
    try readArray { (state: inout ParserState) throws(JSONParseError) in
      state.values.push(try state.parseValue())
    }
    if values.count == start { return .array([]) }
    return .array(values.popArray(from: start))
  }

  /// The array grammar, written once for the parser and the validator, as ``readObject(key:value:)``
  /// is for objects: reads the array at `index` (its `[`) through its `]`, within the nesting limit;
  /// `element` reads each element, with `index` at its first byte.
  @inline(__always)
  mutating func readArray(element readElement: (inout ParserState) throws(JSONParseError) -> Void)
    throws(JSONParseError)
  {
    try readContainer(closing: UInt8(ascii: "]"), expected: "',' or ']'", entry: readElement)
  }

  /// The container loop of arrays and objects, written once: enters the container at `index`
  /// (its opening bracket) within the nesting limit, reads each entry with `entry` (at its first
  /// byte) and the separating commas, and leaves `index` past `closing`.
  @inline(__always)
  private mutating func readContainer(
    closing: UInt8, expected: String, entry readEntry: (inout ParserState) throws(JSONParseError) -> Void
  ) throws(JSONParseError) {
    try enterContainer()
    index += 1  // [ or {
    skipWhitespace()
    if index < count && base[index] == closing {
      index += 1
      depth -= 1
      return
    }
    while true {
      try readEntry(&self)
      skipWhitespace()
      guard index < count else { throw JSONParseError(.unexpectedEnd, offset: count) }
      let byte = base[index]
      if byte == comma {
        index += 1
        skipWhitespace()
        if index < count && base[index] == closing {
          throw JSONParseError(.trailingComma, offset: index)
        }
      } else if byte == closing {
        index += 1
        depth -= 1
        return
      } else {
        throw unexpected(expected)
      }
    }
  }

  mutating func parseObject() throws(JSONParseError) -> JSONValue {
    let start = values.count
    let keyStart = keys.count
    try readObject { (state: inout ParserState) throws(JSONParseError) -> String in
      try state.parseString()
    } value: { (state: inout ParserState, key: String) throws(JSONParseError) in
      state.keys.push(key)
      state.values.push(try state.parseValue())
    }
    if values.count == start { return .object(JSONObject()) }
    let memberValues = values.popArray(from: start)
    return .object(JSONObject(adoptingKeys: keys.popNames(from: keyStart), values: memberValues))
  }

  /// The object grammar, written once for the parser, the validator and the deferring parser so
  /// that they agree on every error and its offset: reads the object at `index` (its `{`) through
  /// its `}`, within the nesting limit. `key` reads each member's name (at its `"`), building it
  /// or not; `value` reads its value, with `index` just after the `:`. Inlined with its closures,
  /// so each caller compiles to the loop it used to spell out.
  @inline(__always)
  mutating func readObject<Key>(
    key readKey: (inout ParserState) throws(JSONParseError) -> Key,
    value readValue: (inout ParserState, Key) throws(JSONParseError) -> Void
  ) throws(JSONParseError) {
    try readContainer(closing: UInt8(ascii: "}"), expected: "',' or '}'") {
      (state: inout ParserState) throws(JSONParseError) in
      guard state.index < state.count, state.base[state.index] == quote else {
        throw state.unexpected("a string key")
      }
      let key = try readKey(&state)
      state.skipWhitespace()
      guard state.index < state.count, state.base[state.index] == colon else { throw state.unexpected("':'") }
      state.index += 1
      try readValue(&state, key)
    }
  }

  // MARK: Strings

  /// Parses a string starting at the opening quote; leaves `index` after the closing quote.
  mutating func parseString() throws(JSONParseError) -> String {
    index += 1  // opening quote
    let start = index
    // Fast path: no escapes. Validate as we go; build the String straight from the bytes.
    while index < count {
      skipPlainBytes()
      guard index < count else { break }
      let byte = base[index]
      if byte == quote {
        let string = String(
          decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        index += 1
        return string
      }
      if byte == backslash { return try parseEscapedString(from: start) }
      if byte < 0x20 { throw JSONParseError(.controlCharacterInString(byte), offset: index) }
      if byte < 0x80 {
        index += 1
      } else {
        index = try validateUTF8Sequence(at: index)
      }
    }
    throw JSONParseError(.unexpectedEnd, offset: count)
  }

  /// Continues a string that contains escapes, decoding into `scratch`.
  mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
    while index < count {
      let byte = base[index]
      if byte == quote {
        index += 1
        return String(decoding: scratch, as: UTF8.self)
      }
      if byte == backslash {
        try parseEscape()
      } else if byte < 0x20 {
        throw JSONParseError(.controlCharacterInString(byte), offset: index)
      } else if byte < 0x80 {
        scratch.append(byte)
        index += 1
      } else {
        let end = try validateUTF8Sequence(at: index)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + index, count: end - index))
        index = end
      }
    }
    throw JSONParseError(.unexpectedEnd, offset: count)
  }

  /// Decodes one escape sequence at `index` (the backslash) into `scratch`.
  mutating func parseEscape() throws(JSONParseError) {
    let escapeStart = index
    index += 1
    guard index < count else { throw JSONParseError(.unexpectedEnd, offset: count) }
    let byte = base[index]
    index += 1
    switch byte {
    case quote, backslash, UInt8(ascii: "/"): scratch.append(byte)
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try parseHex4()
      var scalar = UInt32(unit)
      if unit >= 0xD800 && unit <= 0xDBFF {
        // A high surrogate must be followed by an escaped low surrogate.
        guard index + 1 < count, base[index] == backslash, base[index + 1] == UInt8(ascii: "u")
        else { throw JSONParseError(.unpairedSurrogate(unit), offset: escapeStart) }
        index += 2
        let low = try parseHex4()
        guard low >= 0xDC00 && low <= 0xDFFF else {
          throw JSONParseError(.unpairedSurrogate(unit), offset: escapeStart)
        }
        scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      } else if unit >= 0xDC00 && unit <= 0xDFFF {
        throw JSONParseError(.unpairedSurrogate(unit), offset: escapeStart)
      }
      appendUTF8(scalar)
    default:
      throw JSONParseError(.invalidEscape(byte), offset: escapeStart)
    }
  }

  mutating func parseHex4() throws(JSONParseError) -> UInt16 {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard index < count else { throw JSONParseError(.unexpectedEnd, offset: count) }
      let byte = base[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw JSONParseError(.invalidUnicodeEscape, offset: index)
      }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }

  mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | (scalar >> 6)))
      scratch.append(UInt8(0x80 | (scalar & 0x3F)))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | (scalar >> 12)))
      scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      scratch.append(UInt8(0x80 | (scalar & 0x3F)))
    default:
      scratch.append(UInt8(0xF0 | (scalar >> 18)))
      scratch.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
      scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      scratch.append(UInt8(0x80 | (scalar & 0x3F)))
    }
  }

  /// Validates the multi-byte UTF-8 sequence starting at `position` (a byte ≥ 0x80) and returns
  /// the index just past it (Unicode Table 3-7: no overlongs, surrogates or values > U+10FFFF).
  func validateUTF8Sequence(at position: Int) throws(JSONParseError) -> Int {
    let lead = base[position]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: throw JSONParseError(.invalidUTF8, offset: position)
    }
    guard position + length <= count else { throw JSONParseError(.invalidUTF8, offset: position) }
    let second = base[position + 1]
    guard second >= low && second <= high else { throw JSONParseError(.invalidUTF8, offset: position) }
    var offset = 2
    while offset < length {
      guard base[position + offset] & 0xC0 == 0x80 else {
        throw JSONParseError(.invalidUTF8, offset: position)
      }
      offset += 1
    }
    return position + length
  }

  // MARK: Numbers

  mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = index
    var negative = false
    if base[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    guard index < count, isDigit(base[index]) else {
      if index >= count { throw JSONParseError(.unexpectedEnd, offset: count) }
      throw JSONParseError(.invalidNumber(reason: "expected a digit after '-'"), offset: index)
    }
    // Accumulate up to 19 significant digits exactly; remember whether any were dropped.
    var mantissa: UInt64 = 0
    var digits = 0
    var truncated = false
    var decimalExponent = 0
    if base[index] == UInt8(ascii: "0") {
      index += 1
      if index < count && isDigit(base[index]) { throw JSONParseError(.leadingZero, offset: start) }
    } else {
      while index < count, isDigit(base[index]) {
        if digits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(base[index] &- UInt8(ascii: "0"))
          digits += 1
        } else {
          truncated = true
          decimalExponent += 1
        }
        index += 1
      }
    }
    var isInteger = true
    if index < count && base[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard index < count, isDigit(base[index]) else {
        if index >= count { throw JSONParseError(.unexpectedEnd, offset: count) }
        throw JSONParseError(.invalidNumber(reason: "expected a digit after '.'"), offset: index)
      }
      while index < count, isDigit(base[index]) {
        if digits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(base[index] &- UInt8(ascii: "0"))
          if mantissa != 0 { digits += 1 }
          decimalExponent -= 1
        } else {
          truncated = true
        }
        index += 1
      }
    }
    if index < count && (base[index] | 0x20) == UInt8(ascii: "e") {
      isInteger = false
      index += 1
      var exponentNegative = false
      if index < count && (base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-")) {
        exponentNegative = base[index] == UInt8(ascii: "-")
        index += 1
      }
      guard index < count, isDigit(base[index]) else {
        if index >= count { throw JSONParseError(.unexpectedEnd, offset: count) }
        throw JSONParseError(.invalidNumber(reason: "expected a digit in the exponent"), offset: index)
      }
      var exponent = 0
      while index < count, isDigit(base[index]) {
        if exponent < 100_000 { exponent = exponent * 10 + Int(base[index] - UInt8(ascii: "0")) }
        index += 1
      }
      decimalExponent += exponentNegative ? -exponent : exponent
    }

    if isInteger && !truncated {
      if negative {
        if mantissa <= UInt64(Int64.max) { return .int(-Int64(mantissa)) }
        if mantissa == UInt64(Int64.max) + 1 { return .int(Int64.min) }
      } else if mantissa <= UInt64(Int64.max) {
        return .int(Int64(mantissa))
      }
    }
    // Clinger's fast path: both the mantissa and the power of ten are exact Doubles.
    if !truncated && mantissa <= (1 << 53) && decimalExponent >= -22 && decimalExponent <= 22 {
      var value = Double(mantissa)
      if decimalExponent >= 0 {
        value *= exactPowersOfTen[decimalExponent]
      } else {
        value /= exactPowersOfTen[-decimalExponent]
      }
      return .double(negative ? -value : value)
    }
    return try slowDouble(from: start)
  }

  /// Correctly rounded conversion of an already validated number, through the C library.
  func slowDouble(from start: Int) throws(JSONParseError) -> JSONValue {
    let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw JSONParseError(.numberOutOfRange(text), offset: start)
    }
    return .double(value)
  }

  @inline(__always)
  func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }
}
