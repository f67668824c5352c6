// The daemon: attaches connections as sessions, gates the lifecycle, and dispatches to the handlers.
import Dispatch
import JSON
import JSONRPC
import ListModel
import ListProtocol
import Synchronization

/// The listd server: the list registry plus every attached session.
///
/// Each connection is dispatched serially (in arrival order); handlers answer quickly or hop to
/// the list's queue and answer from there, so one session's slow change never stalls another
/// session, and changes of one list stay in arrival order across sessions.
public final class ListServer: Sendable {
  public let options: ServerOptions
  let registry = ListRegistry()
  private let nextSessionID = Atomic<Int>(1)
  /// The journal (`--state`) and what startup found wrong in it, once ``openState()`` ran.
  let durability = Mutex<(journal: Journal?, problems: [String], reported: Bool)>((nil, [], false))
  /// The serial of the next list created (see ``LiveList/serial``).
  let nextListSerial = Atomic<Int>(1)
  /// Called when the primary (stdio) session sends `exit`, with the exit code.
  private let onExit: @Sendable (Int32) -> Void
  /// Set when the daemon begins to stop (``stop(_:)``): no session is attached from then on.
  /// Attaching and the stop's list of sessions are atomic under this lock.
  let stopping = Mutex(false)
  /// Set when the stdio session's connection has closed at the end of its input, every request
  /// it read answered: a stop for `endOfInput` then counts it among the sessions it ended.
  let primaryAnsweredAll = Atomic<Bool>(false)

  public init(
    options: ServerOptions = ServerOptions(), onExit: @escaping @Sendable (Int32) -> Void = { _ in }
  ) {
    self.options = options
    self.onExit = onExit
  }

  /// The connection options a session's connection should use under these server options.
  public func connectionOptions(name: String) -> Connection.Options {
    Connection.Options(
      maxFrameSize: options.maxFrameBytes, maxOutgoingBytes: options.maxQueueBytes, dispatch: .serial,
      logger: options.logger, name: name, lingerTimeout: options.lingerTimeout)
  }

  /// Serves `connection` as a new session and starts it. `primary` marks the stdio session,
  /// whose `exit` ends the daemon. Once the daemon is stopping, the connection is closed unread.
  public func attach(_ connection: Connection, primary: Bool) {
    let session = Session(
      id: nextSessionID.wrappingAdd(1, ordering: .relaxed).oldValue, connection: connection,
      isPrimary: primary)
    let admitted = stopping.withLock { stopping -> Bool in
      if stopping { return false }
      registry.addSession(session)
      return true
    }
    guard admitted else {
      options.logger.info("closed a new connection unread: the daemon is stopping")
      connection.close()
      return
    }
    let context = HandlerContext(server: self, session: session)
    for method in MethodTable.requests {
      let handler = method.handler
      connection.onRequestDeferred(method.name, cancellation: method.cancellation, inline: method.inline) {
        request in
        session.logTrace(
          "received request '\(request.method)' (id \(request.id))",
          verbose: request.rawParams.map { "\($0)" })
        do {
          try handler(context, request)
        } catch {
          throw ResponseError.mapping(error)  // a list's refusal as its JSON-RPC error
        }
      }
    }
    for (method, handler) in MethodTable.notifications {
      connection.onNotification(method) { notification in try handler(context, notification) }
    }
    connection.setGate { method, isRequest in Self.gate(session, method: method, isRequest: isRequest) }
    connection.onClose { [weak self] reason in
      if primary && reason == .endOfInput { self?.primaryAnsweredAll.store(true, ordering: .releasing) }
      self?.detach(session)
      self?.options.logger.info("session \(session.id) closed: \(reason)")
    }
    options.logger.info("session \(session.id) attached\(primary ? " (stdio)" : "")")
    connection.start()
  }

  /// The lifecycle gate, run in arrival order on the reading thread: -32002 before
  /// `initialize`, -32600 after `shutdown`; notifications other than `exit` are dropped then.
  /// `exit` stops the reading right there: what follows it is not executed.
  private static func gate(_ session: Session, method: String, isRequest: Bool) -> ResponseError? {
    if method == "exit" && !isRequest {
      session.markSentExit()
      // The stdio session stays open for the daemon's stop to close; a socket session closes
      // once everything read before `exit` is answered.
      session.connection.stopReading(holdingOpen: session.isPrimary) { method in
        .stopping(method, "this session sent exit")
      }
    }
    switch session.phase {
    case .uninitialized:
      if method == "initialize" && isRequest {
        session.setPhase(.initialized)
        return nil
      }
      if !isRequest { return method == "exit" ? nil : ResponseError.serverNotInitialized(method) }
      return .serverNotInitialized(method)
    case .initialized:
      if method == "initialize" && isRequest {
        return .invalidRequest("\"method\" \"initialize\" was already received on this connection")
      }
      if method == "shutdown" && isRequest { session.setPhase(.shutDown) }
      return nil
    case .shutDown:
      if method == "exit" { return nil }
      return .invalidRequest("\"method\" \"\(method)\" arrived after shutdown; only exit is accepted")
    }
  }

  /// `exit`: ends the daemon for the primary session. (Any session's connection stopped reading
  /// at `exit`, in the gate; a socket session's closes once it has answered what it read.)
  func exit(_ session: Session) {
    if session.isPrimary { onExit(session.phase == .shutDown ? 0 : 1) }
  }

  /// Forgets a closed session: its subscriptions end and the lists it owns lose their owner.
  private func detach(_ session: Session) {
    session.markDetached()
    registry.removeSession(session)
    for list in registry.lists {
      list.unsubscribe(session.id)
      // Not `list.owner`: it already hides this session, whose connection has closed.
      orphan(list, from: session)
    }
  }

  /// Drops `session` as the owner of `list` (its connection closed): subscribers are warned,
  /// and with `--orphan-timeout` the list is disposed unless claimed in time. Nothing if
  /// `session` did not own it.
  func orphan(_ list: LiveList, from session: Session) {
    guard let orphaning = list.releaseOwner(session) else { return }
    var warning = "list '\(list.id)' lost its owner (session \(session.id) closed); user events will fail"
    warning += " until a session claims it (list/claim)"
    if let timeout = options.orphanTimeout { warning += ", or it is disposed in \(timeout)" }
    for subscriberID in list.subscriberIDs {
      registry.session(subscriberID)?.logMessage(2, warning)
    }
    if let timeout = options.orphanTimeout { disposeOrphan(list, orphaning, after: timeout) }
  }

  /// Disposes `list` after `timeout` unless a session claimed it meanwhile (`--orphan-timeout`).
  private func disposeOrphan(_ list: LiveList, _ orphaning: Int, after timeout: Duration) {
    list.queue.asyncAfter(deadline: .now() + .nanoseconds(Int(timeout / .nanoseconds(1)))) { [weak self] in
      guard let self, list.isStillOrphaned(orphaning), (try? self.dispose(list)) != nil else { return }
      self.options.logger.info("disposed list '\(list.id)': no session claimed it within \(timeout)")
    }
  }

  /// Disposes `list` and tells every session (`list/didDispose`); returns that notification's
  /// params, which answer `list/dispose` once the returned ticket is durable. Must run on the
  /// list's queue. Throws -32010 if it is already disposed.
  func dispose(_ list: LiveList) throws(ResponseError) -> DurableAnswer {
    let disposal = try mappingListErrors { () throws(ListError) in
      try list.dispose(journaling: list.derivation == nil)
    }
    registry.remove(list)
    // A view goes with its source: disposed first, each on its own queue.
    list.derivation?.source.removeView(list)
    for view in list.views { _ = view.queue.sync { try? dispose(view) } }
    for session in disposal.subscribers { session.removeSubscription(list.id) }
    let params: JSONValue = ["list": .string(list.id), "version": .int(Int64(disposal.version))]
    registry.broadcast("list/didDispose", params)
    return DurableAnswer(params, after: disposal.durabilityTicket)
  }

  // MARK: - Lists

  /// A list just created, and the ticket its creation's answer waits for.
  struct CreatedList: Sendable {
    let list: LiveList
    /// Set in `--sync batch` mode: the creation is answered once it is durable.
    let durabilityTicket: DurabilityTicket?
  }

  /// Creates a list and announces it, on the list's queue before anything else can change it:
  /// each subscription to all lists starts at version 0 with a `list/didCreate` carrying the
  /// content in the form it asked for; every other session gets a plain `list/didCreate`. With
  /// `--state` the creation is journaled first (in the same turn of the list's queue, so no
  /// change of the list can be journaled before it); the ticket to wait for before answering
  /// comes back in `--sync batch` mode.
  /// A view (`derivation` set) is never journaled: views do not outlive the daemon.
  func createList(
    id: String, snapshot: ListSnapshot, metadata: ListMetadata, owner: (any ListOwner)?,
    derivation: ViewDerivation? = nil
  ) throws(ResponseError) -> CreatedList {
    let journal = derivation == nil ? durability.withLock { $0.journal } : nil
    let list = LiveList(
      id: id, snapshot: snapshot, metadata: metadata, owner: owner, historyLimit: options.historyLimit,
      explainLimit: options.explainLimit, serial: nextListSerial.wrappingAdd(1, ordering: .relaxed).oldValue,
      journal: journal, derivation: derivation)
    let outcome = list.queue.sync { () -> Result<DurabilityTicket?, ResponseError> in
      let subscriptions: [AllListsSubscription]
      do throws(ListError) {
        subscriptions = try registry.add(list)
      } catch {
        return .failure(ResponseError(error))
      }
      var ticket: DurabilityTicket?
      if let journal {
        do throws(JournalError) {
          ticket = DurabilityTicket(
            journal,
            try journal.append(
              .state(list: id, serial: list.serial, version: 0, metadata: metadata, snapshot: snapshot)))
        } catch {
          registry.remove(list)
          journal.logRefusal(error)
          return .failure(.journalFailed(list: id, error))
        }
      }
      let subscribed = subscriptions.filter { (try? list.subscribe($0.gate, window: $0.form.window)) != nil }
      let info = ListInfo.encode(list)
      for subscription in subscribed {
        subscription.gate.session.addSubscription(id)
        var params: JSONObject = ["list": .string(id), "info": info]
        subscription.form.append(snapshot, to: &params)
        _ = subscription.gate.send(encoded: Session.encodeNotification("list/didCreate", .object(params)))
      }
      registry.broadcast(
        "list/didCreate", ["list": .string(id), "info": info],
        excluding: Set(subscribed.map(\.gate.session.id)))
      return .success(ticket)
    }
    let ticket = try outcome.get()
    if let session = owner as? Session, session.isDetached { orphan(list, from: session) }
    return CreatedList(list: list, durabilityTicket: ticket)
  }
}
