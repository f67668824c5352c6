// A byte-level client for protocol tests, in process or end to end: writes any bytes (malformed frames included) and reads framed answers.
import Foundation
import JSON
import JSONRPC
import XCTest

/// Talks to a server (a daemon, or one in the test process) below the JSON-RPC layer: writes raw bytes, reads whatever frames
/// come back (in the framing the daemon chose), with a timeout on every wait.
public final class RawClient: @unchecked Sendable {
  // `@unchecked Sendable`: used by one thread at a time (a test may hand it to a reader thread).
  public let readFD: Int32
  public let writeFD: Int32
  /// Whether the descriptors belong to this client (a socket it opened) and are closed by it.
  private let ownsDescriptors: Bool
  private var reader = FrameReader()
  private var buffered: [JSONValue] = []
  public private(set) var sawEndOfFile = false

  public init(reading readFD: Int32, writing writeFD: Int32, owns: Bool = false) {
    self.readFD = readFD
    self.writeFD = writeFD
    ownsDescriptors = owns
  }

  /// A raw client of a daemon's socket.
  public static func socket(_ path: String) throws -> RawClient {
    let fd = try UnixSocket.connect(to: path)
    return RawClient(reading: fd, writing: fd, owns: true)
  }

  deinit { close() }

  private var closed = false

  /// Closes a socket this client opened (both directions).
  public func close() {
    guard ownsDescriptors, !closed else { return }
    closed = true
    Glibc.close(readFD)
  }

  // MARK: - Writing

  /// Writes all of `bytes` (blocking).
  public func write(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(writeFD, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        XCTFail("write failed: \(String(cString: strerror(errno)))")
        return
      }
      offset += written
    }
  }

  public func write(_ text: String) { write(Array(text.utf8)) }

  /// Writes `body` as one Content-Length frame.
  public func frame(_ body: String) { write(FrameWriter(framing: .contentLength).frame(Array(body.utf8))) }

  /// Writes `message` as one Content-Length frame.
  public func frame(_ message: JSONValue) { write(FrameWriter(framing: .contentLength).frame(message)) }

  /// Writes a request frame `{jsonrpc, id, method, params?}`.
  public func sendRequest(
    id: Int, _ method: String, _ params: JSONValue? = nil, framing: Framing = .contentLength
  ) {
    var object: JSONObject = ["jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(method)]
    if let params { object.append("params", params) }
    write(FrameWriter(framing: framing).frame(JSONValue.object(object)))
  }

  // MARK: - Reading

  /// The next message the daemon sends, or nil at end of file or after `timeout` seconds.
  public func next(timeout: TimeInterval = 10) -> JSONValue? {
    let deadline = Date().addingTimeInterval(timeout)
    while buffered.isEmpty {
      if sawEndOfFile { return nil }
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return nil }
      readSome(waitingAtMost: left)
    }
    return buffered.removeFirst()
  }

  /// Waits for the answer with `id`, skipping notifications and other answers.
  public func response(id: Int, timeout: TimeInterval = 10) -> JSONValue? {
    let deadline = Date().addingTimeInterval(timeout)
    while let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
      if message["id"] == .int(Int64(id)) { return message }
    }
    return nil
  }

  /// Sends a request and waits for its answer.
  public func request(
    id: Int, _ method: String, _ params: JSONValue? = nil, framing: Framing = .contentLength
  )
    -> JSONValue?
  {
    sendRequest(id: id, method, params, framing: framing)
    return response(id: id)
  }

  /// Reads (discarding messages) until the daemon closes the stream; true if it did within `timeout`.
  public func waitForEndOfFile(timeout: TimeInterval = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !sawEndOfFile {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return false }
      buffered.removeAll()
      readSome(waitingAtMost: left)
    }
    return true
  }

  /// Waits until bytes are readable, then reads what is there and parses the frames it completes.
  private func readSome(waitingAtMost seconds: TimeInterval) {
    var descriptor = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, Int32(min(seconds, 60) * 1000) + 1)
    guard ready > 0 else { return }
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    let count = chunk.withUnsafeMutableBytes { Glibc.read(readFD, $0.baseAddress, $0.count) }
    if count < 0 {
      if errno == EINTR || errno == EAGAIN { return }
      sawEndOfFile = true  // ECONNRESET and friends: the daemon dropped us
      return
    }
    if count == 0 {
      sawEndOfFile = true
      return
    }
    for event in reader.feed(chunk[0..<count]) {
      switch event {
      case .frame(let body):
        do {
          buffered.append(try JSONParser().parse(body))
        } catch {
          XCTFail(
            "the daemon sent a frame that is not JSON: \(error): \(String(decoding: body, as: UTF8.self))")
        }
      case .error(let error):
        XCTFail("the daemon sent a malformed frame: \(error)")
      }
    }
  }
}

extension JSONValue {
  /// `error.code` of a response, if it is an error.
  public var errorCode: Int64? { self["error"]?["code"]?.intValue }
  /// `error.message` of a response, if it is an error.
  public var errorMessage: String { self["error"]?["message"]?.stringValue ?? "" }
}
