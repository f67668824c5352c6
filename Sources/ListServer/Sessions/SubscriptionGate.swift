// Holds a session's notifications of newly subscribed lists until the subscribe answer is sent.
import Synchronization

/// The notifications a `list/subscribe` must not let overtake its answer.
///
/// The subscription is registered on each list's queue, but the answer (one message for every
/// list) is sent once all of them are registered; changes committed in between are held here
/// and sent, in order, right after the answer (``release()``). Later ones pass straight through.
final class SubscriptionGate: Sendable {
  private struct State {
    var isOpen = false
    var held: [[UInt8]] = []
  }

  let session: Session
  private let state: Mutex<State>

  /// A gate for `session`; `isOpen` for a subscription whose start needs no answer first (a
  /// list created while the session is subscribed to every list, announced on the list's queue).
  init(session: Session, isOpen: Bool = false) {
    self.session = session
    state = Mutex(State(isOpen: isOpen))
  }

  /// Sends an encoded notification to the session, or holds it until ``release()``. False if
  /// the connection has closed (or overflowed).
  func send(encoded body: [UInt8]) -> Bool {
    state.withLock { state in
      guard state.isOpen else {
        state.held.append(body)
        return true
      }
      return session.send(encoded: body)
    }
  }

  /// Sends what was held, in order, and lets later notifications through. Call right after the
  /// answer was queued on the connection.
  func release() {
    state.withLock { state in
      state.isOpen = true
      for body in state.held { session.send(encoded: body) }
      state.held = []
    }
  }
}
