// End-to-end: a clean stop ends a socket whose client is still sending with every answer, then end of file — never a reset.
import Foundation
import JSON
import JSONRPC
import XCTest

/// Closing a socket with unread input resets it: the client's read ends in ECONNRESET (over
/// TCP it would lose the answers not read yet) and its writes fail. A clean stop half-closes
/// each socket after its last answer and drops what the client still sends until it closes.
final class CleanStopEndOfFileTests: XCTestCase {
  override func setUp() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// The viewer's `event/refresh` waits on an owner that never answers; the viewer leaves 1 MB
  /// of answers unread, so its connection stays open through the stop; once every session has
  /// stopped reading (stdio got `daemon/stopping`) it sends requests the daemon will never
  /// read, then reads: every answer, the `-32016` of the refresh, `daemon/stopping`, then end
  /// of file.
  func testAClientWithUnreadRequestsReadsEveryAnswerThenEndOfFile() throws {
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let path = directory.file("listd.sock")
    let daemon = try DaemonProcess.listening(on: path, ["--log-level", "warning"])
    defer { daemon.stop() }
    let stdio = PipeliningClient(daemon)
    try stdio.call(id: 1, "initialize", [:])
    guard let owner = PipeliningClient.socket(path, name: "owner") else {
      throw TestFailure("cannot connect")
    }
    try owner.call(id: 1, "initialize", [:])
    let text = JSONValue.string(String(repeating: "x", count: 1000))
    let items = (0..<1000).map { index -> JSONValue in ["id": .string("i\(index)"), "text": text] }
    try owner.call(
      id: 2, "list/create", ["list": "l", "content": ["sections": [["id": "s", "items": .array(items)]]]])

    let viewer = try UnixSocket.connect(to: path)
    defer { close(viewer) }
    let writer = PipeliningClient.Writer(fd: viewer)
    writer.write(
      PipeliningClient.frame(id: 1, "initialize", [:])
        + PipeliningClient.frame(id: 2, "query/content", ["list": "l"])
        + PipeliningClient.frame(id: 3, "event/refresh", ["list": "l"]))
    // The owner was asked: the daemon has read all three (it reads a connection in order).
    XCTAssertTrue(
      waitUntil { owner.received.contains { $0["method"] == "owner/refresh" } }, "no owner/refresh")
    daemon.send(signal: SIGTERM)
    XCTAssertTrue(
      waitUntil { stdio.received.contains { $0["method"] == "daemon/stopping" } },
      "stdio got no daemon/stopping")
    // Every session has stopped reading: these stay unread in the daemon's socket.
    writer.write((100..<400).flatMap { PipeliningClient.frame(id: $0, "list/all", [:]) })

    let (messages, ending) = readToEnd(viewer)
    XCTAssertEqual(ending, "end of file", "the connection did not end cleanly")
    XCTAssertEqual(summary(messages), ["1: result", "2: result", "3: -32016", "daemon/stopping"])
    XCTAssertEqual(
      messages.dropFirst().first?["result"]?["content"]?["sections"]?[0]?["items"]?.arrayValue?.count, 1000)
    close(viewer)
    XCTAssertEqual(daemon.exitStatusKillingAfter(30), 0, daemon.standardError())
  }

  /// A socket session's own `exit` closes it the same way: a request read with the `exit` is
  /// refused (`-32019`), and requests sent after it stay unread, yet the client reads every
  /// answer, then end of file.
  func testASocketSessionThatSentExitReadsEveryAnswerThenEndOfFile() throws {
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let path = directory.file("listd.sock")
    let daemon = try DaemonProcess.listening(on: path, ["--log-level", "warning"])
    defer { daemon.stop() }
    let stdio = PipeliningClient(daemon)
    try stdio.call(id: 1, "initialize", [:])
    let text = JSONValue.string(String(repeating: "x", count: 1000))
    let items = (0..<1000).map { index -> JSONValue in ["id": .string("i\(index)"), "text": text] }
    try stdio.call(
      id: 2, "list/create", ["list": "l", "content": ["sections": [["id": "s", "items": .array(items)]]]])

    let session = try UnixSocket.connect(to: path)
    defer { close(session) }
    let writer = PipeliningClient.Writer(fd: session)
    // One write, so one read: the `list/all` behind `exit` is read with it. The 1 MB answer,
    // left unread for now, keeps the connection open.
    writer.write(
      PipeliningClient.frame(id: 1, "initialize", [:])
        + PipeliningClient.frame(id: 2, "query/content", ["list": "l"])
        + PipeliningClient.notificationFrame("exit") + PipeliningClient.frame(id: 3, "list/all", [:]))
    XCTAssertTrue(waitUntil { unreadByPeer(session) == 0 }, "the daemon did not read the requests")
    // The reading stopped at `exit`: these stay unread in the daemon's socket.
    writer.write((100..<400).flatMap { PipeliningClient.frame(id: $0, "list/all", [:]) })

    let (messages, ending) = readToEnd(session)
    XCTAssertEqual(ending, "end of file", "the connection did not end cleanly")
    // The refusal is answered as it is read, before the query's answer is ready.
    XCTAssertEqual(summary(messages).sorted(), ["1: result", "2: result", "3: -32019"])
    close(session)
    XCTAssertTrue(daemon.process.isRunning, "a socket session's exit stopped the daemon")
  }

  /// Bytes written to the socket `fd` that its peer has not read yet (SIOCOUTQ).
  private func unreadByPeer(_ fd: Int32) -> Int32 {
    var count: Int32 = -1
    return ioctl(fd, UInt(TIOCOUTQ), &count) == 0 ? count : -1
  }

  /// Each message in a word: `id: result`, `id: code`, or the method.
  private func summary(_ messages: [JSONValue]) -> [String] {
    messages.map { message -> String in
      if let method = message["method"]?.stringValue { return method }
      if let code = message["error"]?["code"]?.intValue { return "\(message["id"]?.intValue ?? 0): \(code)" }
      return "\(message["id"]?.intValue ?? 0): result"
    }
  }

  /// Reads `fd` until it ends; the messages, and how it ended: "end of file" or the error.
  private func readToEnd(_ fd: Int32) -> ([JSONValue], String) {
    var reader = FrameReader()
    var messages: [JSONValue] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count == 0 { return (messages, "end of file") }
      if count < 0 { return (messages, String(cString: strerror(errno))) }
      for event in reader.feed(chunk[0..<count]) {
        if case .frame(let body) = event, let message = try? JSONParser().parse(body) {
          messages.append(message)
        }
      }
    }
  }
}
