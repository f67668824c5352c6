// A list's subscribers: who is told of its changes, and through which window.
import ListModel
import ListProtocol

extension LiveList {
  /// Adds a subscriber (or renews a subscription) and returns the committed state it starts
  /// from: it receives every later change, through `gate` (which holds them until the answer
  /// describing this state is sent). Must run on ``queue`` so no change slips between the state
  /// and the registration.
  func subscribe(_ gate: SubscriptionGate, window: RowWindow? = nil) throws(ListError) -> Committed {
    let result = state.withLock { state -> Committed? in
      guard !state.isDisposed else { return nil }
      let subscription = ListSubscription(
        list: id, gate: gate, window: window, version: state.committed.version,
        detach: { [weak self] in self?.unsubscribe($0) })
      state.subscribers.updateValue(subscription, forKey: gate.session.id)?.retire()
      return state.committed
    }
    guard let result else { throw .unknownList(id) }
    if gate.session.isDetached { unsubscribe(gate.session.id) }  // closed meanwhile (Session.isDetached)
    return result
  }

  /// The ids of the subscribed sessions.
  var subscriberIDs: [Int] { state.withLock { Array($0.subscribers.keys) } }

  /// Removes a subscriber. Any thread.
  func unsubscribe(_ sessionID: Int) {
    state.withLock { $0.subscribers.removeValue(forKey: sessionID) }?.retire()
  }

  /// Removes `subscription` if it is still the session's current one. Any thread.
  func unsubscribe(_ subscription: ListSubscription) {
    state.withLock { state in
      if state.subscribers[subscription.session.id] === subscription {
        state.subscribers[subscription.session.id] = nil
      }
    }
  }

  /// Moves the window of `session`'s subscription and returns the committed state it starts
  /// afresh from; ``ListError/invalidParams(_:field:)`` naming `list` without a subscription.
  /// Must run on ``queue``.
  func setWindow(_ window: RowWindow, session: Int) throws(ListError) -> Committed {
    let result = state.withLock { state -> (Committed, Bool)? in
      guard !state.isDisposed else { return nil }
      guard let subscription = state.subscribers[session] else { return (state.committed, false) }
      subscription.setWindow(window, at: state.committed.version)
      return (state.committed, true)
    }
    guard let result else { throw .unknownList(id) }
    guard result.1 else {
      throw .invalidParams("list '\(id)' has no subscription from this session", field: "list")
    }
    return result.0
  }
}
