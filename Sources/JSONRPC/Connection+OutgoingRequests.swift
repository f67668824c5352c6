// Requests a connection sends and the matching of their answers: timeouts, cancellation, failure.
import Foundation
import JSON

extension Connection {
  /// Sends a request; `completion` gets the result, the peer's ``ResponseError``, or a
  /// ``ConnectionError`` (closed, timed out — after which `$/cancelRequest` is sent — or
  /// cancelled). Runs `completion` on a global dispatch queue, or with ``DispatchMode/serial``
  /// an answer's on the handler queue, in order with the messages around it. Returns the
  /// request's id.
  @discardableResult
  public func sendRequest(
    _ method: String, _ params: JSONValue? = nil, timeout: Duration? = nil,
    completion: @escaping @Sendable (Result<JSONValue, any Error>) -> Void
  ) -> RequestID {
    let (id, readable) = state.withLock { state -> (RequestID, Bool) in
      let id = RequestID.int(state.nextID)
      state.nextID += 1
      state.pending[id] = PendingRequest(method: method, completion: completion)
      return (id, !state.inputDrained)
    }
    // Once reading has ended, no answer can arrive: fail at once rather than at a timeout.
    guard readable, send(.request(Request(id: id, method: method, params: params))) else {
      complete(id, with: .failure(ConnectionError.closed))
      return id
    }
    if let timeout {
      let deadline = DispatchTime.now() + .nanoseconds(Self.nanoseconds(timeout))
      DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
        guard let self, let pending = self.takePending(id) else { return }
        self.notify("$/cancelRequest", ["id": id.jsonValue])
        DispatchQueue.global().async {
          pending.completion(.failure(ConnectionError.timedOut(method: pending.method, id: id)))
        }
      }
    }
    return id
  }

  /// Sends a request and waits for its result. Throws the peer's ``ResponseError`` or a
  /// ``ConnectionError``. Cancelling the task sends `$/cancelRequest` and throws
  /// ``ConnectionError/cancelled(method:id:)``.
  public func sendRequest(_ method: String, _ params: JSONValue? = nil, timeout: Duration? = nil) async throws
    -> JSONValue
  {
    let box = Locked<(id: RequestID?, cancelled: Bool)>((nil, false))
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
        let id = sendRequest(method, params, timeout: timeout) { continuation.resume(with: $0) }
        let cancelled = box.withLock { box -> Bool in
          box.id = id
          return box.cancelled
        }
        if cancelled { cancelRequest(id) }
      }
    } onCancel: {
      let id = box.withLock { box -> RequestID? in
        box.cancelled = true
        return box.id
      }
      if let id { cancelRequest(id) }
    }
  }

  /// Gives up on a request sent to the peer: sends `$/cancelRequest` and completes it with
  /// ``ConnectionError/cancelled(method:id:)`` (unless its response already arrived).
  public func cancelRequest(_ id: RequestID) {
    guard let pending = takePending(id) else { return }
    notify("$/cancelRequest", ["id": id.jsonValue])
    DispatchQueue.global().async {
      pending.completion(.failure(ConnectionError.cancelled(method: pending.method, id: id)))
    }
  }

  /// Completes every request sent and not yet answered with `error` (no `$/cancelRequest` is
  /// sent); returns how many there were.
  @discardableResult
  public func failPendingRequests(with error: any Error) -> Int {
    let taken = state.withLock { state -> [PendingRequest] in
      defer { state.pending = [:] }
      return Array(state.pending.values)
    }
    for pending in taken {
      DispatchQueue.global().async { pending.completion(.failure(error)) }
    }
    return taken.count
  }

  func takePending(_ id: RequestID) -> PendingRequest? {
    state.withLock { $0.pending.removeValue(forKey: id) }
  }

  func complete(_ id: RequestID, with result: Result<JSONValue, any Error>) {
    guard let pending = takePending(id) else { return }
    DispatchQueue.global().async { pending.completion(result) }
  }
}
