// Registering a connection's handlers: requests, notifications, the gate, drain and close.
import JSON

extension Connection {
  // MARK: - Registration

  /// Handles `method` with a handler that returns the result (or throws a ``ResponseError``;
  /// any other error answers -32603). Replaces an earlier handler for the method.
  public func onRequest(
    _ method: String, cancellation: CancellationPolicy = .immediate,
    _ handler: @escaping @Sendable (IncomingRequest) throws -> JSONValue
  ) {
    handlers.withLock { $0.requests[method] = .sync(cancellation, handler) }
  }

  /// Handles `method` with a handler that answers later through `request.respond(…)` — from any
  /// thread, after hopping elsewhere. Throwing before answering answers with the error.
  ///
  /// `inline: true` is for handlers that return within microseconds (small queries, or a hop
  /// to another queue): when no other handler is queued or running, it runs on the reading
  /// thread itself, saving a thread hand-off; otherwise it is queued like any other, so arrival
  /// order holds in ``DispatchMode/serial`` mode.
  public func onRequestDeferred(
    _ method: String, cancellation: CancellationPolicy = .immediate, inline: Bool = false,
    _ handler: @escaping @Sendable (IncomingRequest) throws -> Void
  ) {
    handlers.withLock { $0.requests[method] = .deferred(cancellation, inline: inline, handler) }
  }

  /// Handles `method` in a Task; `$/cancelRequest` cancels the task.
  public func onRequestAsync(
    _ method: String, cancellation: CancellationPolicy = .immediate,
    _ handler: @escaping @Sendable (IncomingRequest) async throws -> JSONValue
  ) {
    handlers.withLock { $0.requests[method] = .async(cancellation, handler) }
  }

  /// Handles the notification `method`. Errors thrown are logged (notifications get no answer).
  public func onNotification(
    _ method: String, _ handler: @escaping @Sendable (IncomingNotification) throws -> Void
  ) {
    handlers.withLock { $0.notifications[method] = handler }
  }

  /// Handles requests for which no handler is registered (default: -32601 naming the method).
  /// The handler answers through `request.respond(…)`, now or later.
  public func onUnhandledRequest(
    cancellation: CancellationPolicy = .immediate,
    _ handler: @escaping @Sendable (IncomingRequest) throws -> Void
  ) {
    handlers.withLock { $0.unhandledRequest = .deferred(cancellation, inline: false, handler) }
  }

  /// Handles notifications for which no handler is registered (default: ignored, logged at debug level).
  public func onUnhandledNotification(_ handler: @escaping @Sendable (IncomingNotification) throws -> Void) {
    handlers.withLock { $0.unhandledNotification = handler }
  }

  /// Calls `handler` on the reading thread for each response that matches no request in
  /// progress — notably an error whose `id` is `null`, which a peer sends when it could not read
  /// a request's id (a frame over its size limit, malformed JSON): the request it was will never
  /// be answered, so a client may fail its requests in progress (``failPendingRequests(with:)``).
  public func onUnmatchedResponse(_ handler: @escaping @Sendable (Response) -> Void) {
    handlers.withLock { $0.unmatchedResponse = handler }
  }

  /// Installs a gate called on the reading thread for every request (`isRequest` true) and
  /// notification, in arrival order, before dispatch. Return nil to let it through, or an error:
  /// a request is answered with it, a notification is dropped. Because it sees messages in
  /// order, it can track a lifecycle itself (answer -32002 until `initialize` has passed,
  /// -32600 after `shutdown`). Keep it fast: it runs on the reading thread.
  public func setGate(_ gate: @escaping @Sendable (_ method: String, _ isRequest: Bool) -> ResponseError?) {
    handlers.withLock { $0.gate = gate }
  }

  /// Registers `handler` to run on the writing thread after queued frames are written, so a
  /// producer that held messages back (``queuedBytes`` was high) can send them now. It must not
  /// block; it may send.
  public func onDrain(_ handler: @escaping @Sendable () -> Void) {
    handlers.withLock { $0.drain = handler }
  }

  /// Bytes queued for the peer and not yet written. O(1).
  public var queuedBytes: Int { outgoing.pending }

  /// Calls `handler` once the connection has closed and its output is flushed (at once if it
  /// already has). Runs on an arbitrary thread.
  public func onClose(_ handler: @escaping @Sendable (CloseReason) -> Void) {
    let finished = handlers.withLock { handlers -> CloseReason? in
      if let reason = handlers.finishedReason { return reason }
      handlers.closeHandlers.append(handler)
      return nil
    }
    if let finished { handler(finished) }
  }
}
