// Starting a connection, stopping its reading, closing it, and waiting for either.
import Foundation

extension Connection {
  // MARK: - Lifecycle

  /// Starts serving the descriptors (on the event loop). Calling it again does nothing.
  public func start() {
    let first = state.withLock { state -> Bool in
      if state.started || state.closed || state.stopRequested { return false }
      state.started = true
      state.openSides = 2
      return true
    }
    guard first else { return }
    signal(SIGPIPE, SIG_IGN)
    if inputKind == .stream { DescriptorIO.makeNonBlocking(input) }
    if output != input && outgoing.nonBlocking { DescriptorIO.makeNonBlocking(output) }
    outgoing.onFinished = { [weak self] in self?.sideEnded() }
    outgoing.onFailed = { [weak self] code in self?.writeFailed(code) }
    outgoing.onWritten = { [weak self] in self?.handlers.withLock { $0.drain }?() }
    let loop = EventLoop.shared
    var outputChannel: Channel?
    if outgoing.pollable {
      let channel = input == output && inputKind.isPollable ? loop.channel(input) : loop.channel(output)
      outputChannel = channel
      reading.withLock { $0.channels.append(channel) }
      if channel.fd != input && !channel.register(self, input: false) {
        logger.error("\(options.name): cannot watch the output descriptor \(output)")
      }
    }
    // Output that was queued before now is written once the loop is told it is wanted.
    if let outputChannel {
      outgoing.setOutputHandler { wanted in outputChannel.setOutput(wanted) }
    }
    if inputKind.isPollable {
      let channel = outputChannel?.fd == input ? outputChannel! : loop.channel(input)
      if channel !== outputChannel { reading.withLock { $0.channels.append(channel) } }
      if !channel.register(self, input: true) {
        logger.error("\(options.name): cannot watch the input descriptor \(input)")
        reading.withLock { $0.ended = true }
        close(reason: .ioError("cannot watch the input descriptor"))
        sideEnded()
      }
    } else {
      let reader = Thread { [self] in readBlocking() }
      reader.name = "\(options.name).reader"
      reader.stackSize = 8 << 20  // room for parsing JSON nested up to maxDepth
      reader.start()
    }
  }

  /// Closes the connection: stops reading, flushes what is queued (up to `flushTimeout`), fails
  /// requests still waiting for the peer with ``ConnectionError/closed``, cancels the tokens of
  /// requests in progress, then runs the ``onClose(_:)`` handlers. Idempotent.
  public func close() {
    close(reason: .closedLocally)
  }

  /// Stops reading, for a clean stop (a signal, or `exit`): bytes the peer sent that were not
  /// read yet stay unread, and a request read from now on — the rest of a read in progress — is
  /// answered with `refusal(method)` and does not run; notifications read from now on are
  /// dropped. Requests read before run and are answered as usual. Requests sent to the peer fail
  /// with ``ConnectionError/closed`` once reading has ended, since no answer can arrive.
  ///
  /// Once every request read has been answered (``waitUntilAnswered()``) the connection closes
  /// as ``close()`` does, flushing; with `holdingOpen` it stays open instead, so more can be sent
  /// (notifications of other sessions' changes, a last word), until ``close()``. Idempotent: the
  /// first refusal stays.
  public func stopReading(
    holdingOpen: Bool, refusing refusal: @escaping @Sendable (_ method: String) -> ResponseError
  ) {
    handlers.withLock { handlers in
      if handlers.refusal == nil { handlers.refusal = refusal }
    }
    let (first, started) = state.withLock { state -> (Bool, Bool) in
      if holdingOpen { state.holdsOpen = true }
      defer { state.stopRequested = true }
      return (!state.stopRequested, state.started)
    }
    guard first else { return }
    if started {
      endReadingIfIdle()  // or the thread reading now ends the input when it is done
    } else {
      markInputDrained()
    }
  }

  /// Blocks the calling thread until reading has ended and every request read has been answered
  /// (the answers queued), or the connection has closed.
  public func waitUntilAnswered() {
    finishedCondition.lock()
    while !state.withLock({ $0.answeredAll || $0.closed }) { finishedCondition.wait() }
    finishedCondition.unlock()
  }

  /// Whether ``close()`` was called or the connection closed by itself.
  public var isClosed: Bool { state.withLock { $0.closed } }

  /// The framing of the output: fixed in the options, or detected from the input.
  public var framing: Framing? { state.withLock { options.framing ?? $0.detectedFraming } }

  /// Blocks the calling thread until the connection has closed and flushed, and its
  /// descriptors are closed — for a socket after lingering (``Options/lingerTimeout``), so a
  /// process that exits once its connections are closed cannot reset one.
  public func waitUntilClosed() {
    finishedCondition.lock()
    while !state.withLock({ $0.finished }) { finishedCondition.wait() }
    finishedCondition.unlock()
  }

  /// Suspends until the connection has closed and flushed; returns why it closed.
  public func closed() async -> CloseReason {
    await withCheckedContinuation { continuation in
      onClose { continuation.resume(returning: $0) }
    }
  }

  func close(reason: CloseReason) {
    let taken = state.withLock {
      state -> (pending: [PendingRequest], inFlight: [IncomingRequest], started: Bool)? in
      if state.closed { return nil }
      state.closed = true
      state.closeReason = reason
      let pending = Array(state.pending.values)
      state.pending = [:]
      let inFlight = state.inFlight.values.compactMap(\.request)
      return (pending, inFlight, state.started)
    }
    guard let taken else { return }
    wakeWaiters()
    switch reason {
    case .closedLocally, .endOfInput:
      if !outgoing.close(discardPending: false) && taken.started {
        // Flushing gives up at this deadline. The timer holds the connection weakly, so it
        // keeps neither it nor its descriptors alive.
        let deadline = DispatchTime.now() + .nanoseconds(Self.nanoseconds(options.flushTimeout))
        DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in self?.flushTimedOut() }
      }
    case .outgoingQueueOverflow, .ioError:
      outgoing.close(discardPending: true)
    }
    if taken.started { endReadingIfIdle() }
    for request in taken.inFlight { request.cancellation.cancel() }
    for request in taken.pending {
      DispatchQueue.global().async { request.completion(.failure(ConnectionError.closed)) }
    }
    if !taken.started { finish() }
  }

  /// The flush of a closing connection took longer than `flushTimeout`: what is left is dropped.
  func flushTimedOut() {
    guard outgoing.pending > 0 else { return }
    state.withLock { $0.outputDropped = true }
    logger.warning("\(options.name): output not flushed: the peer is not reading")
    outgoing.close(discardPending: true)
  }

  /// A write failed: the peer is gone.
  func writeFailed(_ code: Int32) {
    let message = "write failed: \(String(cString: strerror(code)))"
    logger.info("\(options.name): \(message)")
    close(reason: .ioError(message))
  }

  /// Wakes ``waitUntilClosed()`` and ``waitUntilAnswered()``, after a change of what they wait for.
  func wakeWaiters() {
    finishedCondition.lock()
    finishedCondition.broadcast()
    finishedCondition.unlock()
  }

  /// Called as the input and the output each end; the last one finishes the close.
  func sideEnded() {
    let last = state.withLock { state -> Bool in
      guard state.started, state.openSides > 0 else { return false }
      state.openSides -= 1
      return state.openSides == 0
    }
    if last { finish() }
  }

  func finish() {
    // Unwatched before they are closed: a descriptor's number may be reused at once.
    for channel in reading.withLock({ $0.takeChannels() }) { channel.unregister() }
    let (reason, wroteLast) = state.withLock { state in
      (state.closeReason ?? .closedLocally, state.started && !state.outputDropped)
    }
    if options.closesDescriptors {
      // Closed here after writing its last answers, with input perhaps unread (a stop): the
      // peer must read them all, then end of file — a reset could cost it the answers.
      if let linger = options.lingerTimeout, isSocket, reason == .closedLocally, wroteLast {
        SocketLinger.close(input, timeout: linger) { [self] in descriptorsClosed() }
      } else {
        Platform.close(input)
        if output != input { Platform.close(output) }
        descriptorsClosed()
      }
    } else {
      descriptorsClosed()
    }
    // Dropping every handler breaks the cycles through them (a server's handlers capture its
    // session, which holds this connection), so a closed connection and its descriptors are freed.
    let closeHandlers = handlers.withLock { handlers -> [@Sendable (CloseReason) -> Void] in
      let closeHandlers = handlers.closeHandlers
      handlers = Handlers()
      handlers.finishedReason = reason
      return closeHandlers
    }
    for handler in closeHandlers { handler(reason) }
  }

  /// The connection's descriptors are closed (or it does not own them): wakes ``waitUntilClosed()``.
  func descriptorsClosed() {
    state.withLock { $0.finished = true }
    wakeWaiters()
  }

  static func nanoseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
  }
}
