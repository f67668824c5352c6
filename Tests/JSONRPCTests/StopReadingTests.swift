// Connection tests of a clean stop: stopReading answers what was read, refuses what follows; a close flushes for a bounded time.
import Foundation
import JSONRPC
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

final class StopReadingTests: XCTestCase {
  let log = CapturedLog()

  func options(_ dispatch: Connection.DispatchMode = .serial) -> Connection.Options {
    Connection.Options(dispatch: dispatch, logger: log.logger)
  }

  /// A server whose gate stops the reading at the notification `stop` (as listd's does at `exit`).
  func stoppingServer(holdingOpen: Bool) throws -> (Connection, RawPeer) {
    try RawPeer.withServer(options()) { server in
      server.onRequestDeferred("slow") { request in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { request.respond("done") }
      }
      server.onRequest("fast") { _ in "quick" }
      server.onNotification("stop") { _ in }
      server.setGate { [weak server] method, isRequest in
        if method == "stop" && !isRequest {
          server?.stopReading(holdingOpen: holdingOpen) { method in
            ResponseError(-32019, "stopping: '\(method)' was read but not executed")
          }
        }
        return nil
      }
    }
  }

  func testRequestsReadBeforeTheStopAreAnsweredAndThoseReadAfterAreRefused() throws {
    let (server, peer) = try stoppingServer(holdingOpen: false)
    let closed = Box<CloseReason?>(nil)
    server.onClose { closed.value = $0 }
    // One write, so one read: the stop comes in the middle of what the server has read.
    peer.write(
      frame(#"{"jsonrpc":"2.0","id":1,"method":"slow"}"#) + frame(#"{"jsonrpc":"2.0","method":"stop"}"#)
        + frame(#"{"jsonrpc":"2.0","id":2,"method":"fast"}"#)
        + frame(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#))
    let answers = peer.readJSON(2)
    let byID = Dictionary(
      answers.map { ($0["id"]?.intValue ?? 0, $0) }, uniquingKeysWith: { first, _ in first })
    XCTAssertEqual(
      byID[1]?["result"], "done", "read before the stop: run and answered, not cancelled after it")
    XCTAssertEqual(byID[2]?["error"]?["code"], -32019, "\(answers)")
    XCTAssertEqual(byID[2]?["error"]?["message"], "stopping: 'fast' was read but not executed")
    // Not held open: it closes once everything read is answered, and reads nothing more.
    waitUntil { closed.value != nil }
    XCTAssertEqual(closed.value, .closedLocally)
    peer.send(#"{"jsonrpc":"2.0","id":3,"method":"fast"}"#)
    XCTAssertEqual(peer.readJSON(1, timeout: 0.5), [])
  }

  func testHeldOpenUntilClosedAndRequestsToThePeerFailOnceReadingEnded() throws {
    let (server, peer) = try stoppingServer(holdingOpen: true)
    let asked = Box<Result<JSONValue, any Error>?>(nil)
    server.sendRequest("ask") { asked.value = $0 }  // the peer never answers
    peer.write(
      frame(#"{"jsonrpc":"2.0","id":1,"method":"slow"}"#) + frame(#"{"jsonrpc":"2.0","method":"stop"}"#))
    server.waitUntilAnswered()
    // The answer to `ask` can no longer be read: it fails at once, not at a timeout.
    waitUntil { asked.value != nil }
    guard case .failure(ConnectionError.closed) = asked.value else {
      return XCTFail("\(String(describing: asked.value))")
    }
    let late = Box<Result<JSONValue, any Error>?>(nil)
    server.sendRequest("again") { late.value = $0 }
    waitUntil { late.value != nil }
    XCTAssertFalse(server.isClosed, "held open")
    XCTAssertTrue(server.notify("last"))
    server.close()
    server.waitUntilClosed()
    let messages = peer.readJSON(3)
    XCTAssertEqual(messages.map { $0["method"] ?? $0["id"] ?? .null }, ["ask", 1, "last"], "\(messages)")
  }

  /// A peer that stops writing and never reads its answers: the connection still finishes
  /// closing once the flush timeout has passed (a writer waiting for room used to wait forever,
  /// never seeing the deadline the close set).
  func testAPeerThatNeverReadsCannotKeepAClosingConnectionAlive() throws {
    var serverOptions = options(.concurrent)
    serverOptions.flushTimeout = .milliseconds(200)
    let (server, peer) = try RawPeer.withServer(serverOptions) { server in
      server.onRequest("big") { _ in .string(String(repeating: "x", count: 100_000)) }
    }
    for id in 1...20 { peer.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"big"}"#) }  // 2 MB of answers
    peer.shutdownWrite()  // end of input: the connection answers, then closes
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      server.waitUntilClosed()
      finished.signal()
    }
    XCTAssertEqual(finished.wait(timeout: .now() + 10), .success, "the close never finished")
    XCTAssertTrue(log.lines.contains { $0.contains("output not flushed") }, "\(log.lines)")
    withExtendedLifetime(peer) {}
  }

  private func frame(_ body: String) -> [UInt8] {
    FrameWriter(framing: .contentLength).frame(Array(body.utf8))
  }
}
