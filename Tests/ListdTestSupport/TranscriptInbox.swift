// A raw client's messages taken by id or in order, whatever order they arrive in (transcripts, pipelined reads).
import Foundation
import JSON

/// Messages from a server in arrival order, taken by id (responses) or in order (notifications);
/// what is not taken yet waits in `pending`.
public final class TranscriptInbox {
  public let raw: RawClient
  public private(set) var pending: [JSONValue] = []

  public init(_ raw: RawClient) { self.raw = raw }

  /// The response to request `id`.
  public func response(to id: JSONValue, timeout: TimeInterval = 10) -> JSONValue? {
    take(timeout: timeout) { $0["id"] == id && $0["method"] == nil }
  }

  /// The next notification, in arrival order.
  public func notification(timeout: TimeInterval = 10) -> JSONValue? {
    take(timeout: timeout) { $0["method"] != nil && $0["id"] == nil }
  }

  private func take(timeout: TimeInterval, _ matching: (JSONValue) -> Bool) -> JSONValue? {
    if let index = pending.firstIndex(where: matching) { return pending.remove(at: index) }
    let deadline = Date().addingTimeInterval(timeout)
    while let message = raw.next(timeout: max(0, deadline.timeIntervalSinceNow)) {
      if matching(message) { return message }
      pending.append(message)
    }
    return nil
  }
}
