// One session's subscription to one list: its window (if windowed) and the versions it may still be sent.
import ListModel
import Synchronization

/// A session's subscription to one list, registered in the list's subscribers.
///
/// Sends through the gate of the `list/subscribe` that made it (several lists share the gate of
/// a subscription to all lists). A windowed subscription's window moves with `list/setWindow`,
/// which starts it afresh at a version: notifications of that version or older still on their
/// way (waiting for the journal) are dropped, the answer having superseded them.
final class ListSubscription: Sendable {
  private struct State {
    var window: RowWindow?
    /// Versions up to this one are not sent (the subscription started after them).
    var floor: Int
    /// Replaced by a newer subscription or unsubscribed: sends nothing more.
    var retired = false
  }

  let gate: SubscriptionGate
  private let state: Mutex<State>

  var session: Session { gate.session }

  init(gate: SubscriptionGate, window: RowWindow?, version: Int) {
    self.gate = gate
    state = Mutex(State(window: window, floor: version))
  }

  /// The window, nil for a full subscription.
  var window: RowWindow? { state.withLock { $0.window } }

  /// Moves the window; the subscription starts afresh at `version`. Call on the list's queue.
  func setWindow(_ window: RowWindow, at version: Int) {
    state.withLock { state in
      state.window = window
      state.floor = max(state.floor, version)
    }
  }

  /// Stops every later send.
  func retire() { state.withLock { $0.retired = true } }

  /// Sends the encoded `didChange` of `version` unless the subscription started after it or
  /// was retired. False if the connection has closed (or overflowed).
  func deliver(version: Int, body: [UInt8]) -> Bool {
    state.withLock { state in
      guard !state.retired, version > state.floor else { return true }
      return gate.send(encoded: body)
    }
  }
}
