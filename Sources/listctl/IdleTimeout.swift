// Bounding a wait for something that may never come: the next notification, the next change.
import Synchronization

/// When something last arrived, for a wait bounded by the time since.
final class Liveness: Sendable {
  private let last = Mutex(ContinuousClock.now)

  /// Records that something arrived now.
  func touch() { last.withLock { $0 = .now } }

  /// When something last arrived (or the wait began).
  var lastTouch: ContinuousClock.Instant { last.withLock { $0 } }
}

/// Runs `body`, which calls `touch()` on its ``Liveness`` whenever something arrives; throws
/// `failure()` once `idle` passes without that (never when `idle` is nil). `body` is cancelled
/// then, which also ends any notification stream it was reading.
func withIdleTimeout<T: Sendable>(
  _ idle: Duration?, failure: @escaping @Sendable () -> any Error,
  _ body: @escaping @Sendable (Liveness) async throws -> T
) async throws -> T {
  let liveness = Liveness()
  guard let idle else { return try await body(liveness) }
  return try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body(liveness) }
    group.addTask {
      while true {
        let deadline = liveness.lastTouch + idle
        if ContinuousClock.now >= deadline { throw failure() }
        try await Task.sleep(until: deadline, clock: .continuous)
      }
    }
    defer { group.cancelAll() }
    guard let first = try await group.next(), let value = first else { throw failure() }
    return value
  }
}
