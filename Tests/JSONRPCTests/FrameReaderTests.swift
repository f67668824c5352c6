// Table tests of the frame reader: every framing case, byte-by-byte splits, resynchronisation.
import JSONRPC
import XCTest

/// Feeds `chunks` then finishes; returns every event.
func readFrames(
  _ chunks: [[UInt8]], framing: Framing? = nil, maxFrameSize: Int = FrameReader.defaultMaxFrameSize
) -> [FrameEvent] {
  var reader = FrameReader(framing: framing, maxFrameSize: maxFrameSize)
  var events: [FrameEvent] = []
  for chunk in chunks { events += reader.feed(chunk) }
  return events + reader.finish()
}

/// A compact rendering of events for table comparisons: the body as text, or the error kind.
func render(_ events: [FrameEvent]) -> [String] {
  events.map { event in
    switch event {
    case .frame(let body): return String(decoding: body, as: UTF8.self)
    case .error(let error): return "!\(error.kind)"
    }
  }
}

func frame(_ body: String) -> String { "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" }

final class FrameReaderTests: XCTestCase {
  let body = #"{"jsonrpc":"2.0","id":1,"method":"x"}"#

  func testTable() {
    let utf8Body = #"{"text":"héllo wörld 😀 中文"}"#
    let cases: [(name: String, input: String, expected: [String])] = [
      ("one frame", frame(body), [body]),
      ("LF-only line ends", "Content-Length: \(body.utf8.count)\n\n\(body)", [body]),
      ("header name case", "content-LENGTH: 2\r\n\r\n{}", ["{}"]),
      ("extra spaces", "Content-Length:   2  \r\n\r\n{}", ["{}"]),
      (
        "Content-Type utf-8",
        "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}", ["{}"]
      ),
      (
        "Content-Type utf8 after",
        "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=UTF8\r\n\r\n{}", ["{}"]
      ),
      (
        "Content-Type without charset", "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
        ["{}"]
      ),
      (
        "Content-Type latin1",
        "Content-Type: text/plain; charset=latin1\r\nContent-Length: 2\r\n\r\n{}" + frame("[]"),
        ["!unsupportedCharset(\"latin1\")", "[]"]
      ),
      ("unknown header ignored", "X-Trace: abc\r\nContent-Length: 2\r\n\r\n{}", ["{}"]),
      ("duplicate same value", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", ["{}"]),
      (
        "duplicate different values", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}" + frame("[1]"),
        ["!conflictingContentLength(\"2\", \"3\")", "[1]"]
      ),
      (
        "non-numeric length", "Content-Length: a\r\n\r\n{}" + frame("[1]"),
        ["!invalidContentLength(\"a\")", "[1]"]
      ),
      (
        "negative length", "Content-Length: -5\r\n\r\n{}" + frame("[1]"),
        ["!invalidContentLength(\"-5\")", "[1]"]
      ),
      ("empty length", "Content-Length: \r\n\r\n{}" + frame("[1]"), ["!invalidContentLength(\"\")", "[1]"]),
      (
        "missing length", "Content-Type: application/json\r\n\r\n{}" + frame("[1]"),
        ["!missingContentLength", "[1]"]
      ),
      ("header without colon", "Hello\r\n\r\n" + frame("[1]"), ["!malformedHeader(\"Hello\")", "[1]"]),
      ("zero-length body", frame("") + frame("{}"), ["", "{}"]),
      ("two frames", frame("{}") + frame("[]"), ["{}", "[]"]),
      ("multi-byte UTF-8 body", frame(utf8Body), [utf8Body]),
      (
        "length larger than the rest", "Content-Length: 100\r\n\r\n{}",
        ["!truncatedFrame(expected: Optional(100), received: 2)"]
      ),
      ("EOF in headers", "Content-Length: 10\r\n", ["!truncatedFrame(expected: nil, received: 0)"]),
      ("EOF after header name", "Content-Len", ["!truncatedFrame(expected: nil, received: 0)"]),
      (
        "garbage between frames", frame("{}") + "garbage\r\n" + frame("[]"),
        ["{}", "!malformedHeader(\"garbage\")", "[]"]
      ),
      (
        "garbage glued to next header", frame("{}") + "xyz" + frame("[]"),
        ["{}", "!missingContentLength", "[]"]
      ),
      ("blank lines between frames", frame("{}") + "\r\n\r\n" + frame("[]"), ["{}", "[]"]),
      ("body that is JSON but not JSON-RPC", frame("[1,2,3]"), ["[1,2,3]"]),
      ("body that is not JSON", frame("hello"), ["hello"]),
      (
        // The cut body gets its own parse error; its leftover is not reported again.
        "length too small", "Content-Length: 1\r\n\r\n{}" + frame("[]"), ["{", "[]"]
      ),
      (
        "overstated length overruns next header",
        "Content-Length: 30\r\n\r\n{}" + frame("[1]") + frame("[2]"),
        ["!bodyOverrunsNextFrame(declaredLength: 30)", "[1]", "[2]"]
      ),
      (
        "frame too large", "Content-Length: 50\r\n\r\n" + String(repeating: "x", count: 50) + frame("[1]"),
        ["!frameTooLarge(length: 50, limit: 16)", "[1]"]
      ),
      (
        "too large, length overstated", "Content-Length: 99999999999999999999999\r\n\r\n{}" + frame("[1]"),
        ["!frameTooLarge(length: 9223372036854775807, limit: 16)", "[1]"]
      ),
      ("leading whitespace before header", "\r\n  \n" + frame("{}"), ["{}"]),
      ("NDJSON one line", "{\"a\":1}\n", ["{\"a\":1}"]),
      ("NDJSON CRLF and blank lines", "  \n{\"a\":1}\r\n\r\n  \n[2]\n", ["{\"a\":1}", "[2]"]),
      ("NDJSON last line without LF", "[1]\n[2]", ["[1]", "[2]"]),
      ("NDJSON garbage line delivered", "[1]\nnot json\n[2]\n", ["[1]", "not json", "[2]"]),
      (
        "NDJSON line too long", "[1]\n[" + String(repeating: "1,", count: 20) + "1]\n[2]\n",
        ["[1]", "!lineTooLong(length: 43, limit: 16)", "[2]"]
      ),
      ("NDJSON multi-byte", "[\"é😀\"]\n", ["[\"é😀\"]"]),
      ("empty stream", "", []),
      ("whitespace only", " \r\n\t", []),
    ]
    for (name, input, expected) in cases {
      let limit =
        name.contains("too large") || name.contains("too long") ? 16 : FrameReader.defaultMaxFrameSize
      let bytes = Array(input.utf8)
      // Whole, then split at every byte position, then byte by byte: the same events.
      XCTAssertEqual(render(readFrames([bytes], maxFrameSize: limit)), expected, name)
      for split in 0...bytes.count {
        let events = render(
          readFrames([Array(bytes[..<split]), Array(bytes[split...])], maxFrameSize: limit))
        if events != expected {
          XCTFail("\(name): split at \(split): \(events)")
          break
        }
      }
      XCTAssertEqual(
        render(readFrames(bytes.map { [$0] }, maxFrameSize: limit)), expected, "\(name) byte by byte")
    }
  }

  func testDetectsFraming() {
    var reader = FrameReader()
    XCTAssertNil(reader.framing)
    _ = reader.feed(Array(" \n".utf8))
    XCTAssertNil(reader.framing)
    _ = reader.feed(Array("{".utf8))
    XCTAssertEqual(reader.framing, .newlineDelimited)
    var other = FrameReader()
    _ = other.feed(Array("C".utf8))
    XCTAssertEqual(other.framing, .contentLength)
    var fixed = FrameReader(framing: .contentLength)
    XCTAssertEqual(render(fixed.feed(Array("{}\n".utf8)) + fixed.finish()).count, 1)  // garbage, not NDJSON
  }

  func testHeaderSplitAtEveryPositionWithManyFrames() {
    let stream = Array((frame(body) + frame("[\"é\"]") + frame("")).utf8)
    for split in 0...stream.count {
      for split2 in split...min(stream.count, split + 7) {
        let events = readFrames([
          Array(stream[..<split]), Array(stream[split..<split2]), Array(stream[split2...]),
        ])
        XCTAssertEqual(render(events), [body, "[\"é\"]", ""], "split \(split)/\(split2)")
      }
    }
  }

  func testByteLengthNotCharacterCount() {
    let text = #"{"t":"ñ😀"}"#
    XCTAssertNotEqual(text.count, text.utf8.count)
    let events = readFrames([Array("Content-Length: \(text.count)\r\n\r\n\(text)".utf8)])
    XCTAssertNotEqual(render(events), [text], "a character count must not be taken for the byte count")
    XCTAssertEqual(render(readFrames([Array(frame(text).utf8)])), [text])
  }

  func testOversizedFrameIsNotStored() {
    var reader = FrameReader(maxFrameSize: 1024)
    var events = reader.feed(Array("Content-Length: 100000000\r\n\r\n".utf8))
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16)
    for _ in 0..<20 { events += reader.feed(chunk) }
    XCTAssertEqual(render(events), ["!frameTooLarge(length: 100000000, limit: 1024)"])
    XCTAssertLessThan(reader.streamOffset - 0, Int.max)
    // The refused body was dropped as it arrived; a frame after it is found.
    events = reader.feed(Array(("\n" + frame("{}")).utf8))
    XCTAssertEqual(render(events), ["{}"])
  }

  func testErrorOffsets() {
    let events = readFrames([Array((frame("{}") + "Content-Length: x\r\n\r\n").utf8)])
    guard case .error(let error) = events.last else { return XCTFail("\(events)") }
    XCTAssertEqual(error.offset, frame("{}").utf8.count)
    XCTAssertEqual(
      error.description,
      "invalid Content-Length \"x\": must be a non-negative decimal integer (frame at byte offset 23)")
  }

  func testWriterOutputReadsBack() {
    for framing in Framing.allCases {
      let writer = FrameWriter(framing: framing)
      let bodies = [#"{"a":"é"}"#, "[]", #"{"pretty":\#n 1}"#]
      var stream: [UInt8] = []
      for body in bodies { writer.append(body: Array(body.utf8), to: &stream) }
      let expected = framing == .contentLength ? bodies : [#"{"a":"é"}"#, "[]", #"{"pretty":  1}"#]
      XCTAssertEqual(render(readFrames([stream])), expected, "\(framing)")
    }
    XCTAssertEqual(
      String(decoding: FrameWriter().frame(["a": 1]), as: UTF8.self), "Content-Length: 7\r\n\r\n{\"a\":1}")
    XCTAssertEqual(
      String(decoding: FrameWriter(framing: .newlineDelimited).frame(["a": 1]), as: UTF8.self), "{\"a\":1}\n")
  }
}
