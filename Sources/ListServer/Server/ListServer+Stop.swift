// The daemon's clean stop: every session stops reading, answers what it read, hears why, and closes.
import JSON
import JSONRPC
import ListProtocol

/// Why the daemon stops; `daemon/stopping` carries it as `reason`.
public enum StopReason: String, Sendable {
  case sigterm = "SIGTERM"
  case sigint = "SIGINT"
  /// The stdio client sent `exit`.
  case exit
  /// The stdio client closed stdin (without `--stay`).
  case endOfInput

  /// How a refusal names the stop.
  var refusal: String {
    switch self {
    case .sigterm, .sigint: return "the daemon is stopping (\(rawValue))"
    case .exit: return "the daemon is stopping (the stdio client sent exit)"
    case .endOfInput: return "the daemon is stopping (stdin closed)"
    }
  }
}

extension ListServer {
  /// Stops every session cleanly, and returns once each has closed:
  ///
  /// 1. No session is attached any more, and each one stops reading: bytes not read yet stay
  ///    unread; a request read from now on is answered -32019 without being executed.
  /// 2. Every request read before runs and is answered, on every session; sessions stay open
  ///    meanwhile, so subscribers receive every change that is answered.
  /// 3. Each session gets `daemon/stopping` as its last message (not one that sent `exit`: it
  ///    asked to end), and closes, flushing for at most the flush timeout (5 s) to a peer that
  ///    does not read; a socket is then half-closed, and waits for a client still sending to
  ///    close its end for at most ``ServerOptions/lingerTimeout`` (2 s), so it reads end of file,
  ///    not a reset.
  ///
  /// Blocks the calling thread, which must not be one of a connection's.
  public func stop(_ reason: StopReason) {
    let sessions = stopping.withLock { stopping -> [Session] in
      stopping = true
      return registry.sessions
    }
    for session in sessions {
      session.connection.stopReading(holdingOpen: true) { method in .stopping(method, reason.refusal) }
    }
    for session in sessions { session.connection.waitUntilAnswered() }
    let farewell = Session.encodeNotification("daemon/stopping", ["reason": .string(reason.rawValue)])
    for session in sessions {
      if !session.sentExit { session.send(encoded: farewell) }
      session.connection.close()
    }
    for session in sessions { session.connection.waitUntilClosed() }
    // Stdin closing stops the daemon once the stdio session has answered what it read and closed.
    let stdio = reason == .endOfInput && primaryAnsweredAll.load(ordering: .acquiring) ? 1 : 0
    let count = sessions.count + stdio
    options.logger.info(
      "stopped (\(reason.rawValue)): \(count) \(count == 1 ? "session" : "sessions") answered and closed")
  }
}
