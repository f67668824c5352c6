// One client connection: its lifecycle phase, subscriptions, trace level and pending changes.
import Dispatch
import JSON
import JSONRPC
import ListProtocol
import Synchronization

/// A client of the daemon: one JSON-RPC connection (stdio or a socket).
final class Session: Sendable {
  /// Where the session is in the LSP-style lifecycle.
  enum Phase: Sendable {
    case uninitialized, initialized, shutDown
  }

  /// `$/setTrace` values.
  enum Trace: String, CaseIterable, Sendable {
    case off, messages, verbose
  }

  private struct State {
    var phase = Phase.uninitialized
    var clientName: String?
    var trace = Trace.off
    var subscriptions: Set<String> = []
    var subscribedToAll = false
    /// Changes this session has queued per list and not yet seen answered: its queries of
    /// such a list wait on the list's queue, so they see their own changes.
    var pendingChanges: [String: Int] = [:]
    /// Set first thing when the connection has closed; see ``isDetached``.
    var isDetached = false
    /// The client sent `exit`: it ends the session itself, and needs no `daemon/stopping`.
    var sentExit = false
    /// Subscriptions that fell behind and wait for the queue to drain (ListSubscription).
    var behind: [ObjectIdentifier: ListSubscription] = [:]
  }

  let id: Int
  let connection: Connection
  /// Whether this is the stdio session, whose `exit` ends the daemon.
  let isPrimary: Bool
  private let state = Mutex(State())

  init(id: Int, connection: Connection, isPrimary: Bool) {
    self.id = id
    self.connection = connection
    self.isPrimary = isPrimary
    connection.onDrain { [weak self] in self?.drained() }
  }

  /// Whether the session's connection has closed and the server is forgetting it. Anything that
  /// registers the session somewhere (a subscription, an owner) checks this *after* registering
  /// and undoes it if set: the detach either saw the registration or set the flag before the
  /// check, so a session that closes mid-request is never kept alive (with its descriptors).
  var isDetached: Bool { state.withLock { $0.isDetached } }
  func markDetached() {
    state.withLock { state in
      state.isDetached = true
      state.behind = [:]  // nothing more to catch up (and no cycle through the subscriptions)
    }
  }

  var sentExit: Bool { state.withLock { $0.sentExit } }
  func markSentExit() { state.withLock { $0.sentExit = true } }

  var phase: Phase { state.withLock { $0.phase } }
  var clientName: String? { state.withLock { $0.clientName } }
  var trace: Trace { state.withLock { $0.trace } }
  var subscribedToAll: Bool { state.withLock { $0.subscribedToAll } }
  var subscriptions: Set<String> { state.withLock { $0.subscriptions } }

  func setPhase(_ phase: Phase) { state.withLock { $0.phase = phase } }
  func setClientName(_ name: String?) { state.withLock { $0.clientName = name } }
  func setTrace(_ trace: Trace) { state.withLock { $0.trace = trace } }
  func setSubscribedToAll(_ flag: Bool) { state.withLock { $0.subscribedToAll = flag } }

  func addSubscription(_ list: String) { _ = state.withLock { $0.subscriptions.insert(list) } }
  func removeSubscription(_ list: String) { _ = state.withLock { $0.subscriptions.remove(list) } }

  /// The session as list info shows an owner: its id and client name.
  var identity: OwnerIdentity { OwnerIdentity(session: id, name: clientName) }

  // MARK: - Pending changes

  /// Records a change queued on `list`; balance with ``changeFinished(_:)``.
  func changeQueued(_ list: String) {
    state.withLock { $0.pendingChanges[list, default: 0] += 1 }
  }

  func changeFinished(_ list: String) {
    state.withLock { state in
      let left = (state.pendingChanges[list] ?? 1) - 1
      state.pendingChanges[list] = left > 0 ? left : nil
    }
  }

  /// Whether a change this session sent to `list` is still queued.
  func hasPendingChange(_ list: String) -> Bool {
    state.withLock { $0.pendingChanges[list] != nil }
  }

  // MARK: - Slow readers (no subscriber left behind)

  /// Queued bytes from which changes are held back and composed (ListSubscription): 1 MiB, or a
  /// quarter of `--max-queue-bytes` when that is smaller.
  var composeThreshold: Int { min(1 << 20, connection.options.maxOutgoingBytes / 4) }

  /// Whether a notification of `bytes` must be held back: the queue is past the threshold, or
  /// the notification would not fit under the hard limit.
  func mustHoldBack(_ bytes: Int) -> Bool {
    let queued = connection.queuedBytes
    return queued >= composeThreshold || queued + bytes > connection.options.maxOutgoingBytes
  }

  /// Whether `bytes` more would pass `--max-queue-bytes` (a composed change that big is a resync).
  func exceedsHardLimit(_ bytes: Int) -> Bool {
    connection.queuedBytes + bytes > connection.options.maxOutgoingBytes
  }

  /// Registers a subscription that held a change back; it catches up once the queue drains.
  func fellBehind(_ subscription: ListSubscription) {
    state.withLock { $0.behind[ObjectIdentifier(subscription)] = subscription }
    drained()  // the queue may have drained already: no later write would call it
  }

  /// After a write: once the queue is under half the threshold, every subscription that fell
  /// behind composes its catch-up (off the writing thread: a diff is O(the list)).
  private func drained() {
    guard connection.queuedBytes < composeThreshold / 2 else { return }
    let waiting = state.withLock { state -> [ListSubscription] in
      defer { state.behind = [:] }
      return Array(state.behind.values)
    }
    for subscription in waiting { DispatchQueue.global().async { subscription.catchUp() } }
  }

  /// Tells the client its subscription to `list` ended at `version`, too far behind to catch up
  /// within `--max-queue-bytes`: `list/resync {list, version}`.
  func resync(list: String, version: Int) {
    removeSubscription(list)
    notify("list/resync", ["list": .string(list), "version": .int(Int64(version))])
  }

  /// The lists this session has changes queued on. O(those lists).
  var listsWithPendingChanges: [String] {
    state.withLock { Array($0.pendingChanges.keys) }
  }

  // MARK: - Sending

  /// Encodes a notification once, for sending the same bytes to many sessions.
  static func encodeNotification(_ method: String, _ params: JSONValue) -> [UInt8] {
    Message.notification(Notification(method: method, params: params)).jsonBytes()
  }

  /// Sends an encoded message; false if the connection has closed (or just overflowed).
  @discardableResult
  func send(encoded body: [UInt8]) -> Bool {
    connection.send(body: body)
  }

  /// Sends a notification; false if the connection has closed.
  @discardableResult
  func notify(_ method: String, _ params: JSONValue) -> Bool {
    connection.notify(method, params)
  }

  /// Sends `window/logMessage` (1 error, 2 warning, 3 info, 4 log).
  func logMessage(_ type: Int, _ message: String) {
    notify("window/logMessage", ["type": .int(Int64(type)), "message": .string(message)])
  }

  /// Sends `$/logTrace` if tracing is on.
  func logTrace(_ message: @autoclosure () -> String, verbose: @autoclosure () -> String?) {
    switch trace {
    case .off: return
    case .messages: notify("$/logTrace", ["message": .string(message())])
    case .verbose:
      var params: JSONObject = ["message": .string(message())]
      if let detail = verbose() { params.append("verbose", .string(detail)) }
      notify("$/logTrace", .object(params))
    }
  }
}

/// A session owns the lists it creates: user events on them come to it.
extension Session: ListOwner {
  var isReachable: Bool { !connection.isClosed }

  func deliver(event: OwnerEvent, on list: LiveList) {
    notify("owner/event", event.params)
  }

  func lost(_ list: LiveList, reason: String, by: OwnerIdentity) {
    notify("owner/lost", ["list": .string(list.id), "reason": .string(reason), "by": by.json])
  }

  func refresh(
    _ list: LiveList, viewer: Int, timeout: Duration, completion: @escaping @Sendable (ListError?) -> Void
  ) {
    let params: JSONValue = ["list": .string(list.id), "session": .int(Int64(viewer))]
    connection.sendRequest("owner/refresh", params, timeout: timeout) { result in
      switch result {
      case .success: completion(nil)
      case .failure(let error as ResponseError):
        completion(
          .refreshFailed(list: list.id, .answered(code: error.code.rawValue, message: error.message)))
      case .failure(ConnectionError.timedOut): completion(.refreshFailed(list: list.id, .timedOut(timeout)))
      case .failure: completion(.refreshFailed(list: list.id, .ownerGone))
      }
    }
  }
}
