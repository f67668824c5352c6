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
  var state: State
  /// Set while the header block being read directly follows a body that does not end in `}` or
  /// `]`, so that body's length may have been wrong; cleared as the block is left, or at a blank
  /// line before it. Kept out of `State` so that the state of well-formed frames stays small.
  var afterBody: AfterBody?
  /// While dropping an over-long line: whether the last byte dropped was a carriage return (not
  /// part of the line's length if a line feed follows).
  private var droppedCarriageReturn = false

  struct Header {
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
  struct AfterBody {
    /// Where the kept tail of the body starts (`bodyEnd` when no `Content-Length` line can have
    /// begun in it).
    var tailStart: Int
    /// Where the body ended.
    var bodyEnd: Int
    /// Whether the body was refused by the reader or cannot be a JSON-RPC message (its last byte
    /// other than whitespace is not `}` or `]`): either way its sender gets an error for it.
    var answeredWithError: Bool
  }

  enum State {
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
