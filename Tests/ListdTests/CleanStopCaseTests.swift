// End-to-end cases of a clean stop: a socket session's exit, a refresh waiting on an owner at SIGTERM, stdin closing.
import Foundation
import JSON
import JSONRPC
import XCTest

final class CleanStopCaseTests: XCTestCase {
  private var directory: PrivateDirectory!
  private var socketPath: String { directory.file("listd.sock") }

  override func setUpWithError() throws {
    signal(SIGPIPE, SIG_IGN)
    directory = try PrivateDirectory()
  }

  override func tearDown() {
    directory.remove()
  }

  private func edit(id: Int, _ item: String) -> [UInt8] {
    PipeliningClient.frame(
      id: id, "list/edit", ["list": "l", "edits": [["op": "appendItems", "items": [["id": .string(item)]]]]])
  }

  /// `exit` on a socket, pipelined behind changes: every change read before it is answered,
  /// then that connection closes (without `daemon/stopping`: it asked); a request after `exit`
  /// is not executed. (The connection used to close at once, dropping answers in progress.)
  func testExitOnASocketAnswersEverythingBeforeItAndExecutesNothingAfter() throws {
    let daemon = try DaemonProcess.listening(on: socketPath, ["--log-level", "warning"])
    let stdio = PipeliningClient(daemon)
    try stdio.call(id: 1, "initialize", [:])
    try stdio.call(id: 2, "list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    let client = try XCTUnwrap(PipeliningClient.socket(socketPath, name: "socket"))
    try client.call(id: 1, "initialize", [:])
    var burst = (0..<200).flatMap { edit(id: 100 + $0, "i\($0)") }
    burst += PipeliningClient.notificationFrame("exit") + edit(id: 300, "after-exit")
    client.write(burst)
    XCTAssertTrue(client.waitForEndOfFile(), "the socket session did not close after exit")
    let answers = Dictionary(
      client.received.compactMap { message in message["id"]?.intValue.map { ($0, message) } },
      uniquingKeysWith: { first, _ in first })
    for index in 0..<200 {
      XCTAssertEqual(
        answers[Int64(100 + index)]?["result"]?["version"], .int(Int64(index + 1)), "edit \(index)")
    }
    if let after = answers[300] {  // read in the same read as exit: refused
      XCTAssertEqual(after["error"]?["code"], -32019, "\(after)")
      XCTAssertEqual(
        after["error"]?["message"], "this session sent exit: 'list/edit' was read but not executed")
    }
    XCTAssertFalse(client.received.contains { $0["method"] == "daemon/stopping" })
    XCTAssertTrue(daemon.process.isRunning, "a socket session's exit closes that session only")
    XCTAssertEqual(try stdio.call(id: 3, "list/info", ["list": "l"])["version"], 200)
    daemon.send(signal: SIGTERM)
    XCTAssertEqual(daemon.exitStatusKillingAfter(30), 0)
    XCTAssertEqual(stdio.received.last?["method"], "daemon/stopping")
    XCTAssertEqual(stdio.received.last?["params"], ["reason": "SIGTERM"])
  }

  /// An `event/refresh` waiting on an owner that never answers, at SIGTERM: the owner's answer
  /// can no longer be read, so the refresh fails at once (-32016) instead of waiting out its
  /// 60-second timeout, and the daemon exits. (It used to exit with the refresh unanswered.)
  func testARefreshWaitingOnAnOwnerIsAnsweredWhenTheDaemonStops() throws {
    let daemon = try DaemonProcess.listening(on: socketPath, ["--log-level", "warning"])
    let owner = try XCTUnwrap(PipeliningClient.socket(socketPath, name: "owner"))
    try owner.call(id: 1, "initialize", [:])
    try owner.call(id: 2, "list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    let viewer = try XCTUnwrap(PipeliningClient.socket(socketPath, name: "viewer"))
    try viewer.call(id: 1, "initialize", [:])
    viewer.write(PipeliningClient.frame(id: 2, "event/refresh", ["list": "l", "timeoutMs": 60_000]))
    XCTAssertTrue(waitUntil { owner.received.contains { $0["method"] == "owner/refresh" } })
    daemon.send(signal: SIGTERM)
    XCTAssertEqual(daemon.exitStatusKillingAfter(30), 0)
    XCTAssertTrue(viewer.waitForEndOfFile())
    let answer = viewer.received.first { $0["id"] == 2 }
    XCTAssertEqual(answer?["error"]?["code"], -32016, "\(answer ?? .null)")
    XCTAssertEqual(viewer.received.last?["method"], "daemon/stopping")
    XCTAssertEqual(owner.received.last?["method"], "daemon/stopping")
  }

  /// Closing stdin stops the daemon (without --stay) once stdio's requests are answered; the
  /// socket sessions are stopped cleanly, with `daemon/stopping` `{reason: "endOfInput"}`.
  func testClosingStdinStopsTheSocketSessionsCleanly() throws {
    let daemon = try DaemonProcess.listening(on: socketPath, ["--log-level", "warning"])
    let stdio = PipeliningClient(daemon)
    try stdio.call(id: 1, "initialize", [:])
    try stdio.call(id: 2, "list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    let client = try XCTUnwrap(PipeliningClient.socket(socketPath, name: "socket"))
    try client.call(id: 1, "initialize", [:])
    stdio.write((0..<100).flatMap { edit(id: 100 + $0, "stdio\($0)") })
    daemon.closeInput()
    XCTAssertEqual(daemon.exitStatusKillingAfter(30), 0)
    XCTAssertTrue(client.waitForEndOfFile())
    XCTAssertEqual(client.received.last?["params"], ["reason": "endOfInput"])
    // stdio's requests were all read (its input ended after them): all answered.
    let versions = stdio.received.filter { ($0["id"]?.intValue ?? 0) >= 100 }.compactMap {
      $0["result"]?["version"]?.intValue
    }
    XCTAssertEqual(versions, Array(1...100), "\(stdio.received.suffix(3))")
    XCTAssertNil(fileStatus(socketPath))
  }
}
