// A request received from the peer, as handed to a handler: params, cancellation, and the responder.

/// What happens when the peer cancels a request that is still being handled.
public enum CancellationPolicy: Sendable, Hashable {
  /// Answer -32800 at once; the handler's token is cancelled and its later answer is dropped.
  case immediate
  /// Only cancel the token: the handler decides (throw ``ResponseError/requestCancelled(_:)``
  /// or `CancellationError` to answer -32800, or return a result if the work was done anyway).
  case cooperative
}

/// A request from the peer. Answer it exactly once with one of the `respond` methods, from any
/// thread, at any time (later answers are ignored). A request released without an answer is
/// answered -32603 so the peer never waits forever.
///
/// `@unchecked Sendable`: the only mutable state (`responded`) is behind a lock.
public final class IncomingRequest: @unchecked Sendable {
  public let id: RequestID
  public let method: String
  /// Typed access to the params (see ``Params``).
  public let params: Params
  /// Set when the peer sends `$/cancelRequest` for this id, or the connection closes.
  public let cancellation: CancellationToken
  /// The connection the request came from (to send notifications or requests back).
  public let connection: Connection
  let policy: CancellationPolicy
  let batch: BatchSlot?
  private let responded = Locked(false)

  init(request: Request, connection: Connection, policy: CancellationPolicy, batch: BatchSlot?) {
    id = request.id
    method = request.method
    params = request.deferredParams.map(Params.init(deferred:)) ?? Params(request.params)
    cancellation = CancellationToken()
    self.connection = connection
    self.policy = policy
    self.batch = batch
  }

  deinit {
    if !hasResponded && !connection.isClosed {
      let message =
        "handler for \(JSONValue.string(method).abbreviatedJSON) released request \(id) without answering"
      connection.logger.error(message)
      connection.deliver(Response(id: id, error: .internalError(message)), batch: batch)
    }
  }

  /// The raw params.
  public var rawParams: JSONValue? { params.value }

  /// Whether the request was cancelled.
  public var isCancelled: Bool { cancellation.isCancelled }

  /// Whether an answer was already sent.
  public var hasResponded: Bool { responded.withLock { $0 } }

  /// Answers with a result. Returns false if the request was already answered.
  @discardableResult
  public func respond(_ result: JSONValue) -> Bool {
    respond(.success(result))
  }

  /// Answers with an error. Returns false if the request was already answered.
  @discardableResult
  public func respond(error: ResponseError) -> Bool {
    respond(.failure(error))
  }

  /// Answers with a result or an error. Returns false if the request was already answered.
  @discardableResult
  public func respond(_ result: Result<JSONValue, ResponseError>) -> Bool {
    respond(result, then: {})
  }

  /// Answers, then runs `afterwards` before the request counts as answered: for messages that
  /// must follow the answer (notifications held until it was sent) and that a connection closing
  /// once everything is answered must not lose. Returns false (without running `afterwards`) if
  /// the request was already answered.
  @discardableResult
  public func respond(_ result: Result<JSONValue, ResponseError>, then afterwards: () -> Void) -> Bool {
    let first = responded.withLock { done -> Bool in
      if done { return false }
      done = true
      return true
    }
    guard first else { return false }
    connection.deliver(Response(id: id, result: result), batch: batch, then: afterwards)
    return true
  }

  /// Answers with the error a thrown error stands for: a ``ResponseError`` as is,
  /// `CancellationError` as -32800, anything else as -32603 naming it.
  @discardableResult
  public func respond(throwing error: any Error) -> Bool {
    respond(error: ResponseError(handling: error, id: id))
  }
}

/// A notification from the peer, as handed to a handler.
public struct IncomingNotification: Sendable {
  public let method: String
  public let params: Params
  public let connection: Connection

  /// The raw params.
  public var rawParams: JSONValue? { params.value }
}

extension ResponseError {
  /// The answer for an error thrown by a handler.
  init(handling error: any Error, id: RequestID?) {
    if let error = error as? ResponseError {
      self = error
    } else if error is CancellationError {
      self = .requestCancelled(id)
    } else {
      self = .internalError(String(describing: error))
    }
  }
}

/// Collects the answers to the members of one incoming batch, in member order.
///
/// `@unchecked Sendable`: the slots are behind a lock.
final class BatchCollector: @unchecked Sendable {
  private let state: Locked<(slots: [Response?], remaining: Int)>

  init(count: Int) {
    state = Locked((Array(repeating: nil, count: count), count))
  }

  /// Fills a slot; returns every response once the last slot is filled.
  func fill(_ slot: Int, with response: Response) -> [Response]? {
    state.withLock { state in
      guard state.slots[slot] == nil else { return nil }
      state.slots[slot] = response
      state.remaining -= 1
      return state.remaining == 0 ? state.slots.map { $0! } : nil
    }
  }
}

/// One member's place in a batch answer.
struct BatchSlot: Sendable {
  let collector: BatchCollector
  let index: Int
}
