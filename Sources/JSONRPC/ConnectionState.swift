// A connection's mutable state and registered handlers, each behind its own lock.
import JSON

extension Connection {
  enum RequestHandler: Sendable {
    case sync(CancellationPolicy, @Sendable (IncomingRequest) throws -> JSONValue)
    /// `inline`: may run on the reading thread when no handler is queued (see
    /// ``onRequestDeferred(_:cancellation:inline:_:)``).
    case deferred(CancellationPolicy, inline: Bool, @Sendable (IncomingRequest) throws -> Void)
    case async(CancellationPolicy, @Sendable (IncomingRequest) async throws -> JSONValue)

    var policy: CancellationPolicy {
      switch self {
      case .sync(let policy, _), .deferred(let policy, _, _), .async(let policy, _): return policy
      }
    }

    var isInline: Bool {
      if case .deferred(_, true, _) = self { return true }
      return false
    }
  }

  struct Handlers {
    var requests: [String: RequestHandler] = [:]
    var notifications: [String: @Sendable (IncomingNotification) throws -> Void] = [:]
    var unhandledRequest: RequestHandler?
    var unhandledNotification: (@Sendable (IncomingNotification) throws -> Void)?
    var unmatchedResponse: (@Sendable (Response) -> Void)?
    var gate: (@Sendable (String, Bool) -> ResponseError?)?
    /// Set by ``Connection/stopReading(holdingOpen:refusing:)``: the answer to a request read
    /// after it, which does not run.
    var refusal: (@Sendable (String) -> ResponseError)?
    var closeHandlers: [@Sendable (CloseReason) -> Void] = []
    /// Called after each batch the writer has written (``Connection/onDrain(_:)``).
    var drain: (@Sendable () -> Void)?
    /// Set when the connection has finished closing; later close handlers run at once.
    var finishedReason: CloseReason?
  }

  struct PendingRequest {
    let method: String
    let completion: @Sendable (Result<JSONValue, any Error>) -> Void
  }

  final class WeakRequest {
    weak var request: IncomingRequest?
    init(_ request: IncomingRequest) { self.request = request }
  }

  struct State {
    var started = false
    var closed = false
    /// Closed, flushed, and the descriptors closed (after lingering, see `lingerTimeout`).
    var finished = false
    /// The flush gave up: frames were dropped, so there is nothing to linger for.
    var outputDropped = false
    /// Reading has ended (end of file, or ``Connection/stopReading(holdingOpen:refusing:)``)
    /// and every handler dispatched has run.
    var inputDrained = false
    /// ``Connection/stopReading(holdingOpen:refusing:)`` was called.
    var stopRequested = false
    /// Stay open once every request read is answered: whoever stopped the reading closes.
    var holdsOpen = false
    var detectedFraming: Framing?
    var nextID: Int64 = 1
    var pending: [RequestID: PendingRequest] = [:]
    var inFlight: [RequestID: WeakRequest] = [:]
    /// Answers being queued: their ids are free for reuse, but the connection may not close yet.
    var answering = 0
    /// Input and output sides still open (2 once started); the last to end finishes the close.
    var openSides = 0
    var closeReason: CloseReason?

    /// Reading has ended and every request read has been answered (queued for the peer).
    var answeredAll: Bool { inputDrained && inFlight.isEmpty && answering == 0 }
  }
}
