// The incremental frame reader: bytes in, frames and framing errors out; no I/O, never stuck.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splits a byte stream into frame bodies. A pure state machine: feed it whatever `read()`
/// returned, in pieces of any size, and collect the events; call ``finish()`` at end of stream.
///
/// **Framing detection.** Unless a framing is given, the first non-whitespace byte of the stream
/// decides: `{` or `[` means newline-delimited JSON, anything else Content-Length framing
/// (``framing`` tells which, once known).
///
/// **Content-Length framing** (the LSP base protocol): header lines `Name: value` ended by CRLF
/// or LF, then an empty line, then exactly `Content-Length` bytes. Header names are
/// case-insensitive; `Content-Type` is accepted when its charset (if any) is `utf-8` or `utf8`;
/// unknown headers are ignored; blank lines between frames are ignored.
///
/// **Errors and resynchronisation.** A malformed header block (a bad, missing or conflicting
/// `Content-Length`, a line that is not a header) yields one ``FrameError`` and the reader
/// resumes at the next `Content-Length` in the stream, searching from just after the start of
/// the bad block (after the second header for conflicting lengths), so a frame whose header
/// directly follows garbage is still found. A frame over
/// `maxFrameSize` is refused without being stored: its bytes are skipped as they arrive. Because
/// no JSON text can contain a line `Content-Length: N` (a raw line feed is only allowed between
/// tokens, and no token starts with `C`), a body that contains one means the previous
/// `Content-Length` was too large: the reader reports it and resumes at that header, so an
/// overstated length costs one frame, not the rest of the stream.
///
/// **Cost.** O(n) in the bytes fed; each byte is examined a bounded number of times. Memory is
/// bounded by `maxFrameSize` + `maxHeaderSize` plus the last feed.
public struct FrameReader: Sendable {
  /// The default limit on one frame body: 64 MiB.
  public static let defaultMaxFrameSize = 64 << 20
  /// The default limit on one header block: 16 KiB.
  public static let defaultMaxHeaderSize = 16 << 10

  /// Frame bodies longer than this are refused.
  public let maxFrameSize: Int
  /// Header blocks longer than this (without their empty line) are refused.
  public let maxHeaderSize: Int
  /// The framing in use: given at creation or detected from the first non-whitespace byte.
  public private(set) var framing: Framing?

  /// Unconsumed bytes; `buffer[0]` is at stream offset `bufferStart`.
  private var buffer: [UInt8] = []
  private var bufferStart = 0
  private var state: State

  private struct Header {
    /// Stream offset of the first byte of the block.
    var start: Int
    /// Offset of the current line's first byte.
    var lineStart: Int
    /// Offset up to which the current line was searched for its line feed.
    var scanned: Int
    var sawLine = false
    var contentLength: Int?
    var contentLengthText: String?
    var badCharset: String?

    init(at offset: Int) {
      start = offset
      lineStart = offset
      scanned = offset
    }
  }

  private enum State {
    /// Waiting for the first non-whitespace byte (searching from the offset).
    case detecting(Int)
    /// Reading a Content-Length header block.
    case header(Header)
    /// Collecting a body of `length` bytes from `start`; searched for embedded headers up to `scanned`.
    case body(start: Int, length: Int, scanned: Int, frameStart: Int)
    /// Dropping `remaining` more bytes of a refused body, from `offset`; `regionStart` is where the
    /// dropped bytes began (embedded headers are still looked for).
    case skipping(remaining: Int, offset: Int, regionStart: Int)
    /// Resynchronising: searching for the next `content-length` from the offset.
    case searching(Int)
    /// Reading a newline-delimited line from `start`, searched for its line feed up to `scanned`.
    case line(start: Int, scanned: Int)
    /// Dropping the rest of an over-long line, from the offset.
    case discardingLine(Int)
    /// ``finish()`` was called.
    case finished
  }

  /// A reader for a stream whose framing is `framing`, or detected from its first byte if nil.
  public init(
    framing: Framing? = nil, maxFrameSize: Int = FrameReader.defaultMaxFrameSize,
    maxHeaderSize: Int = FrameReader.defaultMaxHeaderSize
  ) {
    self.framing = framing
    self.maxFrameSize = max(0, maxFrameSize)
    self.maxHeaderSize = max(64, maxHeaderSize)
    switch framing {
    case nil: state = .detecting(0)
    case .contentLength: state = .header(Header(at: 0))
    case .newlineDelimited: state = .line(start: 0, scanned: 0)
    }
  }

  /// Total number of bytes fed so far.
  public var streamOffset: Int { bufferStart + buffer.count }

  /// Feeds the next bytes of the stream and returns the frames and errors they complete, in
  /// stream order. Amortized O(bytes.count).
  public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [FrameEvent] {
    var events: [FrameEvent] = []
    feed(bytes) { events.append($0) }
    return events
  }

  /// Feeds bytes from any collection.
  public mutating func feed<Bytes: Collection>(_ bytes: Bytes) -> [FrameEvent] where Bytes.Element == UInt8 {
    if case .finished = state { return [] }
    let done: Void? = bytes.withContiguousStorageIfAvailable { buffer.append(contentsOf: $0) }
    if done == nil { buffer.append(contentsOf: bytes) }
    var events: [FrameEvent] = []
    process { events.append($0) }
    compact()
    return events
  }

  /// Feeds bytes and hands each completed event to `handle` as it is found (no intermediate array).
  public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (FrameEvent) -> Void) {
    if case .finished = state { return }
    buffer.append(contentsOf: bytes)
    process(handle)
    compact()
  }

  /// Ends the stream: reports a frame cut short (or delivers a final newline-delimited line that
  /// lacks its line feed). Later feeds are ignored.
  public mutating func finish() -> [FrameEvent] {
    var events: [FrameEvent] = []
    let end = streamOffset
    switch state {
    case .header(let header):
      if header.sawLine || containsNonWhitespace(from: header.lineStart, to: end) {
        events.append(.error(FrameError(.truncatedFrame(expected: nil, received: 0), offset: header.start)))
      }
    case .body(let start, let length, _, let frameStart):
      events.append(
        .error(FrameError(.truncatedFrame(expected: length, received: end - start), offset: frameStart)))
    case .line(let start, _):
      if containsNonWhitespace(from: start, to: end) {
        events.append(.frame(bytes(from: start, to: trimmingCarriageReturn(start: start, end: end))))
      }
    case .skipping, .detecting, .searching, .discardingLine, .finished:
      break
    }
    state = .finished
    buffer = []
    return events
  }

  // MARK: - The state machine

  private mutating func process(_ emit: (FrameEvent) -> Void) {
    while step(emit) {}
  }

  /// Advances the state machine once; false when it needs more bytes.
  private mutating func step(_ emit: (FrameEvent) -> Void) -> Bool {
    let end = streamOffset
    switch state {
    case .finished:
      return false

    case .detecting(var offset):
      while offset < end && isWhitespace(byte(offset)) { offset += 1 }
      guard offset < end else {
        state = .detecting(offset)
        return false
      }
      let first = byte(offset)
      if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
        framing = .newlineDelimited
        state = .line(start: offset, scanned: offset)
      } else {
        framing = .contentLength
        state = .header(Header(at: offset))
      }
      return true

    case .header(var header):
      return stepHeader(&header, end: end, emit)

    case .body(let start, let length, let scanned, let frameStart):
      let bodyEnd = start + length
      let scanEnd = min(end, bodyEnd)
      if let embedded = findEmbeddedHeader(from: scanned, to: scanEnd, lowerBound: start) {
        emit(.error(FrameError(.bodyOverrunsNextFrame(declaredLength: length), offset: frameStart)))
        state = .header(Header(at: embedded))
        return true
      }
      guard end >= bodyEnd else {
        state = .body(start: start, length: length, scanned: scanEnd, frameStart: frameStart)
        return false
      }
      emit(.frame(bytes(from: start, to: bodyEnd)))
      state = .header(Header(at: bodyEnd))
      return true

    case .skipping(let remaining, let offset, let regionStart):
      let scanEnd = offset + min(remaining, end - offset)
      if let embedded = findEmbeddedHeader(from: offset, to: scanEnd, lowerBound: regionStart) {
        state = .header(Header(at: embedded))
        return true
      }
      let left = remaining - (scanEnd - offset)
      if left == 0 {
        state = .header(Header(at: scanEnd))
        return true
      }
      state = .skipping(remaining: left, offset: scanEnd, regionStart: regionStart)
      return false

    case .searching(let offset):
      if let found = findContentLength(from: offset, to: end) {
        state = .header(Header(at: found))
        return true
      }
      // Keep the last bytes: they may be the start of a match completed by the next feed.
      state = .searching(max(offset, end - (contentLengthName.count - 1)))
      return false

    case .line(let start, let scanned):
      guard let lineFeed = findLineFeed(from: scanned, to: end) else {
        if end - start > maxFrameSize {
          emit(.error(FrameError(.frameTooLarge(length: nil, limit: maxFrameSize), offset: start)))
          state = .discardingLine(end)
        } else {
          state = .line(start: start, scanned: end)
        }
        return false
      }
      let lineEnd = trimmingCarriageReturn(start: start, end: lineFeed)
      if lineEnd - start > maxFrameSize {
        emit(.error(FrameError(.frameTooLarge(length: nil, limit: maxFrameSize), offset: start)))
      } else if containsNonWhitespace(from: start, to: lineEnd) {
        emit(.frame(bytes(from: start, to: lineEnd)))
      }
      state = .line(start: lineFeed + 1, scanned: lineFeed + 1)
      return true

    case .discardingLine(let offset):
      guard let lineFeed = findLineFeed(from: offset, to: end) else {
        state = .discardingLine(end)
        return false
      }
      state = .line(start: lineFeed + 1, scanned: lineFeed + 1)
      return true
    }
  }

  private mutating func stepHeader(_ header: inout Header, end: Int, _ emit: (FrameEvent) -> Void) -> Bool {
    while true {
      guard let lineFeed = findLineFeed(from: header.scanned, to: end) else {
        header.scanned = end
        if end - header.start > maxHeaderSize {
          return fail(.headerTooLarge(limit: maxHeaderSize), header, emit)
        }
        state = .header(header)
        return false
      }
      let lineEnd = trimmingCarriageReturn(start: header.lineStart, end: lineFeed)
      let next = lineFeed + 1
      if !containsNonWhitespace(from: header.lineStart, to: lineEnd) {
        if !header.sawLine {
          // Blank lines before a header block are ignored.
          header = Header(at: next)
          continue
        }
        // The empty line: the block is complete.
        guard let length = header.contentLength else { return fail(.missingContentLength, header, emit) }
        if let charset = header.badCharset {
          emit(.error(FrameError(.unsupportedCharset(charset), offset: header.start)))
          state = .skipping(remaining: length, offset: next, regionStart: next)
        } else if length > maxFrameSize {
          emit(.error(FrameError(.frameTooLarge(length: length, limit: maxFrameSize), offset: header.start)))
          state = .skipping(remaining: length, offset: next, regionStart: next)
        } else {
          state = .body(start: next, length: length, scanned: next, frameStart: header.start)
        }
        return true
      }
      header.sawLine = true
      if let problem = parseHeaderLine(from: header.lineStart, to: lineEnd, into: &header) {
        if case .conflictingContentLength = problem {
          // Both lengths are headers of this block: resume after the second, not at it.
          emit(.error(FrameError(problem, offset: header.start)))
          state = .searching(next)
          return true
        }
        return fail(problem, header, emit)
      }
      header.lineStart = next
      header.scanned = next
    }
  }

  /// Reports a bad header block and resynchronises just after its first byte.
  private mutating func fail(_ kind: FrameError.Kind, _ header: Header, _ emit: (FrameEvent) -> Void) -> Bool
  {
    emit(.error(FrameError(kind, offset: header.start)))
    state = .searching(header.start + 1)
    return true
  }

  /// Parses `name: value`; returns the problem, if any.
  private func parseHeaderLine(from start: Int, to end: Int, into header: inout Header) -> FrameError.Kind? {
    var colon = start
    while colon < end && isTokenByte(byte(colon)) { colon += 1 }
    guard colon > start, colon < end, byte(colon) == UInt8(ascii: ":") else {
      return .malformedHeader(text(from: start, to: end))
    }
    var valueStart = colon + 1
    var valueEnd = end
    while valueStart < valueEnd && isBlank(byte(valueStart)) { valueStart += 1 }
    while valueEnd > valueStart && isBlank(byte(valueEnd - 1)) { valueEnd -= 1 }
    if equalsIgnoringCase(from: start, to: colon, contentLengthName) {
      let valueText = text(from: valueStart, to: valueEnd)
      guard valueEnd > valueStart else { return .invalidContentLength(valueText) }
      var value = 0
      for offset in valueStart..<valueEnd {
        let digit = byte(offset) &- UInt8(ascii: "0")
        guard digit < 10 else { return .invalidContentLength(valueText) }
        // Saturate: any length this large is refused as too large anyway.
        value = value > (Int.max - 9) / 10 ? Int.max : value * 10 + Int(digit)
      }
      if let previous = header.contentLength, previous != value {
        return .conflictingContentLength(header.contentLengthText ?? "", valueText)
      }
      header.contentLength = value
      header.contentLengthText = valueText
    } else if equalsIgnoringCase(from: start, to: colon, contentTypeName) {
      header.badCharset = unsupportedCharset(in: text(from: valueStart, to: valueEnd))
    }
    return nil
  }

  /// The charset parameter of a Content-Type value if it is present and not UTF-8.
  private func unsupportedCharset(in value: String) -> String? {
    for parameter in value.split(separator: ";").dropFirst() {
      let parts = parameter.split(separator: "=", maxSplits: 1)
      guard parts.count == 2, parts[0].trimmingBlanks().lowercased() == "charset" else { continue }
      var charset = parts[1].trimmingBlanks()
      if charset.count >= 2 && charset.hasPrefix("\"") && charset.hasSuffix("\"") {
        charset = String(charset.dropFirst().dropLast())
      }
      let lowered = charset.lowercased()
      return lowered == "utf-8" || lowered == "utf8" ? nil : charset
    }
    return nil
  }

  // MARK: - Searching

  /// The first line in `[from, to)` ending in a line feed that reads `content-length: digits`,
  /// with the match starting at or after `lowerBound`; returns the match's offset.
  private func findEmbeddedHeader(from: Int, to: Int, lowerBound: Int) -> Int? {
    var offset = from
    while let lineFeed = findLineFeed(from: offset, to: to) {
      if let start = headerLineStart(endingAt: lineFeed, lowerBound: lowerBound) { return start }
      offset = lineFeed + 1
    }
    return nil
  }

  /// Matches `content-length OWS ":" OWS digits OWS [CR]` backwards from the line feed.
  private func headerLineStart(endingAt lineFeed: Int, lowerBound: Int) -> Int? {
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
  private func findContentLength(from: Int, to: Int) -> Int? {
    let length = contentLengthName.count
    guard to - from >= length else { return nil }
    return buffer.withUnsafeBufferPointer { bytes -> Int? in
      var index = from - bufferStart
      let last = to - bufferStart - length
      while index <= last {
        if bytes[index] | 0x20 == UInt8(ascii: "c")
          && equalsIgnoringCase(
            from: index + bufferStart, to: index + bufferStart + length, contentLengthName)
        {
          return index + bufferStart
        }
        index += 1
      }
      return nil
    }
  }

  private func findLineFeed(from: Int, to: Int) -> Int? {
    guard from < to else { return nil }
    return buffer.withUnsafeBytes { bytes -> Int? in
      let start = bytes.baseAddress! + (from - bufferStart)
      guard let found = memchr(start, 0x0A, to - from) else { return nil }
      return from + (UnsafeRawPointer(found) - UnsafeRawPointer(start))
    }
  }

  // MARK: - Bytes

  @inline(__always)
  private func byte(_ offset: Int) -> UInt8 {
    buffer[offset - bufferStart]
  }

  private func bytes(from start: Int, to end: Int) -> [UInt8] {
    Array(buffer[(start - bufferStart)..<(end - bufferStart)])
  }

  /// The bytes as text for an error message, shortened to 80 bytes.
  private func text(from start: Int, to end: Int) -> String {
    let shortEnd = min(end, start + 80)
    let text = String(decoding: buffer[(start - bufferStart)..<(shortEnd - bufferStart)], as: UTF8.self)
    return shortEnd < end ? text + "…" : text
  }

  private func trimmingCarriageReturn(start: Int, end: Int) -> Int {
    end > start && byte(end - 1) == 0x0D ? end - 1 : end
  }

  private func containsNonWhitespace(from start: Int, to end: Int) -> Bool {
    var offset = start
    while offset < end {
      if !isWhitespace(byte(offset)) { return true }
      offset += 1
    }
    return false
  }

  /// Whether the bytes equal `lowercase` (ASCII letters and '-'), ignoring the case of letters.
  private func equalsIgnoringCase(from start: Int, to end: Int, _ lowercase: [UInt8]) -> Bool {
    guard end - start == lowercase.count else { return false }
    for index in 0..<lowercase.count {
      let byte = byte(start + index)
      let expected = lowercase[index]
      let matches = expected == UInt8(ascii: "-") ? byte == expected : byte | 0x20 == expected
      if !matches { return false }
    }
    return true
  }

  /// Drops consumed bytes once they are a large share of the buffer.
  private mutating func compact() {
    let keep: Int
    switch state {
    case .detecting(let offset), .searching(let offset): keep = offset
    case .header(let header): keep = header.start
    case .body(let start, _, _, _): keep = start
    case .skipping(_, let offset, let regionStart): keep = max(regionStart, offset - 64)
    case .line(let start, _): keep = start
    case .discardingLine(let offset): keep = offset
    case .finished: keep = streamOffset
    }
    let drop = keep - bufferStart
    guard drop > 0 else { return }
    if drop == buffer.count {
      buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
    } else if drop >= 1 << 16 || drop * 2 >= buffer.count {
      buffer.removeFirst(drop)
    } else {
      return
    }
    bufferStart += drop
  }
}

private let contentLengthName = Array("content-length".utf8)
private let contentTypeName = Array("content-type".utf8)

@inline(__always)
private func isWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}

@inline(__always)
private func isBlank(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09
}

/// RFC 9110 `tchar`: the bytes allowed in a header name.
private func isTokenByte(_ byte: UInt8) -> Bool {
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

extension Substring {
  fileprivate func trimmingBlanks() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
