// Validating without building: the parser's skip mode, and parsing a document with one member kept as bytes.

/// An object member of a parsed document that was validated but not built: its byte range in
/// the text and its members' names and byte ranges, in order (duplicates kept as given).
public struct DeferredObject: Sendable, Hashable {
  /// The object's bytes (from `{` to `}`) in the parsed text.
  public var range: Range<Int>
  /// Each member's name and the byte range of its value in the parsed text.
  public var members: [DeferredMember]
}

/// One member of a ``DeferredObject``.
public struct DeferredMember: Sendable, Hashable {
  public var key: String
  /// The value's bytes in the parsed text (no surrounding whitespace).
  public var range: Range<Int>

  public init(key: String, range: Range<Int>) {
    self.key = key
    self.range = range
  }
}

extension JSONParser {
  /// Validates one JSON text exactly as ``parse(_:)-(UnsafeRawBufferPointer)`` would — the same
  /// error at the same offset — without building any value. O(n), no allocation.
  public func validate(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) {
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      throw JSONParseError(.unexpectedEnd, offset: 0)
    }
    var state = ParserState(
      base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: maxDepth,
      storage: ParserStorage())
    do throws(JSONParseError) {
      try state.skipValue()
      state.skipWhitespace()
      if state.index < state.count { throw JSONParseError(.trailingData, offset: state.index) }
    } catch {
      var located = error
      located.locate(in: bytes)
      throw located
    }
  }

  /// Parses like ``parseReusingStorage(_:)``, except that when the text is an object whose first
  /// member named `member` holds an object, that object is only validated: it stands in the
  /// result as `{}` and comes back as a ``DeferredObject`` (its members' byte ranges), to be
  /// decoded from the bytes later. Errors are exactly those of a full parse. O(n); the deferred
  /// object costs no allocation beyond its member list.
  public mutating func parseReusingStorage(_ bytes: UnsafeRawBufferPointer, deferring member: String)
    throws(JSONParseError) -> (JSONValue, DeferredObject?)
  {
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      throw JSONParseError(.unexpectedEnd, offset: 0)
    }
    if storage == nil || !isKnownUniquelyReferenced(&storage!) { storage = ParserStorage() }
    var state = ParserState(
      base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: maxDepth,
      storage: storage!)
    do throws(JSONParseError) {
      state.skipWhitespace()
      var deferred: DeferredObject?
      let value: JSONValue
      if state.index < state.count && state.base[state.index] == UInt8(ascii: "{") {
        value = try state.parseObject(deferring: member, into: &deferred)
      } else {
        value = try state.parseValue()
      }
      state.skipWhitespace()
      if state.index < state.count { throw JSONParseError(.trailingData, offset: state.index) }
      return (value, deferred)
    } catch {
      storage!.reset()
      var located = error
      located.locate(in: bytes)
      throw located
    }
  }
}

extension ParserState {
  /// ``parseObject()`` for the top level, deferring the first object-valued member named `name`.
  mutating func parseObject(deferring name: String, into deferred: inout DeferredObject?)
    throws(JSONParseError) -> JSONValue
  {
    let start = values.count
    let keyStart = keys.count
    var seen = false
    try readObject { (state: inout ParserState) throws(JSONParseError) -> String in
      try state.parseString()
    } value: { (state: inout ParserState, key: String) throws(JSONParseError) in
      state.keys.push(key)
      if !seen && key == name {
        seen = true
        state.skipWhitespace()
        if state.index < state.count && state.base[state.index] == UInt8(ascii: "{") {
          deferred = try state.skipObjectRecordingMembers()
          state.values.push(.object(JSONObject()))
          return
        }
      }
      state.values.push(try state.parseValue())
    }
    if values.count == start { return .object(JSONObject()) }
    let memberValues = values.popArray(from: start)
    return .object(JSONObject(adoptingKeys: keys.popNames(from: keyStart), values: memberValues))
  }

  /// Validates the object at `index` (its `{`), recording its members' names and value ranges.
  mutating func skipObjectRecordingMembers() throws(JSONParseError) -> DeferredObject {
    let objectStart = index
    var members: [DeferredMember] = []
    try readObject { (state: inout ParserState) throws(JSONParseError) -> String in
      try state.parseString()
    } value: { (state: inout ParserState, key: String) throws(JSONParseError) in
      state.skipWhitespace()
      let valueStart = state.index
      try state.skipValue()
      members.append(DeferredMember(key: key, range: valueStart..<state.index))
    }
    return DeferredObject(range: objectStart..<index, members: members)
  }

  /// Validates one value like ``parseValue()`` (the same checks in the same order, so the same
  /// first error) without building it.
  mutating func skipValue() throws(JSONParseError) {
    skipWhitespace()
    guard index < count else { throw JSONParseError(.unexpectedEnd, offset: count) }
    switch base[index] {
    case UInt8(ascii: "{"): try skipObject()
    case UInt8(ascii: "["): try skipArray()
    case quote: try skipString()
    case UInt8(ascii: "t"): try expectLiteral("true")
    case UInt8(ascii: "f"): try expectLiteral("false")
    case UInt8(ascii: "n"): try expectLiteral("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try parseNumber()
    default: throw unexpected("a JSON value")
    }
  }

  mutating func skipArray() throws(JSONParseError) {
    try readArray { (state: inout ParserState) throws(JSONParseError) in try state.skipValue() }
  }

  mutating func skipObject() throws(JSONParseError) {
    try readObject { (state: inout ParserState) throws(JSONParseError) in
      try state.skipString()
    } value: { (state: inout ParserState, _: Void) throws(JSONParseError) in
      try state.skipValue()
    }
  }

  /// Validates a string like ``parseString()`` without building it.
  mutating func skipString() throws(JSONParseError) {
    index += 1  // opening quote
    while index < count {
      skipPlainBytes()
      guard index < count else { break }
      let byte = base[index]
      if byte == quote {
        index += 1
        return
      }
      if byte == backslash {
        try parseEscape()  // (decodes into `scratch`, which is cleared here now and then)
        if scratch.count > 4096 { scratch.removeAll(keepingCapacity: true) }
      } else if byte < 0x20 {
        throw JSONParseError(.controlCharacterInString(byte), offset: index)
      } else if byte < 0x80 {
        index += 1
      } else {
        index = try validateUTF8Sequence(at: index)
      }
    }
    throw JSONParseError(.unexpectedEnd, offset: count)
  }
}

extension ParserState {
  /// Advances over string bytes that need no look (ASCII, not `"`, `\` or a control
  /// character), eight at a time; stops at the first chunk that holds any other byte.
  @inline(__always)
  mutating func skipPlainBytes() {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while index + 8 <= count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      let quotes = word ^ (ones &* 0x22)
      let backslashes = word ^ (ones &* 0x5C)
      // A byte's high bit is set in `special` where it is 0x80 or more, or (with borrows that
      // only ever add false alarms) a quote, a backslash or below 0x20.
      let special =
        ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
        | ((word &- (ones &* 0x20)) & ~word) | word
      if special & highs != 0 { return }
      index += 8
    }
  }
}
