// Data told equal to its current value while it is read: never when it is not, always for a respelling.
import JSON
import SeededRandom
import XCTest

@testable import ListProtocol

/// For thousands of random `data` values, a value sent in its place (the same value respelled:
/// members in reverse order, integers as `n.0`; or one value changed; or another value) is told
/// to have the current value as its canonical form (``JSONValue/isCanonicalForm(ofNext:)``)
/// exactly when decoding it and taking its canonical form gives the current value, except where
/// the value sent repeats a member name (told false: the caller decodes, and the first
/// occurrence is read).
///
/// `LISTD_CANONICAL_FORM_SEED=n` replays a run.
final class CanonicalFormPropertyTests: XCTestCase {
  func testTellingWhileReadingAgreesWithDecoding() throws {
    let seed = PropertySeeds.seed(
      "LISTD_CANONICAL_FORM_SEED", default: 2_028, test: "CanonicalFormPropertyTests")
    var generator = WireGenerator(random: SplitMix64(seed: seed))
    var told = 0
    for run in 0..<5_000 {
      let current = generator.freeForm().canonicalData
      let sent: JSONValue
      switch generator.random.int(0..<3) {
      case 0: sent = Self.respelled(current)
      case 1: sent = Self.changed(current, &generator)
      default: sent = generator.freeForm()
      }
      let bytes = sent.jsonBytes()
      let text = try JSONText(validating: bytes)
      let (result, offset) = try text.withReader { (reader: inout JSONReader) throws(JSONParseError) in
        (try current.isCanonicalForm(ofNext: &reader), reader.offset)
      }
      let equal = sent.canonicalData == current
      let context =
        "seed \(seed), run \(run): current \(current), sent \(String(decoding: bytes, as: UTF8.self))"
      if result {
        XCTAssertTrue(equal, context)
        XCTAssertEqual(offset, bytes.count, "the whole value read: " + context)
        told += 1
      } else {
        XCTAssertFalse(equal && !Self.hasRepeatedNames(sent), context)
      }
      if testRun?.failureCount ?? 0 > 0 { return }
    }
    XCTAssertGreaterThan(told, 1_000, "too few values told equal")
  }

  /// The same value in other bytes: members in reverse order, integers as `n.0`.
  static func respelled(_ value: JSONValue) -> JSONValue {
    switch value {
    case .int(let n) where abs(n) < 1 << 40: .double(Double(n))
    case .array(let elements): .array(elements.map(respelled))
    case .object(let members): .object(JSONObject(members.reversed().map { ($0.key, respelled($0.value)) }))
    default: value
    }
  }

  /// The value with one part changed, at any depth (or the value itself, wrapped).
  static func changed(_ value: JSONValue, _ generator: inout WireGenerator) -> JSONValue {
    switch value {
    case .array(var elements) where !elements.isEmpty:
      let k = generator.random.int(0..<elements.count)
      elements[k] = changed(elements[k], &generator)
      return .array(elements)
    case .object(let object) where !object.isEmpty:
      var members = Array(object)
      let k = generator.random.int(0..<members.count)
      if generator.random.chance(percent: 20) {
        members.remove(at: k)
      } else {
        members[k].value = changed(members[k].value, &generator)
      }
      return .object(JSONObject(members.map { ($0.key, $0.value) }))
    case .int(let n): return .int(n &+ 1)
    case .string(let s): return .string(s + "x")
    default: return .array([value])
    }
  }

  /// Whether an object in `value` has a name twice.
  static func hasRepeatedNames(_ value: JSONValue) -> Bool {
    switch value {
    case .array(let elements): elements.contains(where: hasRepeatedNames)
    case .object(let object):
      Set(object.keys.map { Array($0.utf8) }).count < object.count
        || object.values.contains(where: hasRepeatedNames)
    default: false
    }
  }
}
