// Test support for connection tests: a capturing logger and a raw peer that speaks bytes.
import Foundation
import JSONRPC
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Collects log lines.
final class CapturedLog: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String] = []

  var logger: Logger {
    Logger(minimumLevel: .debug) { [self] level, message in
      lock.lock()
      storage.append("\(level): \(message)")
      lock.unlock()
    }
  }

  var lines: [String] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}

/// The other end of a socket, driven byte by byte: writes raw frames, reads what comes back.
final class RawPeer {
  let fd: Int32
  var reader: FrameReader
  var received: [UInt8] = []
  private var pending: [FrameEvent] = []

  init(fd: Int32, framing: Framing? = nil) {
    self.fd = fd
    reader = FrameReader(framing: framing)
  }

  deinit { Glibc.close(fd) }

  /// A started connection (a server, or a client whose peer the test plays by hand) on one end
  /// of a socket pair, and a raw peer on the other.
  static func withServer(
    _ options: Connection.Options = Connection.Options(), setUp: (Connection) -> Void
  ) throws -> (Connection, RawPeer) {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
      throw ConnectionError.system("socketpair", errno)
    }
    var options = options
    options.closesDescriptors = true
    let server = try Connection(input: fds[0], output: fds[0], options: options)
    setUp(server)
    server.start()
    return (server, RawPeer(fd: fds[1]))
  }

  func write(_ text: String) { write(Array(text.utf8)) }

  func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let count = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if count <= 0 { return }
        offset += count
      }
    }
  }

  /// Writes one Content-Length frame.
  func send(_ body: String) { write(frame(body)) }

  /// Closes the writing direction (the server sees end of input).
  func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

  /// Reads until `count` frame events arrived or `timeout` passed.
  func readEvents(_ count: Int, timeout: Double = 5) -> [FrameEvent] {
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while pending.count < count && Date() < deadline {
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&pfd, 1, 50) > 0 else { continue }
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n <= 0 {
        pending += reader.finish()
        break
      }
      received += buffer[0..<n]
      pending += reader.feed(buffer[0..<n])
    }
    let taken = Array(pending.prefix(count))
    pending.removeFirst(taken.count)
    return taken
  }

  /// Reads `count` messages and parses them as JSON.
  func readJSON(_ count: Int, timeout: Double = 5) -> [JSONValue] {
    readEvents(count, timeout: timeout).compactMap { event in
      guard case .frame(let body) = event else {
        XCTFail("unexpected framing event \(event)")
        return nil
      }
      return try? JSONValue(parsing: body)
    }
  }

  /// Reads everything until the server closes the connection.
  func readToEnd(timeout: Double = 5) -> [UInt8] {
    _ = readEvents(Int.max, timeout: timeout)
    return received
  }
}

extension XCTestCase {
  /// Waits for a condition to become true, polling.
  func waitUntil(
    timeout: Double = 5, _ condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line
  ) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
      if Date() > deadline {
        XCTFail("condition not met within \(timeout) s", file: file, line: line)
        return
      }
      usleep(2000)
    }
  }
}

/// A value settable from any thread, for handlers to report to the test.
final class Box<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: Value

  init(_ value: Value) { storage = value }

  var value: Value {
    get {
      lock.lock()
      defer { lock.unlock() }
      return storage
    }
    set {
      lock.lock()
      storage = newValue
      lock.unlock()
    }
  }

  func mutate(_ body: (inout Value) -> Void) {
    lock.lock()
    body(&storage)
    lock.unlock()
  }
}
