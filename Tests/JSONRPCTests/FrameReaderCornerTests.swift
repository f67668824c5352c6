// Framing corners: a wrong Content-Length costs its own frame only; an over-long line is never stored past the limit.
import JSON
import JSONRPC
import SeededRandom
import XCTest

final class FrameReaderCornerTests: XCTestCase {
  /// Three requests, each followed by a line feed as in the defect report's repro.
  static let bodies = [
    #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"repro"}}}"#,
    #"{"jsonrpc":"2.0","id":2,"method":"list/create","params":{"list":"a"}}"#,
    #"{"jsonrpc":"2.0","id":3,"method":"list/all"}"#,
  ]

  /// How the second and third frames are headed.
  static let headings: [(name: String, header: @Sendable (String) -> String)] = [
    ("CRLF", { "Content-Length: \($0.utf8.count)\r\n\r\n" }),
    ("LF only", { "Content-Length: \($0.utf8.count)\n\n" }),
    (
      "Content-Type first",
      {
        "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: \($0.utf8.count)\r\n\r\n"
      }
    ),
    (
      "Content-Type after",
      {
        "Content-Length: \($0.utf8.count)\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
      }
    ),
  ]

  /// The first frame declaring `declared` bytes, then the other two headed by `header`, each body
  /// followed by `separator`.
  static func stream(declared: Int, separator: String, header: (String) -> String = headings[0].header)
    -> [UInt8]
  {
    Array(
      ("Content-Length: \(declared)\r\n\r\n" + bodies[0] + separator + header(bodies[1]) + bodies[1]
        + separator
        + header(bodies[2]) + bodies[2] + separator).utf8)
  }

  /// Named cases, checked whole, split at every position and byte by byte.
  func testWrongLengthsTable() {
    let first = Self.bodies[0]
    let length = first.utf8.count
    let second = "Content-Length: \(Self.bodies[1].utf8.count)\r\n\r\n"
    let cases: [(name: String, declared: Int, separator: String, expected: [String])] = [
      ("right length", length, "\n", [first, Self.bodies[1], Self.bodies[2]]),
      // The line feed after the body is whitespace: the body is still valid JSON, and served.
      (
        "overstated by 1 into the separator", length + 1, "\n",
        [first + "\n", Self.bodies[1], Self.bodies[2]]
      ),
      ("overstated by 1 into the header", length + 1, "", [first + "C", Self.bodies[1], Self.bodies[2]]),
      (
        "overstated by 2, header name cut", length + 2, "\n",
        [first + "\nC", Self.bodies[1], Self.bodies[2]]
      ),
      (
        "ending after the colon (the repro)", length + 1 + 15, "\n",
        [first + "\nContent-Length:", Self.bodies[1], Self.bodies[2]]
      ),
      (
        "ending inside the digits", length + 1 + 17, "\n",
        [first + "\nContent-Length: 6", Self.bodies[1], Self.bodies[2]]
      ),
      (
        "ending on the carriage return", length + 1 + 19, "\n",
        [first + "\nContent-Length: 69\r", Self.bodies[1], Self.bodies[2]]
      ),
      (
        "overstated by the header's line", length + 1 + 20, "\n",
        ["!bodyOverrunsNextFrame(declaredLength: \(length + 21))", Self.bodies[1], Self.bodies[2]]
      ),
      (
        "overstated by a whole header", length + second.utf8.count, "",
        [
          "!bodyOverrunsNextFrame(declaredLength: \(length + second.utf8.count))", Self.bodies[1],
          Self.bodies[2],
        ]
      ),
      (
        "ending in the next body", length + 1 + second.utf8.count + 10, "\n",
        [
          "!bodyOverrunsNextFrame(declaredLength: \(length + 1 + second.utf8.count + 10))", Self.bodies[1],
          Self.bodies[2],
        ]
      ),
      (
        "ending in the third frame's header", length + 1 + second.utf8.count + Self.bodies[1].utf8.count + 5,
        "\n",
        [
          "!bodyOverrunsNextFrame(declaredLength: \(length + 1 + second.utf8.count + Self.bodies[1].utf8.count + 5))",
          Self.bodies[1], Self.bodies[2],
        ]
      ),
      (
        "far beyond the stream", 100_000, "\n",
        ["!bodyOverrunsNextFrame(declaredLength: 100000)", Self.bodies[1], Self.bodies[2]]
      ),
      // Understated: the cut body gets its parse error, its leftover no second one.
      (
        "understated to end in a quote", length - 3, "\n",
        [String(first.dropLast(3)), Self.bodies[1], Self.bodies[2]]
      ),
      ("understated to nothing", 0, "\n", ["", Self.bodies[1], Self.bodies[2]]),
      (
        "understated by half", length / 2, "",
        [String(first.prefix(length / 2)), Self.bodies[1], Self.bodies[2]]
      ),
      (
        "understated to end in }", length - 1, "\n",
        [String(first.dropLast()), "!malformedHeader(\"}\")", Self.bodies[1], Self.bodies[2]]
      ),
    ]
    for (name, declared, separator, expected) in cases {
      let bytes = Self.stream(declared: declared, separator: separator)
      XCTAssertEqual(render(readFrames([bytes])), expected, name)
      for split in 0...bytes.count {
        let events = render(readFrames([Array(bytes[..<split]), Array(bytes[split...])]))
        if events != expected {
          XCTFail("\(name): split at \(split): \(events)")
          break
        }
      }
      XCTAssertEqual(render(readFrames(bytes.map { [$0] })), expected, "\(name) byte by byte")
    }
  }

  /// A header that is wrong in its own right after a bad body is still reported.
  func testABadHeaderAfterABadBodyIsReported() {
    let stream =
      frame(#"{"jsonrpc":"2.0","id":2,"method":"echo""#) + "Content-Length: abc\r\n\r\n{}" + frame("[1]")
    XCTAssertEqual(
      render(readFrames([Array(stream.utf8)])),
      [#"{"jsonrpc":"2.0","id":2,"method":"echo""#, "!invalidContentLength(\"abc\")", "[1]"])
  }

  /// Every overstatement, for every heading of the next frames and every separator, in random
  /// pieces: the next two frames are delivered, and the first costs exactly one error — a reader
  /// error, or a delivered body that is not a JSON-RPC message (answered with a parse error).
  func testEveryOverstatementCostsOneFrameAndOneError() {
    let seed = PropertySeeds.seed("LISTD_FRAME_OVERSTATEMENT_SEED", default: 0x0F12_0000)
    var rng = SplitMix64(seed: seed)
    let length = Self.bodies[0].utf8.count
    for (headingName, header) in Self.headings {
      for separator in ["", "\n", "\r\n"] {
        let rest = Self.stream(declared: length, separator: separator, header: header).count
        for declared in (length + 1)...(length + rest + 2) {
          let bytes = Self.stream(declared: declared, separator: separator, header: header)
          var chunks: [[UInt8]] = []
          var offset = 0
          while offset < bytes.count {
            let end = min(bytes.count, offset + rng.int(1..<40))
            chunks.append(Array(bytes[offset..<end]))
            offset = end
          }
          let events = readFrames(chunks)
          let context =
            "seed \(seed), \(headingName), separator \(Array(separator.utf8)), declared \(declared)"
          guard events.count == 3 else { return XCTFail("\(context): \(render(events))") }
          XCTAssertEqual(render(Array(events[1...])), [Self.bodies[1], Self.bodies[2]], context)
          switch events[0] {
          case .error(let error):
            XCTAssertEqual(error.kind, .bodyOverrunsNextFrame(declaredLength: declared), context)
          case .frame(let body):
            // Either the separator's whitespace was counted (still the same message), or it
            // cannot be parsed.
            if let value = try? JSONValue(parsing: body) {
              XCTAssertEqual(value, try JSONValue(parsing: Array(Self.bodies[0].utf8)), context)
            }
          }
        }
      }
    }
  }

  /// Every understatement: the next two frames are delivered, and the reader adds an error of its
  /// own only when the cut body ends in `}` or `]` (a body it cannot tell from a whole one).
  func testEveryUnderstatementCostsOnlyItsFrame() {
    let first = Array(Self.bodies[0].utf8)
    for separator in ["", "\n", "\r\n"] {
      for declared in 0..<first.count {
        let events = readFrames([Self.stream(declared: declared, separator: separator)])
        let context = "separator \(Array(separator.utf8)), declared \(declared): \(render(events))"
        let lastToken = first[..<declared].last { !isJSONWhitespace($0) }
        let reported = lastToken == UInt8(ascii: "}") || lastToken == UInt8(ascii: "]")
        let errors = events.filter { if case .error = $0 { true } else { false } }
        XCTAssertEqual(events.first, .frame(Array(first[..<declared])), context)
        XCTAssertEqual(errors.count, reported ? 1 : 0, context)
        XCTAssertEqual(render(Array(events.suffix(2))), [Self.bodies[1], Self.bodies[2]], context)
      }
    }
  }

  /// What the reader keeps of a body to look at again is bounded: endless blank lines after a
  /// body that does not end in `}` are not stored.
  func testBlankLinesAfterABodyAreNotStored() {
    var reader = FrameReader(framing: .contentLength)
    var events = reader.feed(Array("Content-Length: 2\r\n\r\nno".utf8))
    let blankLines = [UInt8](repeating: 0x0A, count: 4096)
    for _ in 0..<256 {
      events += reader.feed(blankLines)
      XCTAssertLessThanOrEqual(reader.bufferedByteCount, 128)
    }
    events += reader.feed(Array(frame("{}").utf8)) + reader.finish()
    XCTAssertEqual(render(events), ["no", "{}"])
  }

  // MARK: - Long lines

  /// A line far over the limit, fed in random pieces: between feeds the reader never holds more
  /// than the limit (+1 for a carriage return), one error gives the line's length after its
  /// line feed, and the next line is read.
  func testAnOverLongLineIsNotStored() {
    let limit = 1000
    let line =
      #"{"jsonrpc":"2.0","id":2,"method":"x","params":{"a":""# + String(repeating: "x", count: 100_000)
      + #""}}"#
    let stream = Array(("[1]\n" + line + "\r\n[2]\n").utf8)
    for seed in PropertySeeds.seeds("LISTD_FRAME_CORNER_SEED", default: 0x0F12_1000..<0x0F12_1014) {
      var rng = SplitMix64(seed: seed)
      var reader = FrameReader(framing: .newlineDelimited, maxFrameSize: limit)
      var events: [FrameEvent] = []
      var offset = 0
      var largest = 0
      while offset < stream.count {
        let end = min(stream.count, offset + rng.int(1..<(seed < 0x0F12_100A ? 3000 : 70_000)))
        events += reader.feed(stream[offset..<end])
        largest = max(largest, reader.bufferedByteCount)
        offset = end
      }
      events += reader.finish()
      XCTAssertLessThanOrEqual(largest, limit + 1, "seed \(seed)")
      XCTAssertEqual(
        render(events), ["[1]", "!lineTooLong(length: \(line.utf8.count), limit: 1000)", "[2]"],
        "seed \(seed)")
    }
  }

  /// The limit counts the line without its line end, wherever the reads split it.
  func testLinesAtTheLimit() {
    let limit = 16
    let exact = "[" + String(repeating: "1", count: 14) + "]"
    let over = "[" + String(repeating: "1", count: 15) + "]"
    let cases: [(name: String, input: String, expected: [String])] = [
      ("exactly the limit, LF", exact + "\n[2]\n", [exact, "[2]"]),
      ("exactly the limit, CRLF", exact + "\r\n[2]\n", [exact, "[2]"]),
      ("exactly the limit, no line end", "[2]\n" + exact, ["[2]", exact]),
      ("one over, LF", over + "\n[2]\n", ["!lineTooLong(length: 17, limit: 16)", "[2]"]),
      ("one over, CRLF", over + "\r\n[2]\n", ["!lineTooLong(length: 17, limit: 16)", "[2]"]),
      ("one over, CR CR LF", over + "\r\r\n[2]\n", ["!lineTooLong(length: 18, limit: 16)", "[2]"]),
      ("far over, no line end", "[2]\n" + over + over, ["[2]", "!lineTooLong(length: 34, limit: 16)"]),
      (
        "far over, CR at the end", "[2]\n" + over + over + "\r",
        ["[2]", "!lineTooLong(length: 34, limit: 16)"]
      ),
    ]
    for (name, input, expected) in cases {
      let bytes = Array(input.utf8)
      XCTAssertEqual(render(readFrames([bytes], maxFrameSize: limit)), expected, name)
      for split in 0...bytes.count {
        for split2 in split...bytes.count {
          let chunks = [Array(bytes[..<split]), Array(bytes[split..<split2]), Array(bytes[split2...])]
          let events = render(readFrames(chunks, maxFrameSize: limit))
          if events != expected { return XCTFail("\(name): split at \(split), \(split2): \(events)") }
        }
      }
    }
  }
}

private func isJSONWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}
