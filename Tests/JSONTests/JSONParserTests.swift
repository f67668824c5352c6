// Table tests of the strict JSON parser: what it accepts, what it builds, what it rejects and where.
import JSON
import RandomJSON
import SeededRandom
import XCTest

final class JSONParserTests: XCTestCase {
  func testAcceptsValidTexts() throws {
    let cases: [(String, JSONValue)] = [
      ("null", .null), ("true", true), ("false", false), (" \t\r\n0 \n", 0),
      ("-0", .int(0)), ("-0.0", .double(-0.0)), ("12", 12), ("-7", -7), ("1.5", 1.5), ("1E3", .double(1000)),
      ("1e-7", .double(1e-7)), ("-0.25e+2", .double(-25)), ("0.1", .double(0.1)),
      ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
      ("9223372036854775808", .double(9_223_372_036_854_775_808)),
      ("-9223372036854775809", .double(-9_223_372_036_854_775_808.0)),
      ("123456789012345678901234567890", .double(1.2345678901234568e29)),
      ("2.2250738585072011e-308", .double(Double(bitPattern: 0x000F_FFFF_FFFF_FFFF))),
      ("4.9406564584124654e-324", .double(.leastNonzeroMagnitude)), ("1e-400", .double(0)),
      ("0.30000000000000004", .double(0.30000000000000004)),
      ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
      ("\"\"", ""), ("\"abc\"", "abc"), ("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\u{8}\u{C}\n\r\t"),
      ("\"\\u0041\\u00e9\\u20AC\"", "Aé€"), ("\"\\uD83D\\uDE00\"", "😀"), ("\"\\u0000\"", "\u{0}"),
      ("\"é中😀\"", "é中😀"), ("\"\u{7F}\"", "\u{7F}"),
      ("[]", []), ("[ ]", []), ("[1,[2,[3]]]", [1, [2, [3]]]), ("{}", [:]),
      ("{\"b\":1,\"a\":2}", .object(JSONObject([("b", 1), ("a", 2)]))),
      ("{\"a\":1,\"a\":2}", .object(JSONObject([("a", 1), ("a", 2)]))),
      (" { \"k\" : [ true , null ] } ", ["k": [true, nil]]),
    ]
    for (text, expected) in cases {
      XCTAssertEqual(try JSONValue(parsing: text), expected, text)
      XCTAssertEqual(try JSONValue(parsing: Array(text.utf8)), expected, text)
    }
  }

  func testRejectsInvalidTextsWithOffset() {
    let cases: [(String, JSONParseError.Kind, Int)] = [
      ("", .unexpectedEnd, 0), ("   ", .unexpectedEnd, 3), ("[1,]", .trailingComma, 3),
      ("{\"a\":1,}", .trailingComma, 7), ("[1 2]", .unexpectedByte(0x32, expected: "',' or ']'"), 3),
      ("{\"a\" 1}", .unexpectedByte(0x31, expected: "':'"), 5),
      ("{a:1}", .unexpectedByte(UInt8(ascii: "a"), expected: "a string key"), 1),
      ("// c\n1", .unexpectedByte(UInt8(ascii: "/"), expected: "a JSON value"), 0),
      ("[1 /* c */]", .unexpectedByte(UInt8(ascii: "/"), expected: "',' or ']'"), 3),
      ("NaN", .unexpectedByte(UInt8(ascii: "N"), expected: "a JSON value"), 0),
      ("Infinity", .unexpectedByte(UInt8(ascii: "I"), expected: "a JSON value"), 0),
      ("-Infinity", .invalidNumber(reason: "expected a digit after '-'"), 1),
      ("01", .leadingZero, 0), ("-012", .leadingZero, 0), ("00.5", .leadingZero, 0),
      ("1.", .unexpectedEnd, 2), ("1.e5", .invalidNumber(reason: "expected a digit after '.'"), 2),
      (".5", .unexpectedByte(UInt8(ascii: "."), expected: "a JSON value"), 0),
      ("1e", .unexpectedEnd, 2), ("1e+", .unexpectedEnd, 3),
      ("+1", .unexpectedByte(UInt8(ascii: "+"), expected: "a JSON value"), 0),
      ("1e400", .numberOutOfRange("1e400"), 0), ("-1e99999", .numberOutOfRange("-1e99999"), 0),
      ("\"a\nb\"", .controlCharacterInString(0x0A), 2), ("\"\t\"", .controlCharacterInString(0x09), 1),
      ("\"\\x\"", .invalidEscape(UInt8(ascii: "x")), 1), ("\"\\u12\"", .invalidUnicodeEscape, 5),
      ("\"\\uD800\"", .unpairedSurrogate(0xD800), 1), ("\"\\uDC00\"", .unpairedSurrogate(0xDC00), 1),
      ("\"\\uD800\\u0041\"", .unpairedSurrogate(0xD800), 1), ("\"x\\uDBFFx\"", .unpairedSurrogate(0xDBFF), 2),
      ("\"abc", .unexpectedEnd, 4), ("[1", .unexpectedEnd, 2), ("{\"a\":", .unexpectedEnd, 5),
      ("tru", .unexpectedEnd, 3), ("trUe", .unexpectedByte(UInt8(ascii: "U"), expected: "'true'"), 2),
      ("nul", .unexpectedEnd, 3), ("1 2", .trailingData, 2), ("{} x", .trailingData, 3),
      ("\u{FEFF}1", .unexpectedByte(0xEF, expected: "a JSON value"), 0),
    ]
    for (text, kind, offset) in cases {
      XCTAssertThrowsError(try JSONValue(parsing: text), text) { error in
        XCTAssertEqual(error as? JSONParseError, JSONParseError(kind, offset: offset), text)
      }
    }
  }

  func testRejectsInvalidUTF8() {
    let cases: [[UInt8]] = [
      [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xE0, 0x80, 0x80], [0xE0, 0xA0], [0xED, 0xA0, 0x80],
      [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xC3, 0x28],
      [0xE2, 0x82, 0x28],
    ]
    for bad in cases {
      let text = [UInt8(ascii: "\""), UInt8(ascii: "a")] + bad + [UInt8(ascii: "\"")]
      XCTAssertThrowsError(try JSONValue(parsing: text), "\(bad)") { error in
        XCTAssertEqual(error as? JSONParseError, JSONParseError(.invalidUTF8, offset: 2), "\(bad)")
      }
      // Outside strings, a non-ASCII byte is simply unexpected.
      XCTAssertThrowsError(try JSONValue(parsing: [UInt8(ascii: "[")] + bad + [UInt8(ascii: "]")]))
    }
    // Valid sequences at the boundaries of each range are accepted.
    let valid: [[UInt8]] = [
      [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
      [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
    ]
    for good in valid {
      let text = [UInt8(ascii: "\"")] + good + [UInt8(ascii: "\"")]
      XCTAssertEqual(try JSONValue(parsing: text), .string(String(decoding: good, as: UTF8.self)))
    }
  }

  func testEscapedStringWithInvalidUTF8AfterEscape() {
    let text: [UInt8] = Array("\"\\n".utf8) + [0xED, 0xBF, 0xBF] + [UInt8(ascii: "\"")]
    XCTAssertThrowsError(try JSONValue(parsing: text)) { error in
      XCTAssertEqual(error as? JSONParseError, JSONParseError(.invalidUTF8, offset: 3))
    }
  }

  func testNestingLimit() throws {
    func nested(_ depth: Int) -> String {
      String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }
    XCTAssertNoThrow(try JSONValue(parsing: nested(512)))
    XCTAssertThrowsError(try JSONValue(parsing: nested(513))) { error in
      XCTAssertEqual(error as? JSONParseError, JSONParseError(.nestingTooDeep(limit: 512), offset: 512))
    }
    // Far deeper than any stack could take: an error, not a crash.
    XCTAssertThrowsError(try JSONValue(parsing: String(repeating: "{\"a\":", count: 200_000)))
    XCTAssertThrowsError(try JSONValue(parsing: nested(8), maxDepth: 7))
    XCTAssertNoThrow(try JSONValue(parsing: nested(8), maxDepth: 8))
  }

  func testErrorDescriptionNamesLineColumnAndOffset() {
    XCTAssertThrowsError(try JSONValue(parsing: "[1,]")) { error in
      XCTAssertEqual("\(error)", "trailing comma at line 1, column 4 (byte offset 3)")
    }
    XCTAssertThrowsError(try JSONValue(parsing: "{\"a\" 1}")) { error in
      XCTAssertEqual("\(error)", "unexpected '1', expected ':' at line 1, column 6 (byte offset 5)")
    }
    // Lines from 1 after each newline; columns in characters, not bytes (é is two bytes).
    XCTAssertThrowsError(try JSONValue(parsing: "{\n  \"a\": [1,\n  \"é\",]}")) { error in
      XCTAssertEqual("\(error)", "trailing comma at line 3, column 7 (byte offset 20)")
    }
  }

  func testObjectsSharingMemberNamesKeepTheirExactBytes() throws {
    // Canonically equivalent but different names must not be merged by the names cache.
    let text =
      "[{\"\u{E9}\":1,\"b\":2},{\"e\u{301}\":1,\"b\":2},{\"\u{E9}\":1,\"b\":2},{\"b\":1,\"\u{E9}\":2}]"
    let parsed = try JSONValue(parsing: text)
    let names = parsed.arrayValue!.map { Array($0.objectValue!.keys.map { Array($0.utf8) }) }
    XCTAssertEqual(names[0], [[0xC3, 0xA9], [0x62]])
    XCTAssertEqual(names[1], [[0x65, 0xCC, 0x81], [0x62]])
    XCTAssertEqual(names[2], names[0])
    XCTAssertEqual(names[3], [[0x62], [0xC3, 0xA9]])
    XCTAssertEqual(parsed.jsonBytes(), Array(text.utf8))  // bytes: String == is canonical equivalence
    // Same length, same first byte, canonically equivalent: only the bytes tell them apart.
    let reordered = "[{\"a\u{301}\u{316}\":1},{\"a\u{316}\u{301}\":1}]"
    XCTAssertEqual(Array(try JSONValue(parsing: reordered).jsonBytes()), Array(reordered.utf8))
  }

  func testReusedStorageGivesTheSameResultsAfterErrors() throws {
    var reused = JSONParser()
    var copy = reused  // copies get their own storage on first use
    var rng = SplitMix64(seed: PropertySeeds.seed("LISTD_JSON_REUSE_SEED", default: 0x5EED_0004))
    for iteration in 0..<2000 {
      var text = Array(RandomJSON.text(&rng).utf8)
      if iteration % 3 == 0 && !text.isEmpty { text.removeLast(rng.int(1..<(text.count + 1))) }  // often invalid
      let fresh = Result { () throws(JSONParseError) in try JSONParser().parse(text) }
      let again = text.withUnsafeBytes { bytes in
        Result { () throws(JSONParseError) in try reused.parseReusingStorage(bytes) }
      }
      XCTAssertEqual(fresh, again, "iteration \(iteration): \(String(decoding: text, as: UTF8.self))")
      if iteration % 100 == 0 {
        _ = text.withUnsafeBytes { bytes in try? copy.parseReusingStorage(bytes) }
      }
    }
  }

  func testNonContiguousInput() throws {
    let bytes = Array("{\"a\":[1,2.5,\"x\"]}".utf8)
    XCTAssertEqual(try JSONValue(parsing: bytes.lazy.map { $0 }), ["a": [1, 2.5, "x"]])
  }
}
