// JSON-RPC 2.0 messages: requests, notifications, responses; decoding with exact errors, encoding.

/// A call that expects a response.
public struct Request: Hashable, Sendable {
  public var id: RequestID
  public var method: String
  /// The params: an object or an array, or nil when absent (or deferred).
  public var params: JSONValue?
  /// The params object kept as the frame's bytes, when the connection read it so (`params` is
  /// then nil): see ``Incoming/init(body:reusing:)``.
  public var deferredParams: DeferredParams?

  public init(id: RequestID, method: String, params: JSONValue? = nil) {
    self.id = id
    self.method = method
    self.params = params
  }

  /// A request whose params object is kept as bytes.
  public init(id: RequestID, method: String, deferredParams: DeferredParams) {
    self.id = id
    self.method = method
    self.deferredParams = deferredParams
  }
}

/// A call without an id: no response is sent.
public struct Notification: Hashable, Sendable {
  public var method: String
  public var params: JSONValue?

  public init(method: String, params: JSONValue? = nil) {
    self.method = method
    self.params = params
  }
}

/// The answer to a request: a result or an error. `id` is nil only for errors about a message
/// whose id could not be read (written as `"id": null`).
public struct Response: Hashable, Sendable {
  public var id: RequestID?
  public var result: Result<JSONValue, ResponseError>

  public init(id: RequestID?, result: Result<JSONValue, ResponseError>) {
    self.id = id
    self.result = result
  }

  public init(id: RequestID, result: JSONValue) {
    self.init(id: id, result: .success(result))
  }

  public init(id: RequestID?, error: ResponseError) {
    self.init(id: id, result: .failure(error))
  }
}

/// Any JSON-RPC 2.0 message.
public enum Message: Hashable, Sendable {
  case request(Request)
  case notification(Notification)
  case response(Response)
}

/// A JSON value that is not a valid JSON-RPC message: the -32600 error to answer with, and the
/// request id if it could be read (so the answer can carry it).
public struct InvalidMessage: Error, Hashable, Sendable {
  public var id: RequestID?
  public var error: ResponseError
  /// Whether the message looked like a response (never answered, only logged).
  public var isResponse: Bool

  public init(id: RequestID?, error: ResponseError, isResponse: Bool = false) {
    self.id = id
    self.error = error
    self.isResponse = isResponse
  }
}

extension Message {
  /// Reads a message from a parsed JSON value. Unknown members are ignored; `"params": null` is
  /// taken as absent. Errors name the offending member and value, e.g.
  /// `invalid request: "jsonrpc" must be "2.0", got "1.0"`. O(number of members).
  public init(json: JSONValue) throws(InvalidMessage) {
    guard case .object(let object) = json else {
      throw InvalidMessage(
        id: nil, error: .invalidRequest("message must be an object, got \(json.abbreviatedJSON)"))
    }
    var jsonrpc: JSONValue?
    var idValue: JSONValue?
    var method: JSONValue?
    var params: JSONValue?
    var result: JSONValue?
    var error: JSONValue?
    for (key, value) in object {
      switch key {
      case "jsonrpc": jsonrpc = jsonrpc ?? value
      case "id": idValue = idValue ?? value
      case "method": method = method ?? value
      case "params": params = params ?? value
      case "result": result = result ?? value
      case "error": error = error ?? value
      default: break
      }
    }
    let isResponse = method == nil && (result != nil || error != nil)
    var id: RequestID?
    if let idValue {
      id = RequestID(json: idValue)
      if id == nil && !(isResponse && idValue.isNull) {
        throw InvalidMessage(
          id: nil,
          error: .invalidRequest("\"id\" must be an integer or string, got \(idValue.abbreviatedJSON)"),
          isResponse: isResponse)
      }
    }
    func invalid(_ message: String) -> InvalidMessage {
      InvalidMessage(id: id, error: .invalidRequest(message), isResponse: isResponse)
    }
    guard let jsonrpc else { throw invalid("missing required field \"jsonrpc\"") }
    guard jsonrpc == "2.0" else {
      throw invalid("\"jsonrpc\" must be \"2.0\", got \(jsonrpc.abbreviatedJSON)")
    }

    if let method {
      guard case .string(let name) = method else {
        throw invalid("\"method\" must be a string, got \(method.abbreviatedJSON)")
      }
      if let present = params {
        switch present {
        case .object, .array: break
        case .null: params = nil
        default: throw invalid("\"params\" must be an object or array, got \(present.abbreviatedJSON)")
        }
      }
      if let id {
        self = .request(Request(id: id, method: name, params: params))
      } else {
        self = .notification(Notification(method: name, params: params))
      }
      return
    }
    guard isResponse else { throw invalid("missing required field \"method\"") }
    guard idValue != nil else { throw invalid("missing required field \"id\" in response") }
    switch (result, error) {
    case (.some, .some): throw invalid("response has both \"result\" and \"error\"")
    case (.some(let value), nil): self = .response(Response(id: id, result: .success(value)))
    case (nil, .some(let value)):
      do {
        self = .response(Response(id: id, result: .failure(try ResponseError(json: value))))
      } catch {
        throw InvalidMessage(id: id, error: error, isResponse: true)
      }
    case (nil, nil): throw invalid("response has neither \"result\" nor \"error\"")
    }
  }

  /// The message as a JSON object (`"jsonrpc": "2.0"` first).
  public var jsonValue: JSONValue {
    var object: JSONObject = ["jsonrpc": "2.0"]
    switch self {
    case .request(let request):
      object.append("id", request.id.jsonValue)
      object.append("method", .string(request.method))
      if let params = request.params ?? request.deferredParams?.text.parsed() {
        object.append("params", params)
      }
    case .notification(let notification):
      object.append("method", .string(notification.method))
      if let params = notification.params { object.append("params", params) }
    case .response(let response):
      object.append("id", response.id?.jsonValue ?? .null)
      switch response.result {
      case .success(let value): object.append("result", value)
      case .failure(let error): object.append("error", error.jsonValue)
      }
    }
    return .object(object)
  }

  /// Writes the message's compact JSON text (the same as `jsonValue`, without building it). O(size).
  public func write(to writer: inout JSONWriter) {
    writer.writeRaw(jsonrpcPrefix)
    switch self {
    case .request(let request):
      writer.writeRaw(idKey)
      writeID(request.id, to: &writer)
      writer.writeRaw(methodKey)
      writer.writeString(request.method)
      if let params = request.params ?? request.deferredParams?.text.parsed() {
        writer.writeRaw(paramsKey)
        writer.write(params)
      }
    case .notification(let notification):
      writer.writeRaw(methodKey)
      writer.writeString(notification.method)
      if let params = notification.params {
        writer.writeRaw(paramsKey)
        writer.write(params)
      }
    case .response(let response):
      writer.writeRaw(idKey)
      if let id = response.id { writeID(id, to: &writer) } else { writer.writeNull() }
      switch response.result {
      case .success(let value):
        writer.writeRaw(resultKey)
        writer.write(value)
      case .failure(let error):
        writer.writeRaw(errorKey)
        writer.write(error.jsonValue)
      }
    }
    writer.writeRaw(closingBrace)
  }

  /// The compact JSON text of the message. O(size).
  public func jsonBytes() -> [UInt8] {
    var writer = JSONWriter(reservingCapacity: 128)
    write(to: &writer)
    return writer.bytes
  }
}

private func writeID(_ id: RequestID, to writer: inout JSONWriter) {
  switch id {
  case .int(let value): writer.writeInt(value)
  case .string(let value): writer.writeString(value)
  }
}

private let jsonrpcPrefix = Array(#"{"jsonrpc":"2.0""#.utf8)
private let idKey = Array(#","id":"#.utf8)
private let methodKey = Array(#","method":"#.utf8)
private let paramsKey = Array(#","params":"#.utf8)
private let resultKey = Array(#","result":"#.utf8)
private let errorKey = Array(#","error":"#.utf8)
private let closingBrace: [UInt8] = [UInt8(ascii: "}")]
