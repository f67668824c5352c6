// The cancellation token a request handler observes when the peer sends $/cancelRequest.

/// Set once when the request is cancelled (by `$/cancelRequest`, or because the connection
/// closed). Handlers poll ``isCancelled`` or register ``onCancel(_:)`` to stop work early.
///
/// `@unchecked Sendable`: all state is behind a lock.
public final class CancellationToken: @unchecked Sendable {
  private let state = Locked<(cancelled: Bool, handlers: [@Sendable () -> Void])>((false, []))

  public init() {}

  /// Whether the request was cancelled. O(1).
  public var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Runs `handler` once when the token is cancelled — immediately (on this thread) if it already is.
  public func onCancel(_ handler: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state -> Bool in
      if state.cancelled { return true }
      state.handlers.append(handler)
      return false
    }
    if runNow { handler() }
  }

  /// Throws `CancellationError` if cancelled (for handlers that use Swift concurrency idioms).
  public func checkCancellation() throws {
    if isCancelled { throw CancellationError() }
  }

  /// Cancels; returns false if it already was. Runs the handlers outside the lock.
  @discardableResult
  public func cancel() -> Bool {
    let handlers = state.withLock { state -> [@Sendable () -> Void]? in
      if state.cancelled { return nil }
      state.cancelled = true
      defer { state.handlers = [] }
      return state.handlers
    }
    guard let handlers else { return false }
    for handler in handlers { handler() }
    return true
  }
}
