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
  ///
  /// A request's params object is validated but not built: the request carries it as the
  /// frame's bytes (``Request/deferredParams``), indexed by member, so a handler decodes a large
  /// member (a list's content) straight from the bytes and nothing large is built and freed.
  /// Errors are those of a full parse: malformed JSON anywhere is still -32700.
  public init(body: UnsafeRawBufferPointer, reusing parser: inout JSONParser) {
    let json: JSONValue
    let deferred: DeferredObject?
    do {
      (json, deferred) = try parser.parseReusingStorage(body, deferring: "params")
    } catch {
      self = .unanswerable(.parseError("\(error)"))
      return
    }
    self.init(json: json)
    guard let deferred, case .single(.success(let message)) = self else { return }
    let params = DeferredParams(buffer: Array(body), object: deferred)
    switch message {
    case .request(let request):
      self = .single(
        .success(.request(Request(id: request.id, method: request.method, deferredParams: params))))
    case .notification(let notification):
      // Notifications are small and read as trees.
      self = .single(
        .success(.notification(Notification(method: notification.method, params: params.text.parsed()))))
    case .response:
      break
    }
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
