// Polling for a condition that another thread or process makes true, with a deadline.
import Foundation

/// Polls `condition` every few milliseconds until it holds or `timeout` seconds pass.
@discardableResult
public func waitUntil(timeout: TimeInterval = 10, _ condition: () throws -> Bool) rethrows -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while true {
    if try condition() { return true }
    if Date() >= deadline { return false }
    usleep(5_000)
  }
}
