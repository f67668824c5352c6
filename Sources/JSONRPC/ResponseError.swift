// The error object of a JSON-RPC response, with constructors whose messages name field and value.

/// The `error` member of a response: code, message and optional data. Handlers throw it; requests
/// sent to the peer throw it when the peer answers with an error.
public struct ResponseError: Error, Hashable, Sendable, CustomStringConvertible {
  public var code: ErrorCode
  /// One sentence naming the problem, the offending field and its value.
  public var message: String
  /// Machine-readable detail (for -32602, `{"field": path}`).
  public var data: JSONValue?

  public init(_ code: ErrorCode, _ message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  public var description: String { "\(code.rawValue): \(message)" }

  /// -32700 with `message` prefixed by "parse error: ".
  public static func parseError(_ message: String) -> ResponseError {
    ResponseError(.parseError, "parse error: " + message)
  }

  /// -32600 with `message` prefixed by "invalid request: ".
  public static func invalidRequest(_ message: String) -> ResponseError {
    ResponseError(.invalidRequest, "invalid request: " + message)
  }

  /// -32601 naming the method.
  public static func methodNotFound(_ method: String) -> ResponseError {
    ResponseError(.methodNotFound, "method not found: \(JSONValue.string(method).abbreviatedJSON)")
  }

  /// -32602: "invalid params: " + `message`, with `data.field` set to the field's path if given.
  public static func invalidParams(_ message: String, field: String? = nil) -> ResponseError {
    ResponseError(
      .invalidParams, "invalid params: " + message, data: field.map { ["field": .string($0)] })
  }

  /// -32603 with `message` prefixed by "internal error: ".
  public static func internalError(_ message: String) -> ResponseError {
    ResponseError(.internalError, "internal error: " + message)
  }

  /// -32002 naming the method that came too early.
  public static func serverNotInitialized(_ method: String) -> ResponseError {
    ResponseError(
      .serverNotInitialized,
      "server not initialized: \(JSONValue.string(method).abbreviatedJSON) before \"initialize\"")
  }

  /// -32800 naming the request.
  public static func requestCancelled(_ id: RequestID?) -> ResponseError {
    ResponseError(.requestCancelled, "request \(id.map { "\($0)" } ?? "") cancelled")
  }

  /// -32801 with a message.
  public static func contentModified(_ message: String) -> ResponseError {
    ResponseError(.contentModified, "content modified: " + message)
  }

  /// The `error` object as JSON.
  public var jsonValue: JSONValue {
    var object: JSONObject = ["code": .int(Int64(code.rawValue)), "message": .string(message)]
    if let data { object.append("data", data) }
    return .object(object)
  }

  /// Reads an `error` object; throws -32600 naming the bad member.
  public init(json: JSONValue) throws(ResponseError) {
    guard case .object(let object) = json else {
      throw .invalidRequest("\"error\" must be an object, got \(json.abbreviatedJSON)")
    }
    guard let codeValue = object["code"] else {
      throw .invalidRequest("missing required field \"error.code\"")
    }
    guard case .int(let code) = codeValue, let narrow = Int(exactly: code) else {
      throw .invalidRequest("\"error.code\" must be an integer, got \(codeValue.abbreviatedJSON)")
    }
    guard let messageValue = object["message"] else {
      throw .invalidRequest("missing required field \"error.message\"")
    }
    guard case .string(let message) = messageValue else {
      throw .invalidRequest("\"error.message\" must be a string, got \(messageValue.abbreviatedJSON)")
    }
    self.init(ErrorCode(rawValue: narrow), message, data: object["data"])
  }
}

extension JSONValue {
  /// Compact JSON text for error messages, cut to about 60 bytes (`"abc"`, `true`, `{"a":1}`, `[1,2,…`).
  public var abbreviatedJSON: String {
    let bytes = jsonBytes()
    guard bytes.count > 60 else { return String(decoding: bytes, as: UTF8.self) }
    var end = 57
    while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }  // do not cut a UTF-8 sequence
    return String(decoding: bytes[..<end], as: UTF8.self) + "…"
  }
}
