// The two framings of the wire (LSP Content-Length headers, newline-delimited JSON) and their events.

/// How messages are delimited on a byte stream.
public enum Framing: String, Sendable, Hashable, CaseIterable {
  /// The LSP base protocol: `Content-Length: N` headers, an empty line, then N bytes of body.
  case contentLength
  /// Newline-delimited JSON: one message per line, for hand-written scripts.
  case newlineDelimited
}

/// What a ``FrameReader`` found in the stream: a frame body, or a problem it resynchronised after.
public enum FrameEvent: Hashable, Sendable {
  /// The bytes of one frame body (for Content-Length framing exactly N bytes; for newline-delimited
  /// JSON one line without its line end).
  case frame([UInt8])
  /// A framing problem. The reader has already skipped the bad bytes and resynchronised.
  case error(FrameError)
}

/// A ``FrameEvent`` whose body is borrowed from the reader's buffer, valid only during the
/// callback it is passed to (see ``FrameReader/feedBorrowed(_:_:)``).
public enum BorrowedFrameEvent {
  case frame(UnsafeRawBufferPointer)
  case error(FrameError)
}

extension FrameEvent {
  /// Copies a borrowed event.
  public init(_ borrowed: BorrowedFrameEvent) {
    switch borrowed {
    case .frame(let body): self = .frame(Array(body))
    case .error(let error): self = .error(error)
    }
  }
}

/// A framing problem, with the stream offset of the frame it concerns.
public struct FrameError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Kind: Hashable, Sendable {
    /// `Content-Length` whose value is not a non-negative decimal integer (the value as sent).
    case invalidContentLength(String)
    /// A header block without `Content-Length`.
    case missingContentLength
    /// `Content-Length` given twice with different values.
    case conflictingContentLength(String, String)
    /// A header line that is not `name: value` with a valid header name (the line as sent, shortened).
    case malformedHeader(String)
    /// A header block longer than the limit without its terminating empty line.
    case headerTooLarge(limit: Int)
    /// A `Content-Type` whose charset is not UTF-8; the body was skipped.
    case unsupportedCharset(String)
    /// A Content-Length frame declaring a body longer than the limit (the declared length); it
    /// was skipped without being stored.
    case frameTooLarge(length: Int, limit: Int)
    /// A newline-delimited line longer than the limit (its length without the line end); it was
    /// stored only up to the limit, the rest dropped as it arrived.
    case lineTooLong(length: Int, limit: Int)
    /// The body declared by `Content-Length` contained the header of the next frame, so the
    /// declared length was wrong (no JSON text can contain a header line); the reader resumed at
    /// that header.
    case bodyOverrunsNextFrame(declaredLength: Int)
    /// The stream ended in the middle of a frame.
    case truncatedFrame(expected: Int?, received: Int)
  }

  /// What went wrong.
  public var kind: Kind
  /// Offset in the stream (bytes since the reader started) where the offending frame began.
  public var offset: Int

  public init(_ kind: Kind, offset: Int) {
    self.kind = kind
    self.offset = offset
  }

  /// One line naming the problem and the value at fault.
  public var description: String {
    let what: String
    switch kind {
    case .invalidContentLength(let value):
      what = "invalid Content-Length \"\(value)\": must be a non-negative decimal integer"
    case .missingContentLength: what = "header block without Content-Length"
    case .conflictingContentLength(let first, let second):
      what = "conflicting Content-Length headers \"\(first)\" and \"\(second)\""
    case .malformedHeader(let line): what = "malformed header line \"\(line)\""
    case .headerTooLarge(let limit): what = "header block longer than \(limit) bytes"
    case .unsupportedCharset(let charset):
      what = "unsupported charset \"\(charset)\" in Content-Type: only utf-8 is accepted"
    case .frameTooLarge(let length, let limit):
      what = "frame of \(length) bytes exceeds the limit of \(limit) bytes"
    case .lineTooLong(let length, let limit):
      what = "line of \(length) bytes exceeds the limit of \(limit) bytes"
    case .bodyOverrunsNextFrame(let length):
      what = "Content-Length \(length) runs into the next frame's header"
    case .truncatedFrame(let expected, let received):
      if let expected {
        what = "stream ended after \(received) of \(expected) body bytes"
      } else {
        what = "stream ended in the middle of a frame header"
      }
    }
    return "\(what) (frame at byte offset \(offset))"
  }
}
