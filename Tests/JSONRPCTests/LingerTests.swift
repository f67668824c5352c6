// Connection tests of lingering: a socket closed after its last answers ends in end of file for a peer still sending, never a reset, for a bounded time.
import Foundation
import JSONRPC
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

final class LingerTests: XCTestCase {
  let log = CapturedLog()

  override func setUp() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// A server that stops reading at the notification `stop` and stays open until closed (as
  /// listd's sessions do in a stop), and its raw peer.
  func stoppedServer(linger: Duration?) throws -> (Connection, RawPeer) {
    var options = Connection.Options(dispatch: .serial, logger: log.logger)
    options.lingerTimeout = linger
    let (server, peer) = try RawPeer.withServer(options) { server in
      server.onRequest("fast") { _ in "quick" }
      server.onNotification("stop") { _ in }
      server.setGate { [weak server] method, isRequest in
        if method == "stop" && !isRequest {
          server?.stopReading(holdingOpen: true) {
            ResponseError(-32019, "stopping: '\($0)' was not executed")
          }
        }
        return nil
      }
    }
    peer.send(#"{"jsonrpc":"2.0","id":1,"method":"fast"}"#)
    peer.send(#"{"jsonrpc":"2.0","method":"stop"}"#)
    server.waitUntilAnswered()
    // The reading has stopped: these stay unread in the server's socket.
    // One write: many small ones would fill the socket's buffer with their overhead and block.
    let frames = (2..<500).map {
      FrameWriter(framing: .contentLength).frame(
        Array(#"{"jsonrpc":"2.0","id":\#($0),"method":"fast"}"#.utf8))
    }
    peer.write(Array(frames.joined()))
    XCTAssertTrue(server.notify("last"))
    return (server, peer)
  }

  func testAPeerWithUnreadRequestsReadsEveryAnswerThenEndOfFile() throws {
    let (server, peer) = try stoppedServer(linger: .seconds(30))
    server.close()
    let (messages, ending) = readToEnd(peer.fd)
    XCTAssertEqual(ending, "end of file", "closing with unread input reset the connection")
    let parsed = messages.compactMap { try? JSONValue(parsing: Array($0.utf8)) }
    XCTAssertEqual(parsed.map { $0["id"] ?? $0["method"] ?? .null }, [1, "last"], "\(messages)")
    XCTAssertEqual(parsed.first?["result"], "quick")
    // The server drops what the peer still sends until the peer closes: writing does not fail.
    peer.send(#"{"jsonrpc":"2.0","id":600,"method":"fast"}"#)
    XCTAssertEqual(writeFails(peer.fd), false)
    XCTAssertFalse(closedWithin(server, seconds: 0.2), "closed before the peer did (or the linger ended)")
    shutdown(peer.fd, Int32(SHUT_WR))
    XCTAssertTrue(closedWithin(server, seconds: 10), "the peer closed, yet the server lingers on")
  }

  /// A peer that never closes holds the close for the linger timeout, no longer.
  func testAPeerThatNeverClosesIsWaitedForOnlyTheLingerTimeout() throws {
    let (server, peer) = try stoppedServer(linger: .milliseconds(100))
    server.close()
    XCTAssertTrue(closedWithin(server, seconds: 10), "the linger never ended")
    let (_, ending) = readToEnd(peer.fd)
    XCTAssertEqual(ending, "end of file")
    XCTAssertEqual(writeFails(peer.fd), true, "the server's descriptor is still open")
  }

  /// A peer with nothing unread is not waited for, even with a long linger timeout: an idle
  /// client that keeps its end open holds nothing up.
  func testAnIdlePeerIsNotWaitedFor() throws {
    var options = Connection.Options(dispatch: .serial, logger: log.logger)
    options.lingerTimeout = .seconds(60)
    let (server, peer) = try RawPeer.withServer(options) { server in
      server.onRequest("fast") { _ in "quick" }
    }
    peer.send(#"{"jsonrpc":"2.0","id":1,"method":"fast"}"#)
    XCTAssertEqual(peer.readJSON(1).count, 1)
    server.close()
    XCTAssertTrue(closedWithin(server, seconds: 10), "the server lingered for an idle peer")
    XCTAssertEqual(readToEnd(peer.fd).ending, "end of file")
  }

  /// Whether `server.waitUntilClosed()` returns within `seconds`.
  private func closedWithin(_ server: Connection, seconds: Double) -> Bool {
    let closed = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      server.waitUntilClosed()
      closed.signal()
    }
    return closed.wait(timeout: .now() + seconds) == .success
  }

  /// Whether writing a byte to `fd` fails (the other end is closed).
  private func writeFails(_ fd: Int32) -> Bool {
    var byte: UInt8 = 0x20
    return Glibc.write(fd, &byte, 1) < 0
  }

  /// Reads `fd` until it ends: the frames' bodies, and "end of file" or the error that ended it.
  private func readToEnd(_ fd: Int32) -> (messages: [String], ending: String) {
    var reader = FrameReader()
    var messages: [String] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 10_000) > 0 else { return (messages, "timed out") }
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count == 0 { return (messages, "end of file") }
      if count < 0 { return (messages, String(cString: strerror(errno))) }
      for case .frame(let body) in reader.feed(chunk[0..<count]) {
        messages.append(String(decoding: body, as: UTF8.self))
      }
    }
  }
}
