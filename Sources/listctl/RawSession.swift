// A raw JSON-RPC session for `run`: newline-delimited messages written as given, every message
// from the daemon kept in arrival order and taken by id (responses) or in order (notifications).
import Foundation
import JSON
import JSONRPC

/// One connection to a daemon that sends messages verbatim (no initialize, no id allocation).
final class RawSession: @unchecked Sendable {
  // `@unchecked Sendable`: `pending` and `closed` are guarded by `condition`; the descriptors
  // and process are immutable after init.
  private let readFD: Int32
  private let writeFD: Int32
  private let process: Process?
  private let stdinPipe: Pipe?
  private let condition = NSCondition()
  private var pending: [JSONValue] = []
  private var closed = false
  /// The longest wait for a response or a notification (`--timeout`).
  let timeout: TimeInterval

  /// Connects to `--socket`, or spawns a private daemon for `--spawn`, or the default socket.
  /// Each wait for a message lasts at most `timeout`.
  init(_ endpoint: Endpoint, timeout: Duration) throws {
    let (whole, attoseconds) = timeout.components
    self.timeout = TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
    if let spawn = endpoint.spawn {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: try Listctl.listdPath())
      let quiet = spawn.contains("--log-level") ? [] : ["--log-level", "warning"]
      process.arguments = quiet + spawn
      let input = Pipe()
      let output = Pipe()
      process.standardInput = input
      process.standardOutput = output
      try process.run()
      self.process = process
      stdinPipe = input
      readFD = output.fileHandleForReading.fileDescriptor
      writeFD = input.fileHandleForWriting.fileDescriptor
    } else {
      let fd = try UnixSocket.connect(to: endpoint.socket ?? UnixSocket.defaultPath)
      process = nil
      stdinPipe = nil
      readFD = fd
      writeFD = fd
    }
    let thread = Thread { [self] in readLoop() }
    thread.start()
  }

  private func readLoop() {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      buffer.append(contentsOf: chunk[..<count])
      while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        guard !line.allSatisfy(\.isWhitespace), let message = try? JSONValue(parsing: line) else { continue }
        condition.lock()
        pending.append(message)
        condition.broadcast()
        condition.unlock()
      }
    }
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  /// Writes `message` as one line.
  func send(_ message: JSONValue) throws {
    let bytes = Array((message.jsonString(prettyPrinted: false) + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(writeFD, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        throw ConnectFailure("the connection closed (write: \(String(cString: strerror(errno))))")
      }
      offset += written
    }
  }

  /// The response to request `id`, or nil after `timeout` seconds (default: the session's), or
  /// when the connection closed.
  func response(to id: JSONValue, timeout: TimeInterval? = nil) -> JSONValue? {
    take(timeout: timeout ?? self.timeout) { $0["id"] == id && $0["method"] == nil }
  }

  /// The next notification (the next one `matching` accepts), in arrival order.
  func notification(timeout: TimeInterval? = nil, where matching: (JSONValue) -> Bool = { _ in true })
    -> JSONValue?
  {
    take(timeout: timeout ?? self.timeout) { $0["method"] != nil && $0["id"] == nil && matching($0) }
  }

  /// Error responses with a `null` id that arrived and nobody took: the daemon could not read a
  /// request (a frame too large, malformed JSON), so its answer cannot name it.
  var untakenNullIDErrors: [JSONValue] {
    condition.lock()
    defer { condition.unlock() }
    return pending.filter { $0["id"] == .null && $0["error"] != nil }
  }

  /// Notifications that arrived and nobody took.
  var untakenNotifications: [JSONValue] {
    condition.lock()
    defer { condition.unlock() }
    return pending.filter { $0["method"] != nil && $0["id"] == nil }
  }

  private func take(timeout: TimeInterval, _ matching: (JSONValue) -> Bool) -> JSONValue? {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let index = pending.firstIndex(where: matching) { return pending.remove(at: index) }
      if closed || !condition.wait(until: deadline) {
        if let index = pending.firstIndex(where: matching) { return pending.remove(at: index) }
        return nil
      }
    }
  }

  /// Closes the connection; a spawned daemon sees its stdin close and exits (waited for up to 5 s).
  func close() {
    if let process {
      try? stdinPipe?.fileHandleForWriting.close()
      let deadline = Date().addingTimeInterval(5)
      while process.isRunning && Date() < deadline { usleep(5_000) }
      if process.isRunning { process.terminate() }
    } else {
      shutdown(readFD, Int32(SHUT_RDWR))
      Platform.close(readFD)
    }
  }
}
