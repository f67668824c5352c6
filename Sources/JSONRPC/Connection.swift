// The duplex JSON-RPC connection over file descriptors: served by the event loop's threads, dispatch.
import Foundation
import Synchronization

/// A full-duplex JSON-RPC 2.0 connection over a readable and a writable file descriptor (stdio,
/// a Unix socket, a pipe).
///
/// - The connection owns no thread: the process's few **event loop** threads (``EventLoop``) serve every
///   connection's descriptors, made non-blocking when they are pipes or sockets. When the input
///   is readable, one of them reads, splits frames with a ``FrameReader`` (framing detected from
///   the first byte unless fixed in ``Options``), parses and decodes messages, and dispatches
///   requests and notifications to the registered handlers on a dispatch queue — never running a
///   handler itself (but see `inline`). Malformed frames, JSON and messages are answered with the
///   exact JSON-RPC error; responses are matched to the requests sent with
///   ``sendRequest(_:_:timeout:)``. An input that cannot be polled (a regular file) gets a
///   thread of its own, which never waits for long.
/// - Whole frames are queued in a bounded ``OutgoingQueue`` in the framing the peer uses and
///   written when the output has room. Any thread may send at any time; frames never
///   interleave. A peer that stops reading is disconnected (with a log line) once
///   `maxOutgoingBytes` are pending.
/// - Handlers run concurrently (``DispatchMode/concurrent``) or one at a time in arrival order
///   (``DispatchMode/serial``); either way a handler may answer later, from anywhere, through
///   its ``IncomingRequest``.
/// - `$/cancelRequest` cancels the request's ``CancellationToken`` and (by default) answers -32800.
/// - At end of input the connection answers the requests still in progress, flushes, closes and
///   calls the ``onClose(_:)`` handlers. ``stopReading(holdingOpen:refusing:)`` ends the input
///   early, for a clean stop: what was read is answered, what was not is left unread.
/// - Nothing but frames is ever written to the output; logs go to ``Options/logger`` (standard
///   error by default).
///
/// Writing to a closed pipe would raise SIGPIPE; ``start()`` sets SIGPIPE to be ignored for the
/// process, as servers do.
///
/// `@unchecked Sendable`: every mutable member is behind a lock (`state`, `handlers`, the
/// reading state's) or is itself thread-safe (`OutgoingQueue`, `Channel`); the rest is immutable.
public final class Connection: ChannelHandler, @unchecked Sendable {
  /// How handlers are scheduled.
  public enum DispatchMode: Sendable, Hashable {
    /// Handlers run concurrently on a dispatch queue.
    case concurrent
    /// Handlers run one at a time, in arrival order. A handler that answers later (see
    /// ``onRequestDeferred(_:cancellation:_:)``) lets the next one start as soon as it returns.
    case serial
  }

  public struct Options: Sendable {
    /// The framing of both directions; nil detects it from the input's first byte and answers
    /// in the same framing (messages sent before detection use Content-Length).
    public var framing: Framing?
    /// Incoming frames larger than this are refused (answered -32700) without being stored.
    public var maxFrameSize: Int
    /// Bytes pending on the output beyond which the peer is considered gone and disconnected.
    public var maxOutgoingBytes: Int
    /// Nesting limit of incoming JSON.
    public var maxDepth: Int
    public var dispatch: DispatchMode
    public var logger: Logger
    /// Prefix of log lines, to tell connections apart.
    public var name: String
    /// Close the descriptors when the connection has closed.
    public var closesDescriptors: Bool
    /// Longest time a closing connection spends flushing pending output to a peer that does not read.
    public var flushTimeout: Duration
    /// For a socket whose descriptors the connection closes: once its last frames are written
    /// after a local close, it is half-closed and what the peer still sends is dropped until the
    /// peer closes too, for at most this long, so that the peer reads every frame and then end
    /// of file rather than a reset (see ``waitUntilClosed()``). Nil closes at once.
    public var lingerTimeout: Duration?

    public init(
      framing: Framing? = nil, maxFrameSize: Int = FrameReader.defaultMaxFrameSize,
      maxOutgoingBytes: Int = 64 << 20, maxDepth: Int = JSONParser.defaultMaxDepth,
      dispatch: DispatchMode = .concurrent, logger: Logger = .standardError(), name: String = "jsonrpc",
      closesDescriptors: Bool = false, flushTimeout: Duration = .seconds(5), lingerTimeout: Duration? = nil
    ) {
      self.framing = framing
      self.maxFrameSize = maxFrameSize
      self.maxOutgoingBytes = maxOutgoingBytes
      self.maxDepth = maxDepth
      self.dispatch = dispatch
      self.logger = logger
      self.name = name
      self.closesDescriptors = closesDescriptors
      self.flushTimeout = flushTimeout
      self.lingerTimeout = lingerTimeout
    }
  }

  private enum RequestHandler: Sendable {
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

  private struct Handlers {
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

  private struct PendingRequest {
    let method: String
    let completion: @Sendable (Result<JSONValue, any Error>) -> Void
  }

  private final class WeakRequest {
    weak var request: IncomingRequest?
    init(_ request: IncomingRequest) { self.request = request }
  }

  private struct State {
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

  public let options: Options
  public var logger: Logger { options.logger }
  private let input: Int32
  private let output: Int32
  private let inputKind: DescriptorKind
  /// Input and output are one socket (which a close could reset).
  private let isSocket: Bool
  private let outgoing: OutgoingQueue
  private let handlerQueue: DispatchQueue
  /// Handler blocks queued on `handlerQueue` and not finished.
  private let queuedHandlers = Atomic<Int>(0)
  /// What reads the input: set by ``start()``.
  private let reading = ReadingState()
  private let state = Locked(State())
  private let handlers = Locked(Handlers())
  private let finishedCondition = NSCondition()

  /// A connection reading `input` and writing `output` (they may be the same socket). Call
  /// ``start()`` after registering handlers.
  public init(input: Int32, output: Int32, options: Options = Options()) throws(ConnectionError) {
    self.input = input
    self.output = output
    self.options = options
    inputKind = DescriptorKind(input)
    let outputKind = input == output ? inputKind : DescriptorKind(output)
    isSocket = input == output && DescriptorKind.isSocket(input)
    outgoing = OutgoingQueue(
      limit: options.maxOutgoingBytes, output: output, pollable: outputKind.isPollable,
      nonBlocking: outputKind == .stream)
    reading.reader = FrameReader(framing: options.framing, maxFrameSize: options.maxFrameSize)
    reading.framingKnown = options.framing != nil
    switch options.dispatch {
    case .concurrent:
      handlerQueue = DispatchQueue(label: "\(options.name).handlers", attributes: .concurrent)
    case .serial:
      handlerQueue = DispatchQueue(label: "\(options.name).handlers")
    }
  }

  /// A connection on standard input and output.
  public static func standardIO(options: Options = Options()) throws(ConnectionError) -> Connection {
    try Connection(input: 0, output: 1, options: options)
  }

  /// Two connections joined by a Unix socket pair, each owning its end (for tests and in-process
  /// clients). Not started.
  public static func socketPair(_ first: Options = Options(), _ second: Options = Options())
    throws(ConnectionError)
    -> (Connection, Connection)
  {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Platform.streamSocket, 0, &fds) == 0 else { throw .system("socketpair", errno) }
    for fd in fds { Platform.suppressSIGPIPE(fd) }
    var firstOptions = first
    var secondOptions = second
    firstOptions.closesDescriptors = true
    secondOptions.closesDescriptors = true
    return (
      try Connection(input: fds[0], output: fds[0], options: firstOptions),
      try Connection(input: fds[1], output: fds[1], options: secondOptions)
    )
  }

  // MARK: - Registration

  /// Handles `method` with a handler that returns the result (or throws a ``ResponseError``;
  /// any other error answers -32603). Replaces an earlier handler for the method.
  public func onRequest(
    _ method: String, cancellation: CancellationPolicy = .immediate,
    _ handler: @escaping @Sendable (IncomingRequest) throws -> JSONValue
  ) {
    handlers.withLock { $0.requests[method] = .sync(cancellation, handler) }
  }

  /// Handles `method` with a handler that answers later through `request.respond(…)` — from any
  /// thread, after hopping elsewhere. Throwing before answering answers with the error.
  ///
  /// `inline: true` is for handlers that return within microseconds (small queries, or a hop
  /// to another queue): when no other handler is queued or running, it runs on the reading
  /// thread itself, saving a thread hand-off; otherwise it is queued like any other, so arrival
  /// order holds in ``DispatchMode/serial`` mode.
  public func onRequestDeferred(
    _ method: String, cancellation: CancellationPolicy = .immediate, inline: Bool = false,
    _ handler: @escaping @Sendable (IncomingRequest) throws -> Void
  ) {
    handlers.withLock { $0.requests[method] = .deferred(cancellation, inline: inline, handler) }
  }

  /// Handles `method` in a Task; `$/cancelRequest` cancels the task.
  public func onRequestAsync(
    _ method: String, cancellation: CancellationPolicy = .immediate,
    _ handler: @escaping @Sendable (IncomingRequest) async throws -> JSONValue
  ) {
    handlers.withLock { $0.requests[method] = .async(cancellation, handler) }
  }

  /// Handles the notification `method`. Errors thrown are logged (notifications get no answer).
  public func onNotification(
    _ method: String, _ handler: @escaping @Sendable (IncomingNotification) throws -> Void
  ) {
    handlers.withLock { $0.notifications[method] = handler }
  }

  /// Handles requests for which no handler is registered (default: -32601 naming the method).
  /// The handler answers through `request.respond(…)`, now or later.
  public func onUnhandledRequest(
    cancellation: CancellationPolicy = .immediate,
    _ handler: @escaping @Sendable (IncomingRequest) throws -> Void
  ) {
    handlers.withLock { $0.unhandledRequest = .deferred(cancellation, inline: false, handler) }
  }

  /// Handles notifications for which no handler is registered (default: ignored, logged at debug level).
  public func onUnhandledNotification(_ handler: @escaping @Sendable (IncomingNotification) throws -> Void) {
    handlers.withLock { $0.unhandledNotification = handler }
  }

  /// Calls `handler` on the reading thread for each response that matches no request in
  /// progress — notably an error whose `id` is `null`, which a peer sends when it could not read
  /// a request's id (a frame over its size limit, malformed JSON): the request it was will never
  /// be answered, so a client may fail its requests in progress (``failPendingRequests(with:)``).
  public func onUnmatchedResponse(_ handler: @escaping @Sendable (Response) -> Void) {
    handlers.withLock { $0.unmatchedResponse = handler }
  }

  /// Installs a gate called on the reading thread for every request (`isRequest` true) and
  /// notification, in arrival order, before dispatch. Return nil to let it through, or an error:
  /// a request is answered with it, a notification is dropped. Because it sees messages in
  /// order, it can track a lifecycle itself (answer -32002 until `initialize` has passed,
  /// -32600 after `shutdown`). Keep it fast: it runs on the reading thread.
  public func setGate(_ gate: @escaping @Sendable (_ method: String, _ isRequest: Bool) -> ResponseError?) {
    handlers.withLock { $0.gate = gate }
  }

  /// Registers `handler` to run on the writing thread after queued frames are written, so a
  /// producer that held messages back (``queuedBytes`` was high) can send them now. It must not
  /// block; it may send.
  public func onDrain(_ handler: @escaping @Sendable () -> Void) {
    handlers.withLock { $0.drain = handler }
  }

  /// Bytes queued for the peer and not yet written. O(1).
  public var queuedBytes: Int { outgoing.pending }

  /// Calls `handler` once the connection has closed and its output is flushed (at once if it
  /// already has). Runs on an arbitrary thread.
  public func onClose(_ handler: @escaping @Sendable (CloseReason) -> Void) {
    let finished = handlers.withLock { handlers -> CloseReason? in
      if let reason = handlers.finishedReason { return reason }
      handlers.closeHandlers.append(handler)
      return nil
    }
    if let finished { handler(finished) }
  }

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

  private func close(reason: CloseReason) {
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
  private func flushTimedOut() {
    guard outgoing.pending > 0 else { return }
    state.withLock { $0.outputDropped = true }
    logger.warning("\(options.name): output not flushed: the peer is not reading")
    outgoing.close(discardPending: true)
  }

  /// A write failed: the peer is gone.
  private func writeFailed(_ code: Int32) {
    let message = "write failed: \(String(cString: strerror(code)))"
    logger.info("\(options.name): \(message)")
    close(reason: .ioError(message))
  }

  /// Wakes ``waitUntilClosed()`` and ``waitUntilAnswered()``, after a change of what they wait for.
  private func wakeWaiters() {
    finishedCondition.lock()
    finishedCondition.broadcast()
    finishedCondition.unlock()
  }

  /// Called as the input and the output each end; the last one finishes the close.
  private func sideEnded() {
    let last = state.withLock { state -> Bool in
      guard state.started, state.openSides > 0 else { return false }
      state.openSides -= 1
      return state.openSides == 0
    }
    if last { finish() }
  }

  private func finish() {
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
  private func descriptorsClosed() {
    state.withLock { $0.finished = true }
    wakeWaiters()
  }

  // MARK: - Sending

  /// Sends a notification. Returns false if the connection is closed (or just overflowed).
  @discardableResult
  public func notify(_ method: String, _ params: JSONValue? = nil) -> Bool {
    send(.notification(Notification(method: method, params: params)))
  }

  /// Sends any message as one frame. Returns false if the connection is closed.
  @discardableResult
  public func send(_ message: Message) -> Bool {
    enqueue(message.jsonBytes())
  }

  /// Sends an already encoded message body (`Message.jsonBytes()`) as one frame, so a server
  /// can encode a notification once and send it to many peers. Returns false if closed.
  @discardableResult
  public func send(body: [UInt8]) -> Bool {
    enqueue(body)
  }

  /// Sends a request; `completion` gets the result, the peer's ``ResponseError``, or a
  /// ``ConnectionError`` (closed, timed out — after which `$/cancelRequest` is sent — or
  /// cancelled). Runs `completion` on a global dispatch queue. Returns the request's id.
  @discardableResult
  public func sendRequest(
    _ method: String, _ params: JSONValue? = nil, timeout: Duration? = nil,
    completion: @escaping @Sendable (Result<JSONValue, any Error>) -> Void
  ) -> RequestID {
    let (id, readable) = state.withLock { state -> (RequestID, Bool) in
      let id = RequestID.int(state.nextID)
      state.nextID += 1
      state.pending[id] = PendingRequest(method: method, completion: completion)
      return (id, !state.inputDrained)
    }
    // Once reading has ended, no answer can arrive: fail at once rather than at a timeout.
    guard readable, send(.request(Request(id: id, method: method, params: params))) else {
      complete(id, with: .failure(ConnectionError.closed))
      return id
    }
    if let timeout {
      let deadline = DispatchTime.now() + .nanoseconds(Self.nanoseconds(timeout))
      DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
        guard let self, let pending = self.takePending(id) else { return }
        self.notify("$/cancelRequest", ["id": id.jsonValue])
        DispatchQueue.global().async {
          pending.completion(.failure(ConnectionError.timedOut(method: pending.method, id: id)))
        }
      }
    }
    return id
  }

  /// Sends a request and waits for its result. Throws the peer's ``ResponseError`` or a
  /// ``ConnectionError``. Cancelling the task sends `$/cancelRequest` and throws
  /// ``ConnectionError/cancelled(method:id:)``.
  public func sendRequest(_ method: String, _ params: JSONValue? = nil, timeout: Duration? = nil) async throws
    -> JSONValue
  {
    let box = Locked<(id: RequestID?, cancelled: Bool)>((nil, false))
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
        let id = sendRequest(method, params, timeout: timeout) { continuation.resume(with: $0) }
        let cancelled = box.withLock { box -> Bool in
          box.id = id
          return box.cancelled
        }
        if cancelled { cancelRequest(id) }
      }
    } onCancel: {
      let id = box.withLock { box -> RequestID? in
        box.cancelled = true
        return box.id
      }
      if let id { cancelRequest(id) }
    }
  }

  /// Gives up on a request sent to the peer: sends `$/cancelRequest` and completes it with
  /// ``ConnectionError/cancelled(method:id:)`` (unless its response already arrived).
  public func cancelRequest(_ id: RequestID) {
    guard let pending = takePending(id) else { return }
    notify("$/cancelRequest", ["id": id.jsonValue])
    DispatchQueue.global().async {
      pending.completion(.failure(ConnectionError.cancelled(method: pending.method, id: id)))
    }
  }

  /// Completes every request sent and not yet answered with `error` (no `$/cancelRequest` is
  /// sent); returns how many there were.
  @discardableResult
  public func failPendingRequests(with error: any Error) -> Int {
    let taken = state.withLock { state -> [PendingRequest] in
      defer { state.pending = [:] }
      return Array(state.pending.values)
    }
    for pending in taken {
      DispatchQueue.global().async { pending.completion(.failure(error)) }
    }
    return taken.count
  }

  private func takePending(_ id: RequestID) -> PendingRequest? {
    state.withLock { $0.pending.removeValue(forKey: id) }
  }

  private func complete(_ id: RequestID, with result: Result<JSONValue, any Error>) {
    guard let pending = takePending(id) else { return }
    DispatchQueue.global().async { pending.completion(result) }
  }

  /// Frames a message body and queues it; false if closed. Disconnects on overflow.
  private func enqueue(_ body: [UInt8]) -> Bool {
    guard
      let framing = state.withLock({
        $0.closed ? nil : (options.framing ?? $0.detectedFraming ?? .contentLength)
      })
    else { return false }
    let frame = FrameWriter(framing: framing).frame(body)
    switch outgoing.enqueue(frame) {
    case .queued:
      return true
    case .closed:
      return false
    case .overflow(let pending):
      logger.error(
        "\(options.name): peer is not reading: \(pending) bytes pending exceed the outgoing limit of "
          + "\(outgoing.limit) bytes; disconnecting")
      close(reason: .outgoingQueueOverflow(pendingBytes: pending, limit: outgoing.limit))
      return false
    }
  }

  /// Answers a request that was in flight (called by ``IncomingRequest``).
  func deliver(_ response: Response, batch: BatchSlot?, then afterwards: () -> Void = {}) {
    // The id is free before the answer can reach the peer, which may reuse it at once; the
    // `answering` count keeps the connection open until the answer is queued (an answer queued
    // after the close would be lost).
    state.withLock { state in
      if let id = response.id { state.inFlight[id] = nil }
      state.answering += 1
    }
    answer(response, batch: batch)
    afterwards()
    let answeredAll = state.withLock { state -> Bool in
      state.answering -= 1
      return state.answeredAll
    }
    if answeredAll { didAnswerAll() }
  }

  /// Sends a response, or files it in its batch and sends the batch once complete.
  private func answer(_ response: Response, batch: BatchSlot?) {
    guard let batch else {
      send(.response(response))
      return
    }
    guard let responses = batch.collector.fill(batch.index, with: response) else { return }
    var writer = JSONWriter(reservingCapacity: 256)
    writer.writeRaw(CollectionOfOne(UInt8(ascii: "[")))
    for (index, response) in responses.enumerated() {
      if index > 0 { writer.writeRaw(CollectionOfOne(UInt8(ascii: ","))) }
      Message.response(response).write(to: &writer)
    }
    writer.writeRaw(CollectionOfOne(UInt8(ascii: "]")))
    _ = enqueue(writer.bytes)
  }

  // MARK: - Reading

  /// The event loop says the input is readable or the output writable (on a loop thread).
  func channelReady(readable: Bool, writable: Bool, context: inout LoopContext) {
    if writable { outgoing.drain() }
    if readable { readAvailable(&context, reads: inputKind == .stream ? 16 : 1) }
  }

  /// Reads what is available (up to `reads` reads, fewer once it would block) and handles
  /// its frames, unless another thread is reading or reading has ended.
  private func readAvailable(_ context: inout LoopContext, reads: Int) {
    guard reading.begin() else { return }
    context.parser.maxDepth = options.maxDepth
    var outcome = ReadOutcome.more
    // Answers to this read's frames go out together once they are all handled.
    outgoing.hold()
    for _ in 0..<reads {
      let count = Platform.read(input, context.buffer.baseAddress, context.buffer.count)
      if count > 0 {
        handle(UnsafeRawBufferPointer(rebasing: context.buffer[0..<count]), parser: &context.parser)
        if state.withLock({ $0.closed || $0.stopRequested }) { break }
        // A short read took what there was: no second read just to hear EAGAIN (the channel is
        // re-armed level-triggered, so bytes that arrive meanwhile fire at once).
        if count < context.buffer.count { break }
        continue
      }
      if count == 0 {
        for event in reading.reader.finish() { handle(event, parser: &context.parser) }
        outcome = .endOfFile
      } else if errno == EINTR {
        continue
      } else if errno != EAGAIN && errno != EWOULDBLOCK {
        outcome = .failed(errno)
      }
      break
    }
    if outgoing.release() { outgoing.drain() }
    switch outcome {
    case .more:
      // Reading was stopped or the connection closed meanwhile: it ends here.
      if reading.end(if: { state.withLock { $0.closed || $0.stopRequested } }) { readingEnded() }
    case .endOfFile:
      _ = reading.end(if: { true })
      inputEnded()
      readingEnded(inputEndedAlready: true)
    case .failed(let code):
      _ = reading.end(if: { true })
      let message = "read failed: \(String(cString: strerror(code)))"
      logger.error("\(options.name): \(message)")
      close(reason: .ioError(message))
      readingEnded(inputEndedAlready: true)
    }
  }

  private enum ReadOutcome {
    case more, endOfFile
    case failed(Int32)
  }

  /// Handles the frames in `bytes`, just read.
  private func handle(_ bytes: UnsafeRawBufferPointer, parser: inout JSONParser) {
    if reading.framingKnown {
      // Bodies are parsed straight from the read buffer.
      reading.reader.feedBorrowed(bytes) { event in handle(event, parser: &parser) }
    } else {
      // Until the framing is known, collect the events so it can be recorded before answering.
      let events = reading.reader.feed(bytes)
      if let framing = reading.reader.framing {
        reading.framingKnown = true
        state.withLock { $0.detectedFraming = framing }
      }
      for event in events { handle(event, parser: &parser) }
    }
  }

  /// Ends the reading now unless a thread is reading (that thread ends it when done): after
  /// ``stopReading(holdingOpen:refusing:)`` or a close.
  private func endReadingIfIdle() {
    if reading.end(if: { true }, unlessBusy: true) { readingEnded() }
  }

  /// The reading has just ended: stops watching the input; a stop ends the input as at end of
  /// file (a close does not: nothing more will be answered).
  private func readingEnded(inputEndedAlready: Bool = false) {
    for channel in reading.withLock({ $0.channels }) where channel.fd == input { channel.setInput(false) }
    if !inputEndedAlready && state.withLock({ $0.stopRequested && !$0.closed }) { inputEnded() }
    sideEnded()
  }

  /// Reads an input the event loop cannot watch (a regular file, /dev/null) on a thread of its
  /// own: such reads never wait for long.
  private func readBlocking() {
    var context = LoopContext(bufferSize: 64 << 10)
    defer { context.buffer.deallocate() }
    while !reading.withLock({ $0.ended }) { readAvailable(&context, reads: 1) }
  }

  /// At end of input: once every handler already dispatched has run and every request in
  /// progress is answered, close. A loop thread never waits for handlers: with none queued (the
  /// reading thread alone queues them, and it is done) this runs at once, otherwise after them —
  /// 2,000 idle sessions closing at once would otherwise wake 2,000 queues, and as many threads.
  private func inputEnded() {
    if queuedHandlers.load(ordering: .acquiring) == 0 {
      markInputDrained()
    } else {
      handlerQueue.async(flags: .barrier) { [self] in markInputDrained() }
    }
  }

  private func markInputDrained() {
    let (answeredAll, awaiting) = state.withLock { state -> (Bool, Bool) in
      state.inputDrained = true
      return (state.answeredAll, !state.pending.isEmpty)
    }
    if awaiting { failPendingRequests(with: ConnectionError.closed) }  // no answer can be read now
    if answeredAll { didAnswerAll() }
  }

  /// Reading has ended and every request read is answered: wakes ``waitUntilAnswered()`` and
  /// closes, unless held open.
  private func didAnswerAll() {
    let (closes, stopped) = state.withLock { (!$0.holdsOpen, $0.stopRequested) }
    wakeWaiters()
    if closes { close(reason: stopped ? .closedLocally : .endOfInput) }
  }

  private func handle(_ event: FrameEvent, parser: inout JSONParser) {
    switch event {
    case .frame(let body): body.withUnsafeBytes { handle(.frame($0), parser: &parser) }
    case .error(let error): handle(BorrowedFrameEvent.error(error), parser: &parser)
    }
  }

  private func handle(_ event: BorrowedFrameEvent, parser: inout JSONParser) {
    switch event {
    case .frame(let body):
      handle(Incoming(body: body, reusing: &parser))
    case .error(let error):
      logger.warning("\(options.name): \(error)")
      if case .truncatedFrame = error.kind { return }  // the peer is gone
      send(.response(Response(id: nil, error: .parseError(error.description))))
    }
  }

  private func handle(_ incoming: Incoming) {
    switch incoming {
    case .unanswerable(let error):
      logger.info("\(options.name): \(error.message)")
      send(.response(Response(id: nil, error: error)))
    case .single(let message):
      handle(message, batch: nil)
    case .batch(let members):
      let answerable = members.filter(Self.isAnswerable).count
      let collector = answerable > 0 ? BatchCollector(count: answerable) : nil
      var slot = 0
      for member in members {
        if let collector, Self.isAnswerable(member) {
          handle(member, batch: BatchSlot(collector: collector, index: slot))
          slot += 1
        } else {
          handle(member, batch: nil)
        }
      }
    }
  }

  private static func isAnswerable(_ member: Result<Message, InvalidMessage>) -> Bool {
    switch member {
    case .success(.request): return true
    case .failure(let invalid): return !invalid.isResponse
    case .success(.notification), .success(.response): return false
    }
  }

  private func handle(_ message: Result<Message, InvalidMessage>, batch: BatchSlot?) {
    switch message {
    case .failure(let invalid):
      if invalid.isResponse {
        logger.warning("\(options.name): ignoring an invalid response: \(invalid.error.message)")
      } else {
        answer(Response(id: invalid.id, error: invalid.error), batch: batch)
      }
    case .success(.response(let response)):
      guard let id = response.id, let pending = takePending(id) else {
        logger.warning(
          "\(options.name): response to unknown request id \(response.id.map { "\($0)" } ?? "null")")
        handlers.withLock { $0.unmatchedResponse }?(response)
        return
      }
      let result = response.result.mapError { $0 as any Error }
      DispatchQueue.global().async { pending.completion(result) }
    case .success(.notification(let notification)):
      handle(notification)
    case .success(.request(let request)):
      handle(request, batch: batch)
    }
  }

  private func handle(_ notification: Notification) {
    if handlers.withLock({ $0.refusal != nil }) {
      logger.debug(
        "\(options.name): dropped notification \(notification.method): read after the reading stopped")
      return
    }
    if notification.method == "$/cancelRequest" {
      cancelIncoming(notification.params)
      return
    }
    let (gate, handler) = handlers.withLock { handlers in
      (handlers.gate, handlers.notifications[notification.method] ?? handlers.unhandledNotification)
    }
    if let refusal = gate?(notification.method, false) {
      logger.debug("\(options.name): dropped notification \(notification.method): \(refusal.message)")
      return
    }
    guard let handler else {
      if !notification.method.hasPrefix("$/") {
        logger.debug("\(options.name): no handler for notification \(notification.method)")
      }
      return
    }
    let incoming = IncomingNotification(
      method: notification.method, params: Params(notification.params), connection: self)
    dispatchToHandlers { [logger, name = options.name] in
      do {
        try handler(incoming)
      } catch {
        logger.warning("\(name): handler for notification \(incoming.method) failed: \(error)")
      }
    }
  }

  private func handle(_ request: Request, batch: BatchSlot?) {
    let (gate, registered, stopped) = handlers.withLock { handlers in
      (handlers.gate, handlers.requests[request.method] ?? handlers.unhandledRequest, handlers.refusal)
    }
    if let stopped {  // read after stopReading: answered, never run
      answer(Response(id: request.id, error: stopped(request.method)), batch: batch)
      return
    }
    if let refusal = gate?(request.method, true) {
      answer(Response(id: request.id, error: refusal), batch: batch)
      return
    }
    guard let handler = registered else {
      answer(Response(id: request.id, error: .methodNotFound(request.method)), batch: batch)
      return
    }
    if state.withLock({ $0.inFlight[request.id] != nil }) {
      let error = ResponseError.invalidRequest(
        "duplicate request id \(request.id): a request with this id is in progress")
      answer(Response(id: request.id, error: error), batch: batch)
      return
    }
    let incoming = IncomingRequest(request: request, connection: self, policy: handler.policy, batch: batch)
    let accepted = state.withLock { state -> Bool in
      if state.closed { return false }
      state.inFlight[request.id] = WeakRequest(incoming)
      return true
    }
    guard accepted else {
      incoming.cancellation.cancel()
      incoming.respond(error: .requestCancelled(request.id))  // dropped: the connection is closed
      return
    }
    if handler.isInline && queuedHandlers.load(ordering: .acquiring) == 0 {
      Self.run(handler, incoming)  // nothing ahead of it: answering here keeps arrival order
      return
    }
    dispatchToHandlers { Self.run(handler, incoming) }
  }

  /// Queues handler work, counting it so inline handlers know whether anything is ahead.
  private func dispatchToHandlers(_ work: @escaping @Sendable () -> Void) {
    queuedHandlers.add(1, ordering: .acquiringAndReleasing)
    handlerQueue.async { [self] in
      work()
      queuedHandlers.subtract(1, ordering: .acquiringAndReleasing)
    }
  }

  private static func run(_ handler: RequestHandler, _ request: IncomingRequest) {
    if request.isCancelled {
      request.respond(error: .requestCancelled(request.id))
      return
    }
    switch handler {
    case .sync(_, let body):
      do {
        request.respond(try body(request))
      } catch {
        request.respond(throwing: error)
      }
    case .deferred(_, _, let body):
      do {
        try body(request)
      } catch {
        request.respond(throwing: error)
      }
    case .async(_, let body):
      let task = Task {
        do {
          request.respond(try await body(request))
        } catch {
          request.respond(throwing: error)
        }
      }
      request.cancellation.onCancel { task.cancel() }
    }
  }

  /// `$/cancelRequest {id}`: cancel the request's token and, by default, answer -32800 now.
  private func cancelIncoming(_ params: JSONValue?) {
    guard let idValue = params?["id"], let id = RequestID(json: idValue) else {
      logger.warning(
        "\(options.name): $/cancelRequest without a valid id: \(params?.abbreviatedJSON ?? "no params")")
      return
    }
    guard let request = state.withLock({ $0.inFlight[id]?.request }) else { return }
    request.cancellation.cancel()
    if request.policy == .immediate { request.respond(error: .requestCancelled(id)) }
  }

  static func nanoseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
  }
}
