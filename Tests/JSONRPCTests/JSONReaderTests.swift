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
}
