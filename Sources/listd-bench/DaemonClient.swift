// A lean client of a real listd for the daemon suite: child processes, raw frames over pipes and sockets, RSS.
import Dispatch
import JSONRPC
import ListServer

/// A child process with its stdin and stdout on pipes: the release `listd`, or `cat` as the
/// transport baseline.
final class ChildProcess {
  let process = Process()
  private let stdinPipe = Pipe()
  private let stdoutPipe = Pipe()
  /// The client side: it writes requests to `input` and reads answers from `output`.
  let connection: RawConnection

  init(_ executable: String, _ arguments: [String] = []) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = stdinPipe
    process.standardOutput = stdoutPipe
    process.standardError = FileHandle.standardError
    try process.run()
    connection = RawConnection(
      reading: stdoutPipe.fileHandleForReading.fileDescriptor,
      writing: stdinPipe.fileHandleForWriting.fileDescriptor)
  }

  var pid: Int32 { process.processIdentifier }

  /// Closes the child's stdin and waits for it to exit.
  func stop() {
    try? stdinPipe.fileHandleForWriting.close()
    let deadline = now() + 5
    while process.isRunning && now() < deadline { usleep(1_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }

  /// Resident set size of the child in bytes.
  var residentBytes: Int { residentSetSize(of: "\(pid)") }
}

/// One side of a JSON-RPC byte stream with no parsing beyond framing: frames are written as
/// prepared bytes and read back as bodies, so the client costs little next to the daemon.
/// Not thread-safe: one reading thread, one writing thread at most.
final class RawConnection: @unchecked Sendable {
  // `@unchecked Sendable`: the reading side is used by one thread, the writing side by one.
  let readFD: Int32
  let writeFD: Int32
  private var reader = FrameReader(framing: .contentLength)
  private var ready: [[UInt8]] = []
  private var readyIndex = 0
  private var buffer = [UInt8](repeating: 0, count: 1 << 20)

  init(reading readFD: Int32, writing writeFD: Int32) {
    self.readFD = readFD
    self.writeFD = writeFD
  }

  /// Writes all of `bytes` (blocking).
  func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = Platform.write(writeFD, raw.baseAddress! + offset, raw.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          fatalError("listd-bench: write failed: \(String(cString: strerror(errno)))")
        }
        offset += written
      }
    }
  }

  /// The next frame body (blocking). Traps if the stream ends.
  func readFrame() -> [UInt8] {
    guard let body = nextFrame() else { fatalError("listd-bench: the daemon closed the stream") }
    return body
  }

  /// The next frame body (blocking), or nil at the end of the stream.
  func nextFrame() -> [UInt8]? {
    while readyIndex == ready.count {
      ready.removeAll(keepingCapacity: true)
      readyIndex = 0
      let count = buffer.withUnsafeMutableBytes { Platform.read(readFD, $0.baseAddress!, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      buffer.withUnsafeBytes { raw in
        reader.feed(UnsafeRawBufferPointer(rebasing: raw[0..<count])) { event in
          switch event {
          case .frame(let body): ready.append(body)
          case .error(let error): fatalError("listd-bench: bad frame from the daemon: \(error)")
          }
        }
      }
    }
    defer { readyIndex += 1 }
    return ready[readyIndex]
  }

  /// The next response body, skipping notifications (`list/didCreate` reaches every session).
  func readResponse() -> [UInt8] {
    while true {
      let body = readFrame()
      if !isNotification(body) { return body }
    }
  }

  /// Sends a request frame and reads its answer, parsed (for setup, not for timing).
  @discardableResult
  func call(_ method: String, _ params: JSONValue, id: Int = 1) -> JSONValue {
    write(requestFrame(method, params, id: id))
    let body = readResponse()
    guard let value = try? JSONValue(parsing: body) else { fatalError("listd-bench: unparsable answer") }
    if let error = value["error"] {
      fatalError("listd-bench: \(method) failed: \(String(decoding: error.jsonBytes(), as: UTF8.self))")
    }
    return value["result"] ?? .null
  }

  /// Sends `initialize` and `initialized`.
  func initialize(name: String) {
    call("initialize", ["clientInfo": ["name": .string(name)]])
    write(FrameWriter().frame(["jsonrpc": "2.0", "method": "initialized", "params": [:]] as JSONValue))
  }
}

private let notificationPrefix = Array(#"{"jsonrpc":"2.0","method""#.utf8)
private let didChangePrefix = Array(#"{"jsonrpc":"2.0","method":"list/didChange""#.utf8)

/// Whether a body written by listd is a notification (its writer puts `method` right after
/// `jsonrpc`; a response has `id` there).
func isNotification(_ body: [UInt8]) -> Bool {
  body.count > notificationPrefix.count
    && body[0..<notificationPrefix.count].elementsEqual(notificationPrefix)
}

/// A complete Content-Length frame of a request.
func requestFrame(_ method: String, _ params: JSONValue, id: Int) -> [UInt8] {
  FrameWriter().frame(
    ["jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(method), "params": params] as JSONValue)
}

/// A subscribed socket client whose own thread reads every frame and stamps the arrival time of
/// each `list/didChange`, so the main thread can ask when a version reached it.
final class Subscriber: @unchecked Sendable {
  // `@unchecked Sendable`: `arrivals` is behind `condition`; the connection is used by the
  // reading thread after `start`.
  let connection: RawConnection
  private let condition = NSCondition()
  private var arrivals: [Double] = []
  private var thread: Thread?

  /// Connects to `socket`, initializes and subscribes to `list` (snapshot "none").
  init(socket: String, list: String, name: String) throws {
    let fd = try UnixSocket.connect(to: socket)
    connection = RawConnection(reading: fd, writing: fd)
    connection.initialize(name: name)
    connection.call("list/subscribe", ["list": .string(list), "snapshot": "none"], id: 2)
  }

  /// Starts the reading thread: from now on every frame is a notification to stamp.
  func start() {
    let thread = Thread { [self] in
      while let body = connection.nextFrame() {
        let stamp = now()
        guard body.starts(with: didChangePrefix) else { continue }
        condition.lock()
        arrivals.append(stamp)
        condition.broadcast()
        condition.unlock()
      }
      Platform.close(connection.readFD)
    }
    thread.stackSize = 1 << 20
    self.thread = thread
    thread.start()
  }

  /// Waits for the `count`-th notification since `start` and returns its arrival time.
  func arrival(_ count: Int) -> Double {
    condition.lock()
    defer { condition.unlock() }
    while arrivals.count < count { condition.wait() }
    return arrivals[count - 1]
  }

  /// Ends the connection; the reading thread then closes the socket.
  func close() {
    shutdown(connection.readFD, Int32(SHUT_RDWR))
  }

  /// Number of notifications received so far.
  var received: Int {
    condition.lock()
    defer { condition.unlock() }
    return arrivals.count
  }
}

/// The release `listd` next to this executable, or nil.
func locateDaemon() -> String? {
  let me = executablePath()
  let candidate = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("listd").path
  return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
}
