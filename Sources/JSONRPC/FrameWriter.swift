// The frame writer: wraps message bodies in the connection's framing, ready to write whole.

/// Produces frames in one framing: `Content-Length: N\r\n\r\n` + body, or body + `\n`.
public struct FrameWriter: Sendable, Hashable {
  /// The framing frames are written in.
  public var framing: Framing

  public init(framing: Framing = .contentLength) {
    self.framing = framing
  }

  /// Appends one frame carrying `body` to `output`. O(body.count).
  ///
  /// For newline-delimited JSON a body must be one line: raw CR and LF bytes, which can only be
  /// whitespace in a valid JSON text, are written as spaces (compact ``JSONWriter`` output never
  /// contains them).
  public func append<Body: Collection>(body: Body, to output: inout [UInt8]) where Body.Element == UInt8 {
    switch framing {
    case .contentLength:
      output.append(contentsOf: contentLengthPrefix)
      var writer = JSONWriter()
      writer.writeInt(Int64(body.count))
      output.append(contentsOf: writer.bytes)
      output.append(contentsOf: headerEnd)
      output.append(contentsOf: body)
    case .newlineDelimited:
      let start = output.count
      output.append(contentsOf: body)
      for index in start..<output.count where output[index] == 0x0A || output[index] == 0x0D {
        output[index] = 0x20
      }
      output.append(0x0A)
    }
  }

  /// One frame carrying `body`. O(body.count).
  public func frame<Body: Collection>(_ body: Body) -> [UInt8] where Body.Element == UInt8 {
    var output: [UInt8] = []
    output.reserveCapacity(body.count + 32)
    append(body: body, to: &output)
    return output
  }

  /// One frame carrying the compact JSON text of `value`. O(size of the text).
  public func frame(_ value: JSONValue) -> [UInt8] {
    frame(value.jsonBytes())
  }
}

private let contentLengthPrefix = Array("Content-Length: ".utf8)
private let headerEnd = Array("\r\n\r\n".utf8)
