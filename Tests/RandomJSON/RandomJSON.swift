// Seeded random JSON values and texts shared by the JSON and JSON-RPC property and fuzz tests.
import JSON
import SeededRandom

/// Random JSON values with awkward strings (escapes, controls, non-ASCII, astral scalars) and
/// numbers at the edges (Int64 bounds, subnormals, negative zero).
public enum RandomJSON {
  public static func value(_ rng: inout SplitMix64, depth: Int = 0) -> JSONValue {
    let leafOnly = depth >= 5
    switch rng.int(0..<(leafOnly ? 6 : 8)) {
    case 0: return .null
    case 1: return .bool(rng.chance(0.5))
    case 2: return .int(int(&rng))
    case 3: return .double(double(&rng))
    case 4, 5: return .string(string(&rng))
    case 6:
      return .array((0..<rng.int(0..<6)).map { _ in value(&rng, depth: depth + 1) })
    default:
      var object = JSONObject()
      for _ in 0..<rng.int(0..<6) { object.append(string(&rng), value(&rng, depth: depth + 1)) }
      return .object(object)
    }
  }

  public static func int(_ rng: inout SplitMix64) -> Int64 {
    switch rng.int(0..<5) {
    case 0: return [Int64.min, Int64.max, 0, -1, 1][rng.int(0..<5)]
    case 1: return Int64(bitPattern: rng.next())
    default: return Int64(rng.int(-1000..<1000))
    }
  }

  public static func double(_ rng: inout SplitMix64) -> Double {
    switch rng.int(0..<5) {
    case 0:
      return [-0.0, 0.5, 1.0, 1e-300, .leastNonzeroMagnitude, 1.7976931348623157e308, 0.1, 1e22, 1e23][
        rng.int(0..<9)]
    case 1:
      while true {
        let value = Double(bitPattern: rng.next())
        if value.isFinite { return value }
      }
    case 2: return Double(rng.int(-100_000..<100_000)) / 8
    default: return Double.random(in: -1e6..<1e6, using: &rng)
    }
  }

  public static let alphabet: [Unicode.Scalar] = [
    "a", "b", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}",
    "é", "ß", "€", "中", "\u{2028}", "\u{FEFF}", "\u{FFFF}", "😀", "\u{10FFFF}", "\u{1D11E}",
  ]

  public static func string(_ rng: inout SplitMix64) -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<rng.int(0..<12) {
      if rng.chance(0.5) {
        scalars.append(Unicode.Scalar(UInt8(rng.int(0x61..<0x7B))))
      } else {
        scalars.append(alphabet[rng.int(0..<alphabet.count)])
      }
    }
    return String(scalars)
  }

  /// A random JSON *text* (not made by the writer): random whitespace, escapes of every form,
  /// numbers in every notation.
  public static func text(_ rng: inout SplitMix64, depth: Int = 0) -> String {
    func ws(_ rng: inout SplitMix64) -> String {
      ["", "", " ", "\n", "\t", "\r\n  "][rng.int(0..<6)]
    }
    let leafOnly = depth >= 4
    switch rng.int(0..<(leafOnly ? 5 : 7)) {
    case 0: return ["null", "true", "false"][rng.int(0..<3)]
    case 1:
      let numbers = [
        "0", "-0", "12", "-7", "0.5", "-0.25e+2", "1E3", "1e-7", "123456789012345678901234",
        "-9223372036854775808",
        "9223372036854775807", "9223372036854775808", "2.5E-310", "0.000000000000000000000000001", "1.5",
      ]
      return numbers[rng.int(0..<numbers.count)]
    case 2, 3, 4:
      var text = "\""
      for _ in 0..<rng.int(0..<8) {
        switch rng.int(0..<6) {
        case 0: text += ["\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t"][rng.int(0..<8)]
        case 1:
          text += ["\\u0041", "\\u00e9", "\\u0000", "\\uD83D\\uDE00", "\\u2028", "\\uFFFF"][rng.int(0..<6)]
        case 2: text += ["é", "😀", "中"][rng.int(0..<3)]
        default:
          var byte = UInt8(rng.int(0x20..<0x7F))
          if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { byte = UInt8(ascii: "x") }
          text.unicodeScalars.append(Unicode.Scalar(byte))
        }
      }
      return text + "\""
    case 5:
      let elements = (0..<rng.int(0..<4)).map { _ in ws(&rng) + text(&rng, depth: depth + 1) + ws(&rng) }
      return "[" + elements.joined(separator: ",") + ws(&rng) + "]"
    default:
      let members = (0..<rng.int(0..<4)).map { index in
        ws(&rng) + "\"k\(index)\"" + ws(&rng) + ":" + ws(&rng) + text(&rng, depth: depth + 1) + ws(&rng)
      }
      return "{" + members.joined(separator: ",") + ws(&rng) + "}"
    }
  }
}
