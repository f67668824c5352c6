// What one incoming frame body holds: a message, a batch (JSON-RPC 2.0 §6), or an unparseable text.

/// The decoded content of one frame body.
public enum Incoming: Hashable, Sendable {
  /// One message, or why it is not a valid one.
  case single(Result<Message, InvalidMessage>)
  /// A non-empty batch: its members, in order, each valid or not.
  case batch([Result<Message, InvalidMessage>])
  /// A body that is not JSON (-32700) or an empty batch (-32600): answered with one error, `id: null`.
  case unanswerable(ResponseError)

  /// Parses and decodes a frame body. O(body.count).
  public init<Body: Collection>(body: Body, parser: JSONParser = JSONParser()) where Body.Element == UInt8 {
    let json: JSONValue
    do {
      json = try parser.parse(body)
    } catch {
      self = .unanswerable(.parseError("\(error)"))
      return
    }
    self.init(json: json)
  }

  /// Parses and decodes a frame body, reusing the parser's working storage (see
  /// ``JSONParser/parseReusingStorage(_:)``): the fast path for a stream of messages. O(body.count).
  public init(body: UnsafeRawBufferPointer, reusing parser: inout JSONParser) {
    let json: JSONValue
    do {
      json = try parser.parseReusingStorage(body)
    } catch {
      self = .unanswerable(.parseError("\(error)"))
      return
    }
    self.init(json: json)
  }

  /// Decodes a parsed frame body.
  public init(json: JSONValue) {
    if case .array(let elements) = json {
      guard !elements.isEmpty else {
        self = .unanswerable(.invalidRequest("empty batch"))
        return
      }
      self = .batch(
        elements.map { element in Result { () throws(InvalidMessage) in try Message(json: element) } })
    } else {
      self = .single(Result { () throws(InvalidMessage) in try Message(json: json) })
    }
  }
}
