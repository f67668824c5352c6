// The id of a JSON-RPC request: an integer or a string.

/// A request id. Integer and string ids are distinct: `1` and `"1"` are different requests.
public enum RequestID: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral,
  ExpressibleByStringLiteral
{
  case int(Int64)
  case string(String)

  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(stringLiteral value: String) { self = .string(value) }

  /// The id read from JSON, or nil if it is neither an integer nor a string.
  public init?(json: JSONValue) {
    switch json {
    case .int(let value): self = .int(value)
    case .string(let value): self = .string(value)
    default: return nil
    }
  }

  /// The id as JSON.
  public var jsonValue: JSONValue {
    switch self {
    case .int(let value): return .int(value)
    case .string(let value): return .string(value)
    }
  }

  /// `5` or `"abc"`, as in the JSON.
  public var description: String { jsonValue.abbreviatedJSON }
}
