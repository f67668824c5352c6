// The pull reader over validated bytes: member names matched by bytes, values equal to the parser's, ranges.
import JSON
import XCTest

final class JSONReaderTests: XCTestCase {
  private let names = JSONNames([
    "id", "text", "trailingSwipeActions", "aVeryLongMemberNameOfMoreThan24Bytes",
  ])

  private func keys(_ json: String) throws -> [Int] {
    let text = try JSONText(validating: Array(json.utf8))
    return try text.withReader { (reader: inout JSONReader) throws(JSONParseError) -> [Int] in
      try reader.beginObject()
      var found: [Int] = []
      while let index = try reader.nextKey(in: names) {
        found.append(index)
        try reader.skipValue()
      }
      return found
    }
  }

  func testMemberNamesMatchByTheirBytesEscapedOrNot() throws {
    XCTAssertEqual(try keys(#"{"id":1,"text":"t","trailingSwipeActions":[],"other":{}}"#), [0, 1, 2, -1])
    // Escaped spellings decode first; prefixes, extensions and case differences do not match.
    XCTAssertEqual(try keys(#"{"\u0069d":1,"te\u0078t":2,"i":3,"idd":4,"ID":5}"#), [0, 1, -1, -1, -1])
    XCTAssertEqual(
      try keys(#"{"aVeryLongMemberNameOfMoreThan24Bytes":1,"aVeryLongMemberNameOfMoreThan24Byte":2}"#),
      [3, -1])
    XCTAssertEqual(try keys("{ }"), [])
  }

  func testValuesReadEqualTheParsersAndSkipsGiveTheirRanges() throws {
    let json = #" [ {"a": [1, 2.5e3, -0, "x\n\u00e9"]} , "s" , true, null, 12345678901234567890 ] "#
    let text = try JSONText(validating: Array(json.utf8))
    let parsed = try JSONValue(parsing: json)
    let values = try text.withReader { (reader: inout JSONReader) throws(JSONParseError) -> [JSONValue] in
      try reader.beginArray()
      var values: [JSONValue] = []
      while try reader.nextElement() { values.append(try reader.readValue()) }
      return values
    }
    XCTAssertEqual(JSONValue.array(values), parsed)
    let skipped = try text.withReader { (reader: inout JSONReader) throws(JSONParseError) -> [String] in
      try reader.beginArray()
      var slices: [String] = []
      while try reader.nextElement() {
        let range = try reader.skipValue()
        slices.append(String(decoding: text.slice(range).buffer[text.slice(range).range], as: UTF8.self))
      }
      return slices
    }
    XCTAssertEqual(
      skipped, [#"{"a": [1, 2.5e3, -0, "x\n\u00e9"]}"#, #""s""#, "true", "null", "12345678901234567890"])
    XCTAssertEqual(text.slice(0..<1).firstByte, UInt8(ascii: "["))
  }

  /// Strings are scanned eight bytes at a time: a special byte at any offset is still found,
  /// by the parser and by the validator alike, at its own offset.
  func testStringScanFindsEverySpecialByteAtAnyOffset() throws {
    for position in 0..<24 {
      for (byte, kind) in [
        (UInt8(0x1F), JSONParseError.Kind.controlCharacterInString(0x1F)), (0x80, .invalidUTF8),
        (0xFF, .invalidUTF8),
      ] {
        var text = Array(#""abcdefghijklmnopqrstuvwxyz0123456789""#.utf8)
        text[1 + position] = byte
        let expected = JSONParseError(kind, offset: 1 + position)
        XCTAssertThrowsError(try JSONParser().parse(text)) { XCTAssertEqual($0 as? JSONParseError, expected) }
        XCTAssertThrowsError(try text.withUnsafeBytes { try JSONParser().validate($0) }) {
          XCTAssertEqual($0 as? JSONParseError, expected)
        }
      }
      var quoted = Array(#""abcdefghijklmnopqrstuvwxyz0123456789""#.utf8)
      quoted[1 + position] = UInt8(ascii: "\\")
      quoted[2 + position] = UInt8(ascii: "n")
      var expected = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
      expected[position] = 0x0A
      expected.remove(at: position + 1)
      XCTAssertEqual(try JSONParser().parse(quoted), .string(String(decoding: expected, as: UTF8.self)))
      XCTAssertNoThrow(try quoted.withUnsafeBytes { try JSONParser().validate($0) })
    }
  }
}
