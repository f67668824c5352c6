// A raw session for stop tests: writes pipelined bursts while a thread of its own reads every frame until end of file.
import Foundation
import JSON
import JSONRPC
import XCTest

/// A session of a running daemon (its stdio or a socket) that never waits for an answer before
/// writing the next request: a reading thread collects every message the daemon sends, in
/// order, until end of file, so a test can write a burst, stop the daemon, and then look at
/// exactly what came back.
final class PipeliningClient: @unchecked Sendable {
  // `@unchecked Sendable`: the collected messages are behind `condition`; the descriptors are
  // immutable; `write` is called from one thread at a time.
  let name: String
  private let readFD: Int32
  private let writeFD: Int32
  private let ownsDescriptor: Bool
  private let condition = NSCondition()
  private var messages: [JSONValue] = []
  private var ended = false
  private var problems: [String] = []

  init(name: String, reading readFD: Int32, writing writeFD: Int32, ownsDescriptor: Bool = false) {
    self.name = name
    self.readFD = readFD
    self.writeFD = writeFD
    self.ownsDescriptor = ownsDescriptor
    let thread = Thread { [self] in readUntilEndOfFile() }
    thread.name = "\(name).reader"
    thread.start()
  }

  /// A client of the daemon's stdio.
  convenience init(_ daemon: DaemonProcess) {
    self.init(name: "stdio", reading: daemon.output, writing: daemon.input)
  }

  /// A client of the daemon's socket; nil if it cannot connect (no socket, or refused).
  static func socket(_ path: String, name: String) -> PipeliningClient? {
    guard let fd = try? UnixSocket.connect(to: path) else { return nil }
    return PipeliningClient(name: name, reading: fd, writing: fd, ownsDescriptor: true)
  }

  deinit {
    if ownsDescriptor { Glibc.close(readFD) }
  }

  /// A request as one Content-Length frame.
  static func frame(id: Int, _ method: String, _ params: JSONValue? = nil) -> [UInt8] {
    var object: JSONObject = ["jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(method)]
    if let params { object.append("params", params) }
    return FrameWriter(framing: .contentLength).frame(JSONValue.object(object))
  }

  /// A notification as one Content-Length frame.
  static func notificationFrame(_ method: String) -> [UInt8] {
    FrameWriter(framing: .contentLength).frame(["jsonrpc": "2.0", "method": .string(method)] as JSONValue)
  }

  /// Writes all of `bytes`, blocking while the daemon does not read; false as soon as the daemon
  /// no longer takes them (it closed the connection or exited).
  @discardableResult
  func write(_ bytes: [UInt8]) -> Bool { Writer(fd: writeFD).write(bytes) }

  /// Blocking writes to a descriptor, until done or refused.
  struct Writer {
    let fd: Int32

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
      var offset = 0
      while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += written
      }
      return true
    }
  }

  /// Sends a request and waits for its answer (for setting up, before any burst).
  @discardableResult
  func call(id: Int, _ method: String, _ params: JSONValue? = nil) throws -> JSONValue {
    guard write(Self.frame(id: id, method, params)) else {
      throw TestFailure("\(name): cannot send \(method)")
    }
    let deadline = Date().addingTimeInterval(20)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let answer = messages.last(where: { $0["id"] == .int(Int64(id)) && $0["method"] == nil }) {
        if let error = answer["error"] { throw TestFailure("\(name): \(method) failed: \(error)") }
        return answer["result"] ?? .null
      }
      if ended || !condition.wait(until: deadline) {
        throw TestFailure("\(name): no answer to \(method) (id \(id))")
      }
    }
  }

  /// Waits until the daemon has closed the connection; false after `timeout` seconds.
  func waitForEndOfFile(timeout: TimeInterval = 20) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while !ended {
      if !condition.wait(until: deadline) { return ended }
    }
    return true
  }

  /// Every message received so far, in arrival order.
  var received: [JSONValue] {
    condition.lock()
    defer { condition.unlock() }
    return messages
  }

  /// Frames that were not JSON, or not frames.
  var malformed: [String] {
    condition.lock()
    defer { condition.unlock() }
    return problems
  }

  private func readUntilEndOfFile() {
    var reader = FrameReader()
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(readFD, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      // A reset (the daemon closed with requests it never read left behind) ends the stream too.
      guard count > 0 else { break }
      var parsed: [JSONValue] = []
      var bad: [String] = []
      for event in reader.feed(chunk[0..<count]) {
        switch event {
        case .frame(let body):
          do { parsed.append(try JSONParser().parse(body)) } catch {
            bad.append("not JSON: \(String(decoding: body, as: UTF8.self))")
          }
        case .error(let error): bad.append("malformed frame: \(error)")
        }
      }
      condition.lock()
      messages += parsed
      problems += bad
      condition.broadcast()
      condition.unlock()
    }
    // Done, as a client is at end of file: a socket's end is closed for writing, so a daemon
    // waiting for it to close (lingering after its last answer) need not wait longer.
    if ownsDescriptor { shutdown(writeFD, Int32(SHUT_WR)) }
    condition.lock()
    ended = true
    condition.broadcast()
    condition.unlock()
  }
}

extension DaemonProcess {
  /// The daemon's exit status; nil if it is still running after `seconds` (then it is killed
  /// with SIGKILL: a daemon stuck in its stop ignores SIGTERM, which would hang the test).
  func exitStatusKillingAfter(_ seconds: TimeInterval) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    guard process.isRunning else { return process.terminationStatus }
    kill(pid, SIGKILL)
    process.waitUntilExit()
    return nil
  }
}
