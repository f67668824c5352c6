// The frame reader's Content-Length header blocks: parsing header lines, and resynchronising after a bad block or a wrong length.

extension FrameReader {
  /// Sets ``afterBody`` for a body that does not end in `}` or `]`.
  @inline(never)
  mutating func rememberBody(from start: Int, to bodyEnd: Int, _ view: View) {
    var lastToken = bodyEnd - 1
    while lastToken > start && isWhitespace(view.byte(lastToken)) { lastToken -= 1 }
    let mayEndInHeader = bodyEnd > start && mayEndInsideHeaderLine(view.byte(bodyEnd - 1))
    afterBody = AfterBody(
      tailStart: mayEndInHeader ? max(start, bodyEnd - headerLineReach) : bodyEnd, bodyEnd: bodyEnd,
      answeredWithError: bodyEnd == start || !endsMessage(view.byte(lastToken)))
  }

  mutating func stepHeader(_ header: inout Header, _ view: View, _ emit: (BorrowedFrameEvent) -> Void)
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
  mutating func fail(
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
  func overrunHeaderLine(_ body: AfterBody, endingAt lineFeed: Int, _ view: View) -> Int? {
    guard body.tailStart < body.bodyEnd,
      let start = view.headerLineStart(endingAt: lineFeed, lowerBound: body.tailStart), start < body.bodyEnd
    else { return nil }
    return start
  }

  /// Parses `name: value`; returns the problem, if any.
  func parseHeaderLine(_ view: View, from start: Int, to end: Int, into header: inout Header)
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
  func unsupportedCharset(in value: String) -> String? {
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
}

/// How far back from its line feed a `Content-Length` line can begin, as
/// `View.headerLineStart(endingAt:lowerBound:)` matches it (the name, three runs of at most 16
/// blanks, the colon, up to 21 digits, a carriage return), with room to spare.
let headerLineReach = 96

/// Whether a body's last byte may be part of a `Content-Length: N` line (a header name or value,
/// a colon, a blank, a carriage return) — never true of `}` or `]`, which end every well-formed
/// message.
@inline(__always)
func mayEndInsideHeaderLine(_ byte: UInt8) -> Bool {
  isTokenByte(byte) || byte == UInt8(ascii: ":") || isBlank(byte) || byte == 0x0D
}

/// Whether a byte can end a JSON-RPC message (an object or a batch), whitespace aside.
@inline(__always)
func endsMessage(_ byte: UInt8) -> Bool {
  byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
}

extension Substring {
  func trimmingBlanks() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
