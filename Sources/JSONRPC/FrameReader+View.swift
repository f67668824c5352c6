// The frame reader's read-only view of its buffered bytes, and the byte classes framing knows.

extension FrameReader {
  /// Read-only access to the buffered bytes by stream offset, valid during one `process` call.
  struct View {
    let base: UnsafePointer<UInt8>?
    /// Stream offset of `base[0]`.
    let origin: Int
    /// Stream offset just past the last buffered byte.
    let end: Int

    /// The first line in `[from, to)` ending in a line feed that reads `content-length: digits`,
    /// with the match starting at or after `lowerBound`; returns the match's offset.
    func findEmbeddedHeader(from: Int, to: Int, lowerBound: Int) -> Int? {
      var offset = from
      while let lineFeed = findLineFeed(from: offset, to: to) {
        if let start = headerLineStart(endingAt: lineFeed, lowerBound: lowerBound) { return start }
        offset = lineFeed + 1
      }
      return nil
    }

    /// Matches `content-length OWS ":" OWS digits OWS [CR]` backwards from the line feed.
    func headerLineStart(endingAt lineFeed: Int, lowerBound: Int) -> Int? {
      var index = lineFeed - 1
      if index >= lowerBound && byte(index) == 0x0D { index -= 1 }
      func skipBlanks(_ index: inout Int) {
        var count = 0
        while index >= lowerBound && count < 16 && isBlank(byte(index)) {
          index -= 1
          count += 1
        }
      }
      skipBlanks(&index)
      var digits = 0
      while index >= lowerBound && digits <= 20 && byte(index) &- UInt8(ascii: "0") < 10 {
        index -= 1
        digits += 1
      }
      guard digits > 0 && digits <= 20 else { return nil }
      skipBlanks(&index)
      guard index >= lowerBound && byte(index) == UInt8(ascii: ":") else { return nil }
      index -= 1
      skipBlanks(&index)
      let start = index - (contentLengthName.count - 1)
      guard start >= lowerBound, equalsIgnoringCase(from: start, to: index + 1, contentLengthName) else {
        return nil
      }
      return start
    }

    /// The offset of the next case-insensitive `content-length` in `[from, to)`.
    func findContentLength(from: Int, to: Int) -> Int? {
      let length = contentLengthName.count
      var offset = from
      while offset <= to - length {
        if byte(offset) | 0x20 == UInt8(ascii: "c")
          && equalsIgnoringCase(from: offset, to: offset + length, contentLengthName)
        {
          return offset
        }
        offset += 1
      }
      return nil
    }

    func findLineFeed(from: Int, to: Int) -> Int? {
      guard from < to else { return nil }
      let start = UnsafeRawPointer(base! + (from - origin))
      guard let found = memchr(start, 0x0A, to - from) else { return nil }
      return from + (UnsafeRawPointer(found) - start)
    }

    @inline(__always)
    func byte(_ offset: Int) -> UInt8 {
      assert(offset >= origin && offset < end, "offset \(offset) outside [\(origin), \(end))")
      return base.unsafelyUnwrapped[offset - origin]
    }

    /// `Content-Length: <1…18 digits>\r\n\r\n` at `offset`: the length and where the body starts.
    func canonicalHeader(at offset: Int) -> (length: Int, bodyStart: Int)? {
      let prefixLength = canonicalPrefix.count
      guard end - offset >= prefixLength + 5 else { return nil }
      let start = base! + (offset - origin)
      guard memcmp(start, canonicalPrefix, prefixLength) == 0 else { return nil }
      var index = prefixLength
      var length = 0
      let limit = min(end - offset, prefixLength + 18)
      while index < limit, start[index] &- UInt8(ascii: "0") < 10 {
        length = length * 10 + Int(start[index] &- UInt8(ascii: "0"))
        index += 1
      }
      guard index > prefixLength, end - offset >= index + 4, start[index] == 0x0D, start[index + 1] == 0x0A,
        start[index + 2] == 0x0D, start[index + 3] == 0x0A
      else { return nil }
      return (length, offset + index + 4)
    }

    /// The bytes from `start` to `end`, borrowed.
    func borrow(from start: Int, to end: Int) -> UnsafeRawBufferPointer {
      guard end > start else { return UnsafeRawBufferPointer(start: nil, count: 0) }
      return UnsafeRawBufferPointer(start: base! + (start - origin), count: end - start)
    }

    func bytes(from start: Int, to end: Int) -> [UInt8] {
      guard end > start else { return [] }
      return Array(UnsafeBufferPointer(start: base! + (start - origin), count: end - start))
    }

    /// The bytes as text for an error message, shortened to 80 bytes.
    func text(from start: Int, to end: Int) -> String {
      let shortEnd = min(end, start + 80)
      guard shortEnd > start else { return "" }
      let text = String(
        decoding: UnsafeBufferPointer(start: base! + (start - origin), count: shortEnd - start), as: UTF8.self
      )
      return shortEnd < end ? text + "…" : text
    }

    func trimmingCarriageReturn(start: Int, end: Int) -> Int {
      end > start && byte(end - 1) == 0x0D ? end - 1 : end
    }

    func containsNonWhitespace(from start: Int, to end: Int) -> Bool {
      var offset = start
      while offset < end {
        if !isWhitespace(byte(offset)) { return true }
        offset += 1
      }
      return false
    }

    /// Whether the bytes equal `lowercase` (ASCII letters and '-'), ignoring the case of letters.
    func equalsIgnoringCase(from start: Int, to end: Int, _ lowercase: [UInt8]) -> Bool {
      guard end - start == lowercase.count else { return false }
      for index in 0..<lowercase.count {
        let byte = byte(start + index)
        let expected = lowercase[index]
        let matches = expected == UInt8(ascii: "-") ? byte == expected : byte | 0x20 == expected
        if !matches { return false }
      }
      return true
    }
  }
}

let contentLengthName = Array("content-length".utf8)
let canonicalPrefix = Array("Content-Length: ".utf8)
let contentTypeName = Array("content-type".utf8)

@inline(__always)
func isWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}

@inline(__always)
func isBlank(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09
}

/// RFC 9110 `tchar`: the bytes allowed in a header name.
func isTokenByte(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
    UInt8(ascii: "0")...UInt8(ascii: "9"):
    return true
  case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
    UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
    UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
    return true
  default:
    return false
  }
}
