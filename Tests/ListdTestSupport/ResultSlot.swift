// An answer handed from a connection's completion handler to the test thread (pipelined requests).
import Foundation
import JSON

/// An answer handed from a connection's completion handler to the test thread.
public final class ResultSlot: @unchecked Sendable {
  // `@unchecked Sendable`: `result` is written once under `condition`.
  private let condition = NSCondition()
  private var result: Result<JSONValue, any Error>?

  public init() {}

  /// Hands over the answer; wakes the waiting thread.
  public func set(_ value: Result<JSONValue, any Error>) {
    condition.lock()
    result = value
    condition.broadcast()
    condition.unlock()
  }

  /// The answer, once set; a `TestFailure` after `timeout` seconds without one.
  public func wait(timeout: TimeInterval, _ what: String) throws -> Result<JSONValue, any Error> {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while result == nil {
      guard condition.wait(until: deadline) else {
        throw TestFailure("no answer to \(what) within \(timeout) s")
      }
    }
    return result!
  }
}
