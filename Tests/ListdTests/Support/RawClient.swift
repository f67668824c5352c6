// A raw frame-level client of a daemon's pipes: writes frames or bytes, reads whole messages.
import Foundation
import JSON
import JSONRPC

/// Writes raw bytes or framed messages to the daemon and reads the messages it answers, with
/// no JSON-RPC logic of its own — for transcripts and malformed input.
final class RawClient: @unchecked Sendable {
  // `@unchecked Sendable`: `inbox` is behind `condition`; the descriptors are immutable.
  private let input: Int32
  private let output: Int32
  private let framing: Framing
  private let condition = NSCondition()
  private var inbox: [JSONValue] = []
  private var ended = false

  init(reading input: Int32, writing output: Int32, framing: Framing = .contentLength) {
    self.input = input
    self.output = output
    self.framing = framing
    let thread = Thread { [self] in readLoop() }
    thread.start()
  }

  convenience init(_ daemon: DaemonProcess, framing: Framing = .contentLength) {
    self.init(reading: daemon.output, writing: daemon.input, framing: framing)
  }

  private func readLoop() {
    var reader = FrameReader(framing: framing)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      let events = buffer.withUnsafeBytes { reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
      for case .frame(let body) in events {
        let value = (try? JSONParser().parse(body)) ?? .string("<unparsable frame>")
        condition.lock()
        inbox.append(value)
        condition.broadcast()
        condition.unlock()
      }
    }
    condition.lock()
    ended = true
    condition.broadcast()
    condition.unlock()
  }

  /// Writes bytes as they are.
  func write(bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
      if written <= 0 { return }
      offset += written
    }
  }

  /// Writes one message in this client's framing.
  func send(_ message: JSONValue) {
    var writer = JSONWriter()
    writer.write(message)
    write(bytes: FrameWriter(framing: framing).frame(writer.bytes))
  }

  /// Takes the first received message satisfying `matching`, waiting up to `timeout`.
  func take(timeout: TimeInterval = 10, matching: (JSONValue) -> Bool = { _ in true }) -> JSONValue? {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let index = inbox.firstIndex(where: matching) { return inbox.remove(at: index) }
      if ended { return nil }
      guard condition.wait(until: deadline) else { return nil }
    }
  }

  /// The response to request `id`.
  func response(to id: JSONValue, timeout: TimeInterval = 10) -> JSONValue? {
    take(timeout: timeout) { $0["id"] == id && $0["method"] == nil }
  }

  /// The next notification (a message with a method and no id), in arrival order.
  func notification(timeout: TimeInterval = 10) -> JSONValue? {
    take(timeout: timeout) { $0["method"] != nil && $0["id"] == nil }
  }

  /// Messages received and not taken yet.
  var pending: [JSONValue] {
    condition.lock()
    defer { condition.unlock() }
    return inbox
  }
}
