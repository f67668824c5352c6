// The value of a field as views compare it: null, Boolean, number or string, with one total order.
import JSON
@_spi(_Unicode) import Swift

/// A field's value. Ordered null < false < true < numbers < strings; strings by their folded form
/// (case and diacritics removed) first, then by their exact characters, so the order is total
/// and stable across runs.
public enum ViewValue: Hashable, Sendable, Comparable {
  case null
  case bool(Bool)
  case number(Double)
  /// A string with its folded form (``ViewValue/fold(_:)``), computed once.
  case string(String, folded: String)

  /// A string value.
  public static func string(_ value: String) -> ViewValue { .string(value, folded: fold(value)) }

  /// The value of a JSON scalar; arrays and objects are `null` (views compare scalars only).
  public init(json: JSONValue) {
    switch json {
    case .null, .array, .object: self = .null
    case .bool(let value): self = .bool(value)
    case .int(let value): self = .number(Double(value))
    case .double(let value): self = .number(value)
    case .string(let value): self = .string(value)
    }
  }

  /// The value of a table cell.
  public init(cell: CellValue) {
    switch cell {
    case .string(let value): self = .string(value)
    case .number(let value): self = .number(value)
    case .bool(let value): self = .bool(value)
    case .null: self = .null
    }
  }

  /// The JSON form.
  public var json: JSONValue {
    switch self {
    case .null: .null
    case .bool(let value): .bool(value)
    case .number(let value):
      value.rounded() == value && abs(value) < 9.0e18 ? .int(Int64(value)) : .double(value)
    case .string(let value, _): .string(value)
    }
  }

  /// How a header shows the value.
  public var display: String {
    switch self {
    case .null: ""
    case .bool(let value): value ? "true" : "false"
    case .number:
      if case .int(let value) = json { String(value) } else { String(describing: json.doubleValue ?? 0) }
    case .string(let value, _): value
    }
  }

  private var rank: Int {
    switch self {
    case .null: 0
    case .bool: 1
    case .number: 2
    case .string: 3
    }
  }

  public static func < (lhs: ViewValue, rhs: ViewValue) -> Bool { compare(lhs, rhs) < 0 }

  /// -1, 0 or 1.
  @inline(__always)
  public static func compare(_ lhs: ViewValue, _ rhs: ViewValue) -> Int {
    switch (lhs, rhs) {
    case (.string(let a, let fa), .string(let b, let fb)):
      if fa != fb { return fa < fb ? -1 : 1 }
      return a == b ? 0 : (a < b ? -1 : 1)
    case (.number(let a), .number(let b)):
      return a == b ? 0 : (a < b ? -1 : 1)
    case (.bool(let a), .bool(let b)):
      return a == b ? 0 : (a ? 1 : -1)
    case (.null, .null): return 0
    default: return lhs.rank < rhs.rank ? -1 : 1
    }
  }

  /// Whether both are of the same kind (ordering predicates compare only such values).
  func isSameKind(as other: ViewValue) -> Bool { rank == other.rank }

  /// `string` without case and diacritics: canonical decomposition, combining marks dropped,
  /// lower-cased. ASCII takes a fast path.
  public static func fold(_ string: String) -> String {
    if string.utf8.allSatisfy({ $0 < 0x80 }) {
      if !string.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { return string }
      return string.lowercased()
    }
    var scalars = String.UnicodeScalarView()
    for scalar in string._nfd where scalar.properties.canonicalCombiningClass == .notReordered {
      scalars.append(scalar)
    }
    return String(scalars).lowercased()
  }
}
