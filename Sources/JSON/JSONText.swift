// A validated JSON value kept as its UTF-8 bytes: a range of a shared buffer, decoded on demand.

/// One JSON value as bytes: a range of a shared, immutable buffer (a frame body, say) that has
/// been validated as JSON. Decode it with ``JSONReader`` (``withReader(_:)``) to build exactly
/// the values you need, or build the whole tree with ``parsed()``. Slicing shares the buffer.
public struct JSONText: Sendable, Hashable {
  /// The buffer the value lives in.
  public let buffer: [UInt8]
  /// The value's bytes in `buffer`.
  public let range: Range<Int>

  /// A value already validated (by the parser that produced `range`).
  public init(validated buffer: [UInt8], range: Range<Int>) {
    self.buffer = buffer
    self.range = range
  }

  /// Validates `bytes` as one JSON text. O(n).
  public init(validating bytes: [UInt8]) throws(JSONParseError) {
    try bytes.withUnsafeBytes { buffer in
      Result { () throws(JSONParseError) in try JSONParser().validate(buffer) }
    }.get()
    var start = 0
    var end = bytes.count
    while start < end, Self.isWhitespace(bytes[start]) { start += 1 }
    while end > start, Self.isWhitespace(bytes[end - 1]) { end -= 1 }
    self.init(validated: bytes, range: start..<end)
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// The first byte: `{`, `[`, `"`, `t`, `f`, `n`, `-` or a digit.
  public var firstByte: UInt8 { buffer[range.lowerBound] }

  /// Whether the value is an object / an array / null.
  public var isObject: Bool { firstByte == UInt8(ascii: "{") }
  public var isArray: Bool { firstByte == UInt8(ascii: "[") }
  public var isNull: Bool { firstByte == UInt8(ascii: "n") }

  /// The number of bytes.
  public var count: Int { range.count }

  /// A range of this value's buffer, given relative to this value's start (as ``JSONReader``
  /// offsets are).
  public func slice(_ relative: Range<Int>) -> JSONText {
    JSONText(
      validated: buffer,
      range: (range.lowerBound + relative.lowerBound)..<(range.lowerBound + relative.upperBound))
  }

  /// The value as a tree. O(n).
  public func parsed() -> JSONValue {
    buffer.withUnsafeBytes { all in
      // The bytes were validated, so this cannot fail.
      try! JSONParser().parse(UnsafeRawBufferPointer(rebasing: all[range]))
    }
  }

  /// Runs `body` with a reader positioned at the value's first byte. Offsets the reader reports
  /// are relative to the value's start.
  public func withReader<R, E: Error>(_ body: (inout JSONReader) throws(E) -> R) throws(E) -> R {
    try buffer.withUnsafeBytes { all -> Result<R, E> in
      let base = all.baseAddress!.assumingMemoryBound(to: UInt8.self) + range.lowerBound
      var reader = JSONReader(
        state: ParserState(base: base, count: range.count, maxDepth: .max, storage: ParserStorage()))
      return Result { () throws(E) -> R in try body(&reader) }
    }.get()
  }
}
