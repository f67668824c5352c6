// Dispatching what was read: responses to their requests, requests and notifications to handlers, inline rules.
import Foundation
import JSON

extension Connection {
  func handle(_ event: FrameEvent, parser: inout JSONParser) {
    switch event {
    case .frame(let body): body.withUnsafeBytes { handle(.frame($0), parser: &parser) }
    case .error(let error): handle(BorrowedFrameEvent.error(error), parser: &parser)
    }
  }

  func handle(_ event: BorrowedFrameEvent, parser: inout JSONParser) {
    switch event {
    case .frame(let body):
      handle(Incoming(body: body, reusing: &parser))
    case .error(let error):
      logger.warning("\(options.name): \(error)")
      if case .truncatedFrame = error.kind { return }  // the peer is gone
      send(.response(Response(id: nil, error: .parseError(error.description))))
    }
  }

  private func handle(_ incoming: Incoming) {
    switch incoming {
    case .unanswerable(let error):
      logger.info("\(options.name): \(error.message)")
      send(.response(Response(id: nil, error: error)))
    case .single(let message):
      handle(message, batch: nil)
    case .batch(let members):
      let answerable = members.filter(Self.isAnswerable).count
      let collector = answerable > 0 ? BatchCollector(count: answerable) : nil
      var slot = 0
      for member in members {
        if let collector, Self.isAnswerable(member) {
          handle(member, batch: BatchSlot(collector: collector, index: slot))
          slot += 1
        } else {
          handle(member, batch: nil)
        }
      }
    }
  }

  private static func isAnswerable(_ member: Result<Message, InvalidMessage>) -> Bool {
    switch member {
    case .success(.request): return true
    case .failure(let invalid): return !invalid.isResponse
    case .success(.notification), .success(.response): return false
    }
  }

  private func handle(_ message: Result<Message, InvalidMessage>, batch: BatchSlot?) {
    switch message {
    case .failure(let invalid):
      if invalid.isResponse {
        logger.warning("\(options.name): ignoring an invalid response: \(invalid.error.message)")
      } else {
        answer(Response(id: invalid.id, error: invalid.error), batch: batch)
      }
    case .success(.response(let response)):
      guard let id = response.id, let pending = takePending(id) else {
        logger.warning(
          "\(options.name): response to unknown request id \(response.id.map { "\($0)" } ?? "null")")
        handlers.withLock { $0.unmatchedResponse }?(response)
        return
      }
      let result = response.result.mapError { $0 as any Error }
      // Serial: the answer's completion queues behind the notifications read before it, so a
      // client sees answers and notifications in the peer's order.
      if options.dispatch == .serial {
        dispatchToHandlers { pending.completion(result) }
      } else {
        DispatchQueue.global().async { pending.completion(result) }
      }
    case .success(.notification(let notification)):
      handle(notification)
    case .success(.request(let request)):
      handle(request, batch: batch)
    }
  }

  private func handle(_ notification: Notification) {
    if handlers.withLock({ $0.refusal != nil }) {
      logger.debug(
        "\(options.name): dropped notification \(notification.method): read after the reading stopped")
      return
    }
    if notification.method == "$/cancelRequest" {
      cancelIncoming(notification.params)
      return
    }
    let (gate, handler) = handlers.withLock { handlers in
      (handlers.gate, handlers.notifications[notification.method] ?? handlers.unhandledNotification)
    }
    if let refusal = gate?(notification.method, false) {
      logger.debug("\(options.name): dropped notification \(notification.method): \(refusal.message)")
      return
    }
    guard let handler else {
      if !notification.method.hasPrefix("$/") {
        logger.debug("\(options.name): no handler for notification \(notification.method)")
      }
      return
    }
    let incoming = IncomingNotification(
      method: notification.method, params: Params(notification.params), connection: self)
    dispatchToHandlers { [logger, name = options.name] in
      do {
        try handler(incoming)
      } catch {
        logger.warning("\(name): handler for notification \(incoming.method) failed: \(error)")
      }
    }
  }

  private func handle(_ request: Request, batch: BatchSlot?) {
    let (gate, registered, stopped) = handlers.withLock { handlers in
      (handlers.gate, handlers.requests[request.method] ?? handlers.unhandledRequest, handlers.refusal)
    }
    if let stopped {  // read after stopReading: answered, never run
      answer(Response(id: request.id, error: stopped(request.method)), batch: batch)
      return
    }
    if let refusal = gate?(request.method, true) {
      answer(Response(id: request.id, error: refusal), batch: batch)
      return
    }
    guard let handler = registered else {
      answer(Response(id: request.id, error: .methodNotFound(request.method)), batch: batch)
      return
    }
    if state.withLock({ $0.inFlight[request.id] != nil }) {
      let error = ResponseError.invalidRequest(
        "duplicate request id \(request.id): a request with this id is in progress")
      answer(Response(id: request.id, error: error), batch: batch)
      return
    }
    let incoming = IncomingRequest(request: request, connection: self, policy: handler.policy, batch: batch)
    let accepted = state.withLock { state -> Bool in
      if state.closed { return false }
      state.inFlight[request.id] = WeakRequest(incoming)
      return true
    }
    guard accepted else {
      incoming.cancellation.cancel()
      incoming.respond(error: .requestCancelled(request.id))  // dropped: the connection is closed
      return
    }
    if handler.isInline && queuedHandlers.load(ordering: .acquiring) == 0 {
      Self.run(handler, incoming)  // nothing ahead of it: answering here keeps arrival order
      return
    }
    dispatchToHandlers { Self.run(handler, incoming) }
  }

  /// Queues handler work, counting it so inline handlers know whether anything is ahead.
  private func dispatchToHandlers(_ work: @escaping @Sendable () -> Void) {
    queuedHandlers.add(1, ordering: .acquiringAndReleasing)
    handlerQueue.async { [self] in
      work()
      queuedHandlers.subtract(1, ordering: .acquiringAndReleasing)
    }
  }

  private static func run(_ handler: RequestHandler, _ request: IncomingRequest) {
    if request.isCancelled {
      request.respond(error: .requestCancelled(request.id))
      return
    }
    switch handler {
    case .sync(_, let body):
      do {
        request.respond(try body(request))
      } catch {
        request.respond(throwing: error)
      }
    case .deferred(_, _, let body):
      do {
        try body(request)
      } catch {
        request.respond(throwing: error)
      }
    case .async(_, let body):
      let task = Task {
        do {
          request.respond(try await body(request))
        } catch {
          request.respond(throwing: error)
        }
      }
      request.cancellation.onCancel { task.cancel() }
    }
  }
}
