// The incremental frame reader: bytes in, frames and framing errors out; no I/O, never stuck.

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
/// `maxFrameSize` is refused without being stored: its bytes are skipped as they arrive.
///
/// **Wrong lengths.** No JSON text contains `Content-Length` outside a string, and a raw line
/// feed only between tokens, so a `Content-Length` that is too large shows in the body as the
/// next frame's header line `Content-Length: N`. If the body contains that whole line (up to its
/// line feed), the reader reports ``FrameError/Kind/bodyOverrunsNextFrame(declaredLength:)`` and
/// resumes at that header. If the body ends *inside* it, the body is delivered (it cannot be
/// valid JSON, so its receiver answers a parse error) and the malformed header block after it is
/// not reported: the reader resumes at the `Content-Length` line that began in the body's last
/// bytes and ends at the first line feed after it. Likewise when the body already gets an error
/// (its last byte other than whitespace is not `}` or `]`) and the line right after it is not a
/// header line — the rest of an understated body, or of a header line an overstated one cut
/// into — the reader resumes at the next `Content-Length` without a second report. So a wrong
/// length costs its own frame only, with one error (an understated body that happens to end in
/// `}` or `]` costs a second one, for the bytes left over).
///
/// **Long lines.** A newline-delimited line is stored only up to `maxFrameSize` (+1 for a
/// carriage return): once it is longer, the rest is dropped as it arrives, and at its line feed
/// (or the end of the stream) one ``FrameError/Kind/lineTooLong(length:limit:)`` gives its length.
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
  /// Set while the header block being read directly follows a body that does not end in `}` or
  /// `]`, so that body's length may have been wrong; cleared as the block is left, or at a blank
  /// line before it. Kept out of `State` so that the state of well-formed frames stays small.
  private var afterBody: AfterBody?
  /// While dropping an over-long line: whether the last byte dropped was a carriage return (not
  /// part of the line's length if a line feed follows).
  private var droppedCarriageReturn = false

  private struct Header {
    /// Stream offset of the first byte of the block.
    var start: Int
    /// Offset of the current line's first byte.
    var lineStart: Int
    /// Offset up to which the current line was searched for its line feed.
    var scanned: Int
    var sawLine = false
    var contentLength: Int?
    /// Where the Content-Length value is, for error messages.
    var contentLengthValue: (start: Int, end: Int)?
    /// Where a Content-Type value with a charset other than UTF-8 is (kept as offsets so that
    /// the state stays a plain value, cheap to copy).
    var badContentType: (start: Int, end: Int)?

    init(at offset: Int) {
      start = offset
      lineStart = offset
      scanned = offset
    }
  }

  /// What a header block needs to know of the body before it, should the block be malformed.
  private struct AfterBody {
    /// Where the kept tail of the body starts (`bodyEnd` when no `Content-Length` line can have
    /// begun in it).
    var tailStart: Int
    /// Where the body ended.
    var bodyEnd: Int
    /// Whether the body was refused by the reader or cannot be a JSON-RPC message (its last byte
    /// other than whitespace is not `}` or `]`): either way its sender gets an error for it.
    var answeredWithError: Bool
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
    /// Dropping the rest of the over-long line that began at `start`, from `offset` (whether the
    /// last byte dropped was a carriage return is in `droppedCarriageReturn`).
    case discardingLine(start: Int, offset: Int)
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
    var events: [FrameEvent] = []
    let done: Void? = bytes.withContiguousStorageIfAvailable { contiguous in
      feedBorrowed(UnsafeRawBufferPointer(contiguous)) { events.append(FrameEvent($0)) }
    }
    if done == nil {
      Array(bytes).withUnsafeBytes { copy in feedBorrowed(copy) { events.append(FrameEvent($0)) } }
    }
    return events
  }

  /// Feeds bytes and hands each completed event to `handle` as it is found (no intermediate array).
  public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (FrameEvent) -> Void) {
    feedBorrowed(bytes) { handle(FrameEvent($0)) }
  }

  /// Feeds bytes and hands each completed event to `handle` with the body *borrowed* from the
  /// reader's buffer — no copy. The pointer is valid only during the call to `handle`: parse
  /// it there (``JSONParser/parse(_:)-(UnsafeRawBufferPointer)`` takes it as is). The fastest way
  /// to read a stream.
  public mutating func feedBorrowed(_ bytes: UnsafeRawBufferPointer, _ handle: (BorrowedFrameEvent) -> Void) {
    if case .finished = state { return }
    if case .line(let start, _) = state, streamOffset + bytes.count - start > maxFrameSize + 1 {
      refuseLineIfTooLong(start: start, continuingWith: bytes)
    }
    guard buffer.isEmpty, bytes.count > 0 else {
      reserveForBody(from: bufferStart)
      buffer.append(contentsOf: bytes)
      process(handle)
      return
    }
    // Nothing is pending: read the frames straight from the caller's bytes and keep only the
    // unfinished tail.
    let origin = bufferStart
    let view = View(
      base: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), origin: origin, end: origin + bytes.count)
    while step(view, handle) {}
    let keep = min(max(keepOffset, origin), origin + bytes.count)
    reserveForBody(from: keep)
    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(keep - origin)...]))
    bufferStart = keep
  }

  /// While a body is being read, makes room in the buffer (which holds the stream from `start`)
  /// for all of it at once: growing by doubling would, for a large frame, hold the old and the
  /// new storage at once, up to three times the frame, at the daemon's peak.
  private mutating func reserveForBody(from start: Int) {
    guard case .body(let bodyStart, let length, _, _) = state else { return }
    let needed = bodyStart + length - start
    if needed > buffer.capacity { buffer.reserveCapacity(needed) }
  }

  /// The number of bytes the reader holds (the unfinished frame, and bytes it may still need).
  public var bufferedByteCount: Int { buffer.count }

  /// Called before storing `bytes` while a newline-delimited line from `start` is pending (all
  /// stored bytes searched, no line feed) and the bytes would take it past the limit: if the line
  /// is too long even where it ends in them, starts dropping it now rather than storing them.
  /// Runs only for lines near the limit, so the extra search costs nothing on ordinary lines.
  private mutating func refuseLineIfTooLong(start: Int, continuingWith bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    if let found = memchr(base, 0x0A, bytes.count) {
      let index = UnsafeRawPointer(found) - base
      let carriageReturn = index > 0 ? bytes[index - 1] == 0x0D : buffer.last == 0x0D
      guard streamOffset + index - (carriageReturn ? 1 : 0) - start > maxFrameSize else { return }
    }
    droppedCarriageReturn = buffer.last == 0x0D
    state = .discardingLine(start: start, offset: streamOffset)
    compact()
  }

  /// Ends the stream: reports a frame cut short (or delivers a final newline-delimited line that
  /// lacks its line feed). Later feeds are ignored.
  public mutating func finish() -> [FrameEvent] {
    var events: [FrameEvent] = []
    let state = self.state
    withView { view in
      let end = view.end
      switch state {
      case .header(let header):
        if header.sawLine || view.containsNonWhitespace(from: header.lineStart, to: end) {
          events.append(.error(FrameError(.truncatedFrame(expected: nil, received: 0), offset: header.start)))
        }
      case .body(let start, let length, _, let frameStart):
        events.append(
          .error(FrameError(.truncatedFrame(expected: length, received: end - start), offset: frameStart)))
      case .line(let start, _):
        let lineEnd = view.trimmingCarriageReturn(start: start, end: end)
        if lineEnd - start > maxFrameSize {
          events.append(
            .error(FrameError(.lineTooLong(length: lineEnd - start, limit: maxFrameSize), offset: start)))
        } else if view.containsNonWhitespace(from: start, to: end) {
          events.append(.frame(view.bytes(from: start, to: lineEnd)))
        }
      case .discardingLine(let start, let offset):
        // Everything dropped was stored no longer, so `offset` is the end of the stream.
        let length = offset - start - (droppedCarriageReturn ? 1 : 0)
        events.append(.error(FrameError(.lineTooLong(length: length, limit: maxFrameSize), offset: start)))
      case .skipping, .detecting, .searching, .finished:
        break
      }
    }
    self.state = .finished
    buffer = []
    return events
  }

  /// Runs `body` with a read-only view of the buffered bytes.
  private func withView<Result>(_ body: (View) -> Result) -> Result {
    buffer.withUnsafeBufferPointer { pointer in
      body(View(base: pointer.baseAddress, origin: bufferStart, end: bufferStart + pointer.count))
    }
  }

  // MARK: - The state machine

  private mutating func process(_ emit: (BorrowedFrameEvent) -> Void) {
    do {
      // A second reference to the storage, so the state can change while its bytes are read;
      // it ends with this scope, before compact() edits the buffer.
      let storage = buffer
      let origin = bufferStart
      storage.withUnsafeBufferPointer { pointer in
        let view = View(base: pointer.baseAddress, origin: origin, end: origin + pointer.count)
        while step(view, emit) {}
      }
    }
    compact()
  }

  /// Advances the state machine once; false when it needs more bytes.
  private mutating func step(_ view: View, _ emit: (BorrowedFrameEvent) -> Void) -> Bool {
    let end = view.end
    switch state {
    case .finished:
      return false

    case .detecting(var offset):
      while offset < end && isWhitespace(view.byte(offset)) { offset += 1 }
      guard offset < end else {
        state = .detecting(offset)
        return false
      }
      let first = view.byte(offset)
      if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
        framing = .newlineDelimited
        state = .line(start: offset, scanned: offset)
      } else {
        framing = .contentLength
        state = .header(Header(at: offset))
      }
      return true

    case .header(var header):
      return stepHeader(&header, view, emit)

    case .body(let start, let length, let scanned, let frameStart):
      let bodyEnd = start + length
      let scanEnd = min(end, bodyEnd)
      if let embedded = view.findEmbeddedHeader(from: scanned, to: scanEnd, lowerBound: start) {
        emit(.error(FrameError(.bodyOverrunsNextFrame(declaredLength: length), offset: frameStart)))
        state = .header(Header(at: embedded))
        return true
      }
      guard end >= bodyEnd else {
        state = .body(start: start, length: length, scanned: scanEnd, frameStart: frameStart)
        return false
      }
      emit(.frame(view.borrow(from: start, to: bodyEnd)))
      // A well-formed body ends in `}` or `]` and costs nothing more; any other is looked at
      // again should the header block after it be malformed.
      if length == 0 || !endsMessage(view.byte(bodyEnd - 1)) { rememberBody(from: start, to: bodyEnd, view) }
      state = .header(Header(at: bodyEnd))
      return true

    case .skipping(let remaining, let offset, let regionStart):
      let scanEnd = offset + min(remaining, end - offset)
      if let embedded = view.findEmbeddedHeader(from: offset, to: scanEnd, lowerBound: regionStart) {
        state = .header(Header(at: embedded))
        return true
      }
      let left = remaining - (scanEnd - offset)
      if left == 0 {
        let tail = scanEnd > offset && mayEndInsideHeaderLine(view.byte(scanEnd - 1))
        afterBody = AfterBody(
          tailStart: tail ? max(regionStart, scanEnd - headerLineReach) : scanEnd, bodyEnd: scanEnd,
          answeredWithError: true)
        state = .header(Header(at: scanEnd))
        return true
      }
      state = .skipping(remaining: left, offset: scanEnd, regionStart: regionStart)
      return false

    case .searching(let offset):
      if let found = view.findContentLength(from: offset, to: end) {
        state = .header(Header(at: found))
        return true
      }
      // Keep the last bytes: they may be the start of a match completed by the next feed.
      state = .searching(max(offset, end - (contentLengthName.count - 1)))
      return false

    case .line(let start, let scanned):
      guard let lineFeed = view.findLineFeed(from: scanned, to: end) else {
        // One byte over the limit may still be the carriage return of the line's end.
        if end - start > maxFrameSize + 1 {
          droppedCarriageReturn = view.byte(end - 1) == 0x0D
          state = .discardingLine(start: start, offset: end)
        } else {
          state = .line(start: start, scanned: end)
        }
        return false
      }
      let lineEnd = view.trimmingCarriageReturn(start: start, end: lineFeed)
      if lineEnd - start > maxFrameSize {
        emit(.error(FrameError(.lineTooLong(length: lineEnd - start, limit: maxFrameSize), offset: start)))
      } else if view.containsNonWhitespace(from: start, to: lineEnd) {
        emit(.frame(view.borrow(from: start, to: lineEnd)))
      }
      state = .line(start: lineFeed + 1, scanned: lineFeed + 1)
      return true

    case .discardingLine(let start, let offset):
      guard let lineFeed = view.findLineFeed(from: offset, to: end) else {
        if end > offset { droppedCarriageReturn = view.byte(end - 1) == 0x0D }
        state = .discardingLine(start: start, offset: end)
        return false
      }
      let carriageReturn = lineFeed > offset ? view.byte(lineFeed - 1) == 0x0D : droppedCarriageReturn
      let length = lineFeed - start - (carriageReturn ? 1 : 0)
      emit(.error(FrameError(.lineTooLong(length: length, limit: maxFrameSize), offset: start)))
      state = .line(start: lineFeed + 1, scanned: lineFeed + 1)
      return true
    }
  }

  /// Sets ``afterBody`` for a body that does not end in `}` or `]`.
  @inline(never)
  private mutating func rememberBody(from start: Int, to bodyEnd: Int, _ view: View) {
    var lastToken = bodyEnd - 1
    while lastToken > start && isWhitespace(view.byte(lastToken)) { lastToken -= 1 }
    let mayEndInHeader = bodyEnd > start && mayEndInsideHeaderLine(view.byte(bodyEnd - 1))
    afterBody = AfterBody(
      tailStart: mayEndInHeader ? max(start, bodyEnd - headerLineReach) : bodyEnd, bodyEnd: bodyEnd,
      answeredWithError: bodyEnd == start || !endsMessage(view.byte(lastToken)))
  }

  private mutating func stepHeader(_ header: inout Header, _ view: View, _ emit: (BorrowedFrameEvent) -> Void)
    -> Bool
  {
    let end = view.end
    if !header.sawLine && header.scanned == header.start,
      let (length, bodyStart) = view.canonicalHeader(at: header.start), length <= maxFrameSize
    {
      // Fast path: exactly `Content-Length: N\r\n\r\n`, as nearly every client writes it.
      afterBody = nil
      state = .body(start: bodyStart, length: length, scanned: bodyStart, frameStart: header.start)
      return true
    }
    while true {
      guard let lineFeed = view.findLineFeed(from: header.scanned, to: end) else {
        header.scanned = end
        if end - header.start > maxHeaderSize {
          return fail(.headerTooLarge(limit: maxHeaderSize), header, view, emit)
        }
        state = .header(header)
        return false
      }
      let lineEnd = view.trimmingCarriageReturn(start: header.lineStart, end: lineFeed)
      let next = lineFeed + 1
      if !view.containsNonWhitespace(from: header.lineStart, to: lineEnd) {
        if !header.sawLine {
          // Blank lines before a header block are ignored — unless the first one after a body
          // ends a `Content-Length` line that the body cut into (see `fail`).
          if let body = afterBody {
            afterBody = nil
            if let start = overrunHeaderLine(body, endingAt: lineFeed, view) {
              state = .header(Header(at: start))
              return true
            }
          }
          header = Header(at: next)
          continue
        }
        // The empty line: the block is complete.
        guard let length = header.contentLength else {
          return fail(.missingContentLength, header, view, emit)
        }
        afterBody = nil
        if let range = header.badContentType,
          let charset = unsupportedCharset(in: view.text(from: range.start, to: range.end))
        {
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
      if let problem = parseHeaderLine(view, from: header.lineStart, to: lineEnd, into: &header) {
        if case .conflictingContentLength = problem {
          afterBody = nil
          // Both lengths are headers of this block: resume after the second, not at it.
          emit(.error(FrameError(problem, offset: header.start)))
          state = .searching(next)
          return true
        }
        return fail(problem, header, view, emit)
      }
      header.lineStart = next
      header.scanned = next
    }
  }

  /// Reports a bad header block and resynchronises at the next `Content-Length` after its first
  /// byte. When the block directly follows a body whose length may have been wrong, the body is
  /// the frame in error and the block is not reported again:
  /// 1. if the block's first line completes a `Content-Length: N` line that began in the body,
  ///    the length was overstated into the next frame's header: reading resumes at that line;
  /// 2. if the body already gets an error (``AfterBody/answeredWithError``) and the line starting
  ///    right where it ended is not a header line, that line is the rest of an understated body
  ///    or of a header line an overstated one cut into: reading resumes at the next
  ///    `Content-Length`, as for any bad block. (A well-formed but wrong header there, such as
  ///    `Content-Length: abc`, is a mistake of its own and is reported.)
  private mutating func fail(
    _ kind: FrameError.Kind, _ header: Header, _ view: View, _ emit: (BorrowedFrameEvent) -> Void
  ) -> Bool {
    if let body = afterBody {
      afterBody = nil
      if let lineFeed = view.findLineFeed(from: body.bodyEnd, to: view.end),
        let start = overrunHeaderLine(body, endingAt: lineFeed, view)
      {
        state = .header(Header(at: start))
        return true
      }
      if body.answeredWithError, case .malformedHeader = kind, header.lineStart == body.bodyEnd {
        state = .searching(header.start + 1)
        return true
      }
    }
    emit(.error(FrameError(kind, offset: header.start)))
    state = .searching(header.start + 1)
    return true
  }

  /// Where a `Content-Length: N` line begins if it ends at `lineFeed` (the first line feed after
  /// the body) and began inside the body's kept tail.
  private func overrunHeaderLine(_ body: AfterBody, endingAt lineFeed: Int, _ view: View) -> Int? {
    guard body.tailStart < body.bodyEnd,
      let start = view.headerLineStart(endingAt: lineFeed, lowerBound: body.tailStart), start < body.bodyEnd
    else { return nil }
    return start
  }

  /// Parses `name: value`; returns the problem, if any.
  private func parseHeaderLine(_ view: View, from start: Int, to end: Int, into header: inout Header)
    -> FrameError.Kind?
  {
    var colon = start
    while colon < end && isTokenByte(view.byte(colon)) { colon += 1 }
    guard colon > start, colon < end, view.byte(colon) == UInt8(ascii: ":") else {
      return .malformedHeader(view.text(from: start, to: end))
    }
    var valueStart = colon + 1
    var valueEnd = end
    while valueStart < valueEnd && isBlank(view.byte(valueStart)) { valueStart += 1 }
    while valueEnd > valueStart && isBlank(view.byte(valueEnd - 1)) { valueEnd -= 1 }
    if view.equalsIgnoringCase(from: start, to: colon, contentLengthName) {
      let valueText = { view.text(from: valueStart, to: valueEnd) }
      guard valueEnd > valueStart else { return .invalidContentLength(valueText()) }
      var value = 0
      for offset in valueStart..<valueEnd {
        let digit = view.byte(offset) &- UInt8(ascii: "0")
        guard digit < 10 else { return .invalidContentLength(valueText()) }
        // Saturate: any length this large is refused as too large anyway.
        value = value > (Int.max - 9) / 10 ? Int.max : value * 10 + Int(digit)
      }
      if let previous = header.contentLength, previous != value {
        let first = header.contentLengthValue.map { view.text(from: $0.start, to: $0.end) } ?? ""
        return .conflictingContentLength(first, valueText())
      }
      header.contentLength = value
      header.contentLengthValue = (valueStart, valueEnd)
    } else if view.equalsIgnoringCase(from: start, to: colon, contentTypeName) {
      let value = view.text(from: valueStart, to: valueEnd)
      header.badContentType = unsupportedCharset(in: value) == nil ? nil : (valueStart, valueEnd)
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

  /// Read-only access to the buffered bytes by stream offset, valid during one `process` call.
  private struct View {
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

  /// The stream offset of the first byte the current state may still need.
  private var keepOffset: Int {
    switch state {
    case .detecting(let offset), .searching(let offset): return offset
    case .header(let header): return afterBody?.tailStart ?? header.start
    case .body(let start, _, _, _): return start
    case .skipping(_, let offset, let regionStart): return max(regionStart, offset - headerLineReach)
    case .line(let start, _): return start
    case .discardingLine(_, let offset): return offset
    case .finished: return streamOffset
    }
  }

  /// Drops consumed bytes once they are a large share of the buffer; gives back a large buffer
  /// once little of it is still needed.
  private mutating func compact() {
    let keep = keepOffset
    let drop = keep - bufferStart
    guard drop > 0 else { return }
    if drop == buffer.count {
      buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
    } else if drop >= 1 << 16 || drop * 2 >= buffer.count {
      if buffer.capacity > 1 << 20 && (buffer.count - drop) * 4 <= buffer.capacity {
        buffer = Array(buffer[drop...])
      } else {
        buffer.removeFirst(drop)
      }
    } else {
      return
    }
    bufferStart += drop
  }
}

private let contentLengthName = Array("content-length".utf8)
private let canonicalPrefix = Array("Content-Length: ".utf8)
private let contentTypeName = Array("content-type".utf8)

/// How far back from its line feed a `Content-Length` line can begin, as
/// `View.headerLineStart(endingAt:lowerBound:)` matches it (the name, three runs of at most 16
/// blanks, the colon, up to 21 digits, a carriage return), with room to spare.
private let headerLineReach = 96

/// Whether a body's last byte may be part of a `Content-Length: N` line (a header name or value,
/// a colon, a blank, a carriage return) — never true of `}` or `]`, which end every well-formed
/// message.
@inline(__always)
private func mayEndInsideHeaderLine(_ byte: UInt8) -> Bool {
  isTokenByte(byte) || byte == UInt8(ascii: ":") || isBlank(byte) || byte == 0x0D
}

/// Whether a byte can end a JSON-RPC message (an object or a batch), whitespace aside.
@inline(__always)
private func endsMessage(_ byte: UInt8) -> Bool {
  byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
}

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
