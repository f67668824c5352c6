// JSON-RPC 2.0 and LSP error codes.

/// A JSON-RPC error code. The standard and LSP codes are static members; any other integer is
/// allowed (applications define their own, such as listd's -32010…-32017).
public struct ErrorCode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible
{
  public var rawValue: Int

  public init(rawValue: Int) { self.rawValue = rawValue }
  public init(integerLiteral value: Int) { self.rawValue = value }

  /// -32700: the frame or its JSON could not be parsed. Answered with `id: null`.
  public static let parseError: ErrorCode = -32700
  /// -32600: the JSON is not a valid JSON-RPC 2.0 request (or the batch is empty).
  public static let invalidRequest: ErrorCode = -32600
  /// -32601: no handler for the method.
  public static let methodNotFound: ErrorCode = -32601
  /// -32602: the params do not have the fields the method needs.
  public static let invalidParams: ErrorCode = -32602
  /// -32603: the handler failed unexpectedly.
  public static let internalError: ErrorCode = -32603
  /// -32002 (LSP): a request arrived before `initialize`.
  public static let serverNotInitialized: ErrorCode = -32002
  /// -32800 (LSP): the request was cancelled with `$/cancelRequest`.
  public static let requestCancelled: ErrorCode = -32800
  /// -32801 (LSP): the content changed while the request was answered.
  public static let contentModified: ErrorCode = -32801

  /// The code and its name, e.g. `-32601 method not found`.
  public var description: String {
    let name: String
    switch self {
    case .parseError: name = "parse error"
    case .invalidRequest: name = "invalid request"
    case .methodNotFound: name = "method not found"
    case .invalidParams: name = "invalid params"
    case .internalError: name = "internal error"
    case .serverNotInitialized: name = "server not initialized"
    case .requestCancelled: name = "request cancelled"
    case .contentModified: name = "content modified"
    default: return String(rawValue)
    }
    return "\(rawValue) \(name)"
  }
}
