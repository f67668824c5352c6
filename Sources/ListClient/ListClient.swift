// ListClient: a JSON-RPC session with a listd, over a spawned daemon's stdio or a Unix socket.
import Foundation
import JSON
import JSONRPC
import Synchronization

/// A notification the daemon sent: `list/didChange`, `list/didCreate`, `owner/event`, …
public struct ServerNotification: Sendable {
  /// The method, e.g. `list/didChange`.
  public let method: String
  /// The params object (`null` when absent).
  public let params: JSONValue
}

/// A client session of a running `listd` (Protocol/README.md).
///
/// Connect with ``spawn(listdPath:arguments:)`` or ``socket(path:)``, then call
/// ``initialize(name:)``. Requests are `async` and throw the daemon's ``ResponseError`` or a
/// ``ConnectionError``. Notifications arrive, in order, on ``notifications``.
///
/// An error answer whose `id` is `null` (the daemon could not read a request: a frame over its
/// `--max-frame-bytes`, malformed JSON) cannot say which request it was, so it fails every
/// request in progress with that error: none of them waits for an answer that will not come.
public final class ListClient: @unchecked Sendable {
  // `@unchecked Sendable`: every stored property is immutable; Process is only read after start.
  /// The underlying connection, for anything the typed API does not cover.
  public let connection: Connection
  /// Every notification the daemon sends, in arrival order; finishes when the connection closes.
  public let notifications: AsyncStream<ServerNotification>
  /// The longest wait for an answer of a request sent without its own `timeout`; nil waits
  /// as long as the connection is open.
  public let requestTimeout: Duration?
  private let process: Process?
  private let stdinPipe: Pipe?
  /// Where notifications go instead of ``notifications`` (``deliverNotifications(to:)``).
  private let notificationHandler = Mutex<(@Sendable (ServerNotification) -> Void)?>(nil)

  private init(
    input: Int32, output: Int32, ownsDescriptors: Bool, process: Process?, stdinPipe: Pipe?,
    requestTimeout: Duration?
  ) throws {
    var options = Connection.Options(
      framing: .contentLength, dispatch: .serial, logger: .disabled, name: "listctl")
    options.closesDescriptors = ownsDescriptors
    options.flushTimeout = .seconds(2)
    connection = try Connection(input: input, output: output, options: options)
    let (stream, continuation) = AsyncStream<ServerNotification>.makeStream()
    notifications = stream
    self.process = process
    self.stdinPipe = stdinPipe
    self.requestTimeout = requestTimeout
    connection.onUnmatchedResponse { [connection] response in
      if response.id == nil, case .failure(let error) = response.result {
        connection.failPendingRequests(with: error)
      }
    }
    connection.onUnhandledNotification { [weak self] notification in
      let received = ServerNotification(method: notification.method, params: notification.rawParams ?? .null)
      if let handler = self?.notificationHandler.withLock({ $0 }) {
        handler(received)
      } else {
        continuation.yield(received)
      }
    }
    connection.onClose { _ in continuation.finish() }
    connection.start()
  }

  /// Starts `listdPath` with `arguments` and talks to it over its stdin and stdout. Its stderr
  /// is inherited. Closing the client closes its stdin, which ends the daemon. Requests wait at
  /// most `requestTimeout` for their answer (nil: no limit).
  public static func spawn(listdPath: String, arguments: [String] = [], requestTimeout: Duration? = nil)
    throws -> ListClient
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: listdPath)
    process.arguments = arguments
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    return try ListClient(
      input: output.fileHandleForReading.fileDescriptor, output: input.fileHandleForWriting.fileDescriptor,
      ownsDescriptors: false, process: process, stdinPipe: input, requestTimeout: requestTimeout)
  }

  /// Connects to a daemon's Unix socket (default: the path `listd --listen` uses), only if the
  /// socket and the daemon are this user's (see ``UnixSocket/connect(to:)``); throws a
  /// ``UnixSocketError`` naming the path and the problem otherwise. Requests wait at most
  /// `requestTimeout` for their answer (nil: no limit).
  public static func socket(path: String = UnixSocket.defaultPath, requestTimeout: Duration? = nil)
    throws -> ListClient
  {
    let fd = try UnixSocket.connect(to: path)
    return try ListClient(
      input: fd, output: fd, ownsDescriptors: true, process: nil, stdinPipe: nil,
      requestTimeout: requestTimeout)
  }

  /// Sends any request; returns its result. Throws ``ResponseError`` for an error answer, and
  /// ``ConnectionError/timedOut(method:id:)`` after `timeout` (default ``requestTimeout``).
  @discardableResult
  public func call(_ method: String, _ params: JSONValue? = nil, timeout: Duration? = nil) async throws
    -> JSONValue
  {
    try await connection.sendRequest(method, params, timeout: timeout ?? requestTimeout)
  }

  /// Sends a request; `completion` gets its result or error on the connection's handler queue,
  /// in the daemon's order with the notifications handed to ``deliverNotifications(to:)``: an
  /// answer that says later changes follow it (`list/setWindow`, `list/subscribe`) comes before
  /// them. (A result awaited with ``call(_:_:timeout:)`` resumes a task, which keeps no order
  /// with ``notifications``.)
  public func send(
    _ method: String, _ params: JSONValue? = nil, timeout: Duration? = nil,
    completion: @escaping @Sendable (Result<JSONValue, any Error>) -> Void
  ) {
    connection.sendRequest(method, params, timeout: timeout ?? requestTimeout, completion: completion)
  }

  /// Hands every later notification to `handler` instead of ``notifications`` (which then only
  /// finishes, when the connection closes), one at a time on the connection's handler queue, in
  /// arrival order and in order with the completions of ``send(_:_:timeout:completion:)``.
  /// Call it before the daemon has reason to notify (before subscribing).
  public func deliverNotifications(to handler: @escaping @Sendable (ServerNotification) -> Void) {
    notificationHandler.withLock { $0 = handler }
  }

  /// Sends a notification (`$/setTrace`, `event/…` are requests; this is for `exit`, `$/cancelRequest`, …).
  public func notify(_ method: String, _ params: JSONValue? = nil) {
    connection.notify(method, params)
  }

  /// `initialize` then `initialized`; returns the `initialize` result (server info, capabilities).
  @discardableResult
  public func initialize(name: String = "ListClient", version: String? = nil) async throws -> JSONValue {
    var info: JSONObject = ["name": .string(name)]
    if let version { info.append("version", .string(version)) }
    let result = try await call("initialize", ["clientInfo": .object(info)])
    notify("initialized", [:])
    return result
  }

  /// Closes the connection; a spawned daemon sees its stdin close and exits (waited for up to 5 s).
  public func close() {
    connection.close()
    guard let process else { return }
    try? stdinPipe?.fileHandleForWriting.close()
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    if process.isRunning { process.terminate() }
  }
}
