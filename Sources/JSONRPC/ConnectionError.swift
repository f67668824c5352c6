// Local failures of a connection: closed, timed out, cancelled, or a system call that failed.

/// Why a request sent to the peer got no answer, or why a connection could not be set up.
/// (An error *answer* from the peer is a ``ResponseError``.)
public enum ConnectionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The connection closed before the response arrived (or before the message could be sent).
  case closed
  /// No response within the timeout; `$/cancelRequest` was sent to the peer.
  case timedOut(method: String, id: RequestID)
  /// The request was cancelled locally (``Connection/cancelRequest(_:)`` or task cancellation).
  case cancelled(method: String, id: RequestID)
  /// A system call failed (name, errno).
  case system(String, Int32)

  public var description: String {
    switch self {
    case .closed: return "connection closed"
    case .timedOut(let method, let id): return "request \(id) (\(method)) timed out"
    case .cancelled(let method, let id): return "request \(id) (\(method)) cancelled"
    case .system(let call, let code): return "\(call) failed: \(String(cString: strerror(code)))"
    }
  }
}

/// Why a connection closed, passed to ``Connection/onClose(_:)`` handlers.
public enum CloseReason: Hashable, Sendable, CustomStringConvertible {
  /// ``Connection/close()`` was called.
  case closedLocally
  /// The input reached end of file (after in-flight requests were answered).
  case endOfInput
  /// The peer stopped reading: the outgoing queue exceeded its limit.
  case outgoingQueueOverflow(pendingBytes: Int, limit: Int)
  /// Reading or writing failed (errno).
  case ioError(String)

  public var description: String {
    switch self {
    case .closedLocally: return "closed locally"
    case .endOfInput: return "end of input"
    case .outgoingQueueOverflow(let pending, let limit):
      return "peer stopped reading: \(pending) bytes pending exceed the limit of \(limit)"
    case .ioError(let message): return message
    }
  }
}
