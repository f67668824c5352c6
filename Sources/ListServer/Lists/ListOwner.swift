// Who answers a list's user events: a client session, or the daemon itself (demo lists).
import JSON
import JSONRPC

/// The receiver of a list's user events (`owner/event`) and refresh requests (`owner/refresh`).
protocol ListOwner: AnyObject, Sendable {
  /// The `owner` field of list info: `{session, name?}`.
  var ownerInfo: JSONValue { get }
  /// Whether the owner can still receive events (a session that closed cannot).
  var isReachable: Bool { get }
  /// Tells the owner it no longer owns `list`: another session disposed it (`disposed`) or
  /// claimed it (`claimed`) with `force`; `by` is that session's `{session, name?}`.
  func lost(_ list: LiveList, reason: String, by: JSONValue)
  /// Delivers a user event (`owner/event` params).
  func deliver(event: JSONValue, on list: LiveList)
  /// Asks the owner to refresh `list`; `completion` gets nil once it has, or the error to answer
  /// the viewer with (timeout, owner gone). Called exactly once, on any thread.
  func refresh(
    _ list: LiveList, viewer: Int, timeout: Duration, completion: @escaping @Sendable (ResponseError?) -> Void
  )
}
