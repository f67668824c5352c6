// One session's subscription to one list: its window (if windowed), the versions it may still be sent, and how far behind it is.
import Dispatch
import JSON
import ListModel
import ListProtocol
import Synchronization

/// A session's subscription to one list, registered in the list's subscribers.
///
/// Sends through the gate of the `list/subscribe` that made it (several lists share the gate of
/// a subscription to all lists). A windowed subscription's window moves with `list/setWindow`,
/// which starts it afresh at a version: notifications of that version or older still on their
/// way (waiting for the journal) are dropped, the answer having superseded them.
///
/// **No subscriber left behind** (Protocol/README.md §6): while the session's connection has
/// ``Session/composeThreshold`` bytes or more queued, changes are not queued to it; the
/// subscription remembers the last version it was sent (and that version's snapshot) and the
/// latest one. Once the queue drains, one `didChange` composed from the first to the second
/// (their diff) catches it up. Memory is two snapshots, whatever the number of versions missed.
/// A composed change that would not fit in the queue's hard limit ends the subscription with
/// `list/resync` instead.
final class ListSubscription: Sendable {
  /// The versions a subscription that fell behind has missed.
  private struct Behind {
    /// The last version sent, and the list then.
    var base: (version: Int, snapshot: ListSnapshot)
    /// The latest version committed (and made durable), and the list then.
    var latest: (version: Int, snapshot: ListSnapshot)
    /// A catch-up is being composed (outside the lock).
    var composing = false
  }

  private struct State {
    var window: RowWindow?
    /// Versions up to this one are not sent (the subscription started after them).
    var floor: Int
    /// Replaced by a newer subscription or unsubscribed: sends nothing more.
    var retired = false
    var behind: Behind?
  }

  let list: String
  let gate: SubscriptionGate
  /// Removes this subscription from its list (after a resync).
  private let detach: @Sendable (ListSubscription) -> Void
  private let state: Mutex<State>

  var session: Session { gate.session }

  init(
    list: String, gate: SubscriptionGate, window: RowWindow?, version: Int,
    detach: @escaping @Sendable (ListSubscription) -> Void
  ) {
    self.list = list
    self.gate = gate
    self.detach = detach
    state = Mutex(State(window: window, floor: version))
  }

  /// The window, nil for a full subscription.
  var window: RowWindow? { state.withLock { $0.window } }

  /// Whether it is behind (a composed change is due).
  var isBehind: Bool { state.withLock { $0.behind != nil && !$0.retired } }

  /// Moves the window; the subscription starts afresh at `version` (the answer describes it, so
  /// whatever it had missed is superseded). Call on the list's queue.
  func setWindow(_ window: RowWindow, at version: Int) {
    state.withLock { state in
      state.window = window
      state.floor = max(state.floor, version)
      state.behind = nil
    }
  }

  /// Stops every later send.
  func retire() { state.withLock { $0.retired = true } }

  /// Sends the encoded `didChange` of `version` (from `old` to `new`, the list at `version - 1`
  /// and `version`) unless the subscription started after it or was retired — or, when the
  /// session's queue is past its threshold (or the body would not fit), records it as missed.
  /// False if the connection has closed.
  func deliver(version: Int, body: [UInt8], old: ListSnapshot, new: ListSnapshot) -> Bool {
    let fellBehind = state.withLock { state -> Bool? in
      guard !state.retired, version > state.floor else { return false }
      if state.behind != nil {
        state.behind!.latest = (version, new)
        return false
      }
      if session.mustHoldBack(body.count) {
        state.behind = Behind(base: (version - 1, old), latest: (version, new))
        return true
      }
      return gate.send(encoded: body) ? false : nil
    }
    guard let fellBehind else { return false }
    if fellBehind { session.fellBehind(self) }
    return true
  }

  /// Composes and sends the change from the last version sent to the latest, if behind; again
  /// while more versions come meanwhile and the queue has room. Runs off any list's queue (the
  /// diff is O(the list)); ``Session`` calls it once its queue has drained.
  func catchUp() {
    while true {
      let taken = state.withLock { state -> (Behind, RowWindow?)? in
        guard !state.retired, let behind = state.behind, !behind.composing else { return nil }
        state.behind!.composing = true
        return (behind, state.window)
      }
      guard let (behind, window) = taken else { return }
      let changeset = ListSnapshot.diff(from: behind.base.snapshot, to: behind.latest.snapshot)
      let encoded = ChangesetEncoding.changeset(
        changeset,
        rows: window.map { .window($0, old: behind.base.snapshot, new: behind.latest.snapshot) } ?? .all)
      let body = Session.encodeNotification(
        "list/didChange",
        [
          "list": .string(list), "version": .int(Int64(behind.latest.version)),
          "previousVersion": .int(Int64(behind.base.version)), "changeset": encoded,
        ])
      enum Next { case done, again, wait, resync }
      let next = state.withLock { state -> Next in
        // Superseded meanwhile (setWindow, a new subscription, an unsubscribe): drop it.
        guard !state.retired, let current = state.behind, current.composing,
          current.base.version == behind.base.version
        else { return .done }
        if session.exceedsHardLimit(body.count) {
          state.retired = true
          state.behind = nil
          session.resync(list: list, version: behind.base.version)
          return .resync
        }
        _ = gate.send(encoded: body)
        if current.latest.version == behind.latest.version {
          state.behind = nil
          return .done
        }
        state.behind = Behind(base: behind.latest, latest: current.latest)
        return session.mustHoldBack(0) ? .wait : .again
      }
      switch next {
      case .done: return
      case .again: continue
      case .wait: return session.fellBehind(self)
      case .resync: return detach(self)
      }
    }
  }
}
