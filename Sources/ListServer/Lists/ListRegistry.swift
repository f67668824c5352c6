// Every live list by id, every session, and who subscribed to all lists.
import ListProtocol
import Synchronization

/// The lists the daemon holds, shared by every session, and the sessions themselves.
final class ListRegistry: Sendable {
  private struct State {
    var lists: [String: LiveList] = [:]
    /// The lists in creation order, so `list/all` answers in a stable order and pages in O(page).
    var order: [LiveList] = []
    var sessions: [Int: Session] = [:]
    /// Sessions subscribed to every list, present and future.
    var allSubscribers: [Int: AllListsSubscription] = [:]
  }

  private let state = Mutex(State())

  /// The list named `id`. O(1).
  func existingList(_ id: String) throws(ListError) -> LiveList {
    guard let list = state.withLock({ $0.lists[id] }) else { throw .unknownList(id) }
    return list
  }

  /// Every list, in creation order. O(lists).
  var lists: [LiveList] {
    state.withLock { $0.order }
  }

  /// The lists at `offset..<offset+limit` in creation order (fewer at the end), and how many
  /// lists there are. O(limit).
  func lists(offset: Int, limit: Int) -> (page: [LiveList], total: Int) {
    state.withLock { state in
      let start = min(offset, state.order.count)
      let end = start + min(limit, state.order.count - start)
      return (Array(state.order[start..<end]), state.order.count)
    }
  }

  /// Registers a new list, or throws ``ListError/duplicateList(_:)`` if the id is taken. Returns the subscriptions to all
  /// lists, which the caller applies on the list's queue before any change.
  func add(_ list: LiveList) throws(ListError) -> [AllListsSubscription] {
    let subscribers = state.withLock { state -> [AllListsSubscription]? in
      guard state.lists[list.id] == nil else { return nil }
      state.lists[list.id] = list
      state.order.append(list)
      return Array(state.allSubscribers.values)
    }
    guard let subscribers else { throw .duplicateList(list.id) }
    return subscribers
  }

  /// Forgets a list. O(lists).
  func remove(_ list: LiveList) {
    state.withLock { state in
      guard state.lists[list.id] === list else { return }
      state.lists[list.id] = nil
      state.order.removeAll { $0 === list }
    }
  }

  /// Marks a session subscribed to every list and returns the lists existing now; lists added
  /// later come with it in ``add(_:)``'s answer. Atomic with ``add(_:)``, so each list is either
  /// returned here or announced to the subscription by its creation, never both.
  func subscribeToAll(_ subscription: AllListsSubscription) -> [LiveList] {
    let lists = state.withLock { state in
      state.allSubscribers[subscription.gate.session.id] = subscription
      return state.order
    }
    if subscription.gate.session.isDetached { unsubscribeFromAll(subscription.gate.session) }
    return lists
  }

  func unsubscribeFromAll(_ session: Session) {
    _ = state.withLock { $0.allSubscribers.removeValue(forKey: session.id) }
  }

  // MARK: - Sessions

  func addSession(_ session: Session) {
    state.withLock { $0.sessions[session.id] = session }
  }

  func removeSession(_ session: Session) {
    state.withLock { state in
      state.sessions[session.id] = nil
      state.allSubscribers[session.id] = nil
    }
  }

  /// Every attached session.
  var sessions: [Session] {
    state.withLock { Array($0.sessions.values) }
  }

  /// The session with this id, if attached.
  func session(_ id: Int) -> Session? {
    state.withLock { $0.sessions[id] }
  }

  /// Sessions past `initialize`. O(sessions).
  var initializedSessions: [Session] {
    state.withLock { Array($0.sessions.values) }.filter { $0.phase == .initialized }
  }
}

/// A session's subscription to every list, present and future: how new lists reach it.
struct AllListsSubscription: Sendable {
  /// The gate of the `list/subscribe` that made it (notifications wait for its answer).
  let gate: SubscriptionGate
  /// What a new list's `list/didCreate` carries to this session.
  let form: SnapshotForm
}
