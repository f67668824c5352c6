// A value guarded by a lock: the one place mutable state is shared between threads.
import Foundation

/// A value that is only read or written while holding a lock.
///
/// `@unchecked Sendable` is sound because every access to `value` goes through `withLock`.
final class Locked<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()

  init(_ value: Value) { self.value = value }

  @inline(__always)
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
