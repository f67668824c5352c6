// Writer tests: exact output for each kind of value, escaping, and the round-trip properties.
import Foundation
import JSON
import RandomJSON
import SeededRandom
import XCTest

final class JSONWriterTests: XCTestCase {
  func testWritesExactText() {
    let cases: [(JSONValue, String)] = [
      (.null, "null"), (true, "true"), (false, "false"), (0, "0"), (7, "7"), (-12, "-12"),
      (.int(.max), "9223372036854775807"), (.int(.min), "-9223372036854775808"),
      (1.0, "1.0"), (0.1, "0.1"), (-0.0, "-0.0"), (1e-5, "1e-05"), (1e22, "1e+22"), (.double(.nan), "null"),
      (.double(.infinity), "null"), ("", "\"\""), ("a\"b\\c/", "\"a\\\"b\\\\c/\""),
      ("\n\r\t\u{8}\u{C}\u{0}\u{1F}\u{7F}", "\"\\n\\r\\t\\b\\f\\u0000\\u001F\u{7F}\""), ("é😀", "\"é😀\""),
      ([], "[]"), ([1, "x", nil], "[1,\"x\",null]"), ([:], "{}"),
      (
        .object(JSONObject([("z", JSONValue.int(1)), ("a", JSONValue.array([true]))])),
        "{\"z\":1,\"a\":[true]}"
      ),
    ]
    for (value, text) in cases {
      XCTAssertEqual(value.jsonString(), text)
    }
  }

  func testPrettyPrinted() {
    let value: JSONValue = ["a": [1, 2], "b": [:], "c": []]
    XCTAssertEqual(
      value.jsonString(prettyPrinted: true),
      "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": []\n}")
    XCTAssertEqual(try JSONValue(parsing: value.jsonString(prettyPrinted: true)), value)
  }

  func testBridgedStringIsEscaped() {
    // A String that is not natively UTF-8 still goes through the escaping path.
    let bridged = String(decoding: Array("tab\there".utf16), as: UTF16.self)
    XCTAssertEqual(JSONValue.string(bridged).jsonString(), "\"tab\\there\"")
  }

  /// parse(write(v)) == v for random values. Prints the seed on failure.
  func testRoundTripOfRandomValues() throws {
    let seed = PropertySeeds.seed("LISTD_JSON_ROUNDTRIP_SEED", default: 0x5EED_0001)
    var rng = SplitMix64(seed: seed)
    for iteration in 0..<3000 {
      let value = RandomJSON.value(&rng)
      let bytes = value.jsonBytes()
      XCTAssertNotNil(String(validating: bytes, as: UTF8.self), "writer emitted invalid UTF-8 (seed \(seed))")
      let parsed = try JSONValue(parsing: bytes)
      // Compare the bytes too: String's == is canonical equivalence, the wire is exact.
      if parsed != value || parsed.jsonBytes() != bytes {
        XCTFail(
          "round trip failed at iteration \(iteration), seed \(seed): \(value) -> \(String(decoding: bytes, as: UTF8.self))"
        )
        return
      }
      XCTAssertEqual(try JSONValue(parsing: value.jsonBytes(prettyPrinted: true)), value, "seed \(seed)")
    }
  }

  /// write(parse(s)) is stable: writing what was parsed, then parsing and writing again, gives the same text.
  func testWriteOfParseIsStable() throws {
    let seed = PropertySeeds.seed("LISTD_JSON_STABLE_SEED", default: 0x5EED_0002)
    var rng = SplitMix64(seed: seed)
    for iteration in 0..<3000 {
      let text = RandomJSON.text(&rng)
      let first: [UInt8]
      do {
        first = try JSONValue(parsing: text).jsonBytes()
      } catch {
        XCTFail("valid text rejected at iteration \(iteration), seed \(seed): \(text): \(error)")
        return
      }
      let second = try JSONValue(parsing: first).jsonBytes()
      if first != second {
        XCTFail("unstable at iteration \(iteration), seed \(seed): \(text)")
        return
      }
    }
  }

  /// Agrees with Foundation on the values of random texts (an independent reference parser).
  func testAgreesWithFoundationOnRandomTexts() throws {
    let seed = PropertySeeds.seed("LISTD_JSON_FOUNDATION_SEED", default: 0x5EED_0003)
    var rng = SplitMix64(seed: seed)
    for _ in 0..<500 {
      let text = "[" + RandomJSON.text(&rng) + "]"
      let ours = try JSONValue(parsing: text)
      let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
      XCTAssertTrue(Self.same(ours, theirs), "seed \(seed): \(text)")
    }
  }

  private static func same(_ value: JSONValue, _ foundation: Any) -> Bool {
    switch value {
    case .null: return foundation is NSNull
    case .bool(let bool): return (foundation as? Bool) == bool
    case .int(let int):
      return (foundation as? NSNumber)?.int64Value == int
        || (foundation as? NSNumber)?.doubleValue == Double(int)
    case .double(let double):
      // Foundation reads some decimals as NSDecimalNumber, whose doubleValue is off by an ulp or so.
      guard let theirs = (foundation as? NSNumber)?.doubleValue else { return false }
      return theirs == double || abs(theirs - double) <= abs(double) * 1e-15
    case .string(let string): return (foundation as? String) == string
    case .array(let elements):
      guard let array = foundation as? [Any], array.count == elements.count else { return false }
      return zip(elements, array).allSatisfy { same($0, $1) }
    case .object(let object):
      guard let dictionary = foundation as? [String: Any] else { return false }
      return object.allSatisfy { member in dictionary[member.key].map { same(member.value, $0) } ?? false }
    }
  }
}
