// End-to-end tests of the lifecycle through the real binary: initialize, gating, shutdown, exit codes.
import JSON
import JSONRPC
import XCTest

final class LifecycleTests: XCTestCase {
  func testInitializeAnswersServerInfoCapabilitiesAndLimits() throws {
    let daemon = try DaemonProcess()
    let client = try TestClient(daemon)
    let result = try client.initialize()
    XCTAssertEqual(result["serverInfo"]?["name"], "listd")
    XCTAssertEqual(result["protocolVersion"], 1)
    let methods = result["capabilities"]?["methods"]?.arrayValue?.compactMap(\.stringValue) ?? []
    XCTAssertTrue(methods.contains("list/edit"))
    XCTAssertEqual(result["capabilities"]?["limits"]?["historyVersions"], 1000)
    XCTAssertEqual(result["capabilities"]?["limits"]?["explainVersions"], 1000)
    client.close()
  }

  func testRequestsBeforeInitializeGetServerNotInitialized() throws {
    let daemon = try DaemonProcess()
    let client = try TestClient(daemon)
    let error = client.error("list/all")
    XCTAssertEqual(error.code, .serverNotInitialized)
    XCTAssertTrue(error.message.contains("list/all"), error.message)
    try client.initialize()
    XCTAssertNotNil(try client.request("list/all")["lists"])
    XCTAssertEqual(client.error("initialize", [:]).code, .invalidRequest)  // only once
    client.close()
  }

  func testRequestsAfterShutdownAreInvalidAndExitCodeIsZero() throws {
    let daemon = try DaemonProcess()
    let client = try TestClient(daemon)
    try client.initialize()
    XCTAssertEqual(try client.request("shutdown"), .null)
    let error = client.error("list/all")
    XCTAssertEqual(error.code, .invalidRequest)
    XCTAssertTrue(error.message.contains("after shutdown"), error.message)
    client.notify("exit")
    XCTAssertEqual(daemon.waitForExit(), 0)
    client.close()
  }

  func testExitWithoutShutdownExitsWithOne() throws {
    let daemon = try DaemonProcess()
    let client = try TestClient(daemon)
    try client.initialize()
    client.notify("exit")
    XCTAssertEqual(daemon.waitForExit(), 1)
  }

  func testClosingStdinEndsTheDaemonCleanly() throws {
    let daemon = try DaemonProcess()
    let client = try TestClient(daemon)
    try client.initialize()
    daemon.closeInput()
    XCTAssertEqual(daemon.waitForExit(), 0)
    XCTAssertFalse(daemon.standardError().contains("error"))
  }

  /// The README's printf example: stdin ends right after session 1 is answered, and the stop's
  /// log line counts it (it said "0 sessions answered and closed"); a socket session the stop
  /// closes counts too.
  func testTheStopAtEndOfInputCountsTheStdioSessionItAnswered() throws {
    let lines = [
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"list/create","params":{"list":"todo","content":{"sections":[{"id":"s"}]}}}"#,
    ]
    let daemon = try DaemonProcess()
    PipeliningClient.Writer(fd: daemon.input).write(Array(lines.map { $0 + "\n" }.joined().utf8))
    daemon.closeInput()
    XCTAssertEqual(daemon.waitForExit(), 0)
    let log = daemon.standardError()
    XCTAssertTrue(log.contains("stopped (endOfInput): 1 session answered and closed"), log)

    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let path = directory.file("listd.sock")
    let listening = try DaemonProcess.listening(on: path)
    defer { listening.stop() }
    guard let socket = PipeliningClient.socket(path, name: "socket") else {
      throw TestFailure("cannot connect")
    }
    try socket.call(id: 1, "initialize", [:])
    listening.closeInput()
    XCTAssertTrue(socket.waitForEndOfFile())
    XCTAssertEqual(listening.waitForExit(), 0)
    let both = listening.standardError()
    XCTAssertTrue(both.contains("stopped (endOfInput): 2 sessions answered and closed"), both)
  }

  func testShutdownAnswersAfterQueuedChangesSoExitLosesNothing() throws {
    let daemon = try DaemonProcess()
    let client = try TestClient(daemon)
    try client.initialize()
    try client.request("list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    // Pipelined: the edits are queued on the list when shutdown arrives.
    for index in 0..<50 {
      client.connection.sendRequest(
        "list/edit",
        ["list": "l", "edits": [["op": "appendItems", "items": [["id": .string("i\(index)")]]]]]
      ) { _ in }
    }
    XCTAssertEqual(try client.request("shutdown"), .null)
    client.notify("exit")
    XCTAssertEqual(daemon.waitForExit(), 0)
  }

  func testStdoutCarriesOnlyFramesAndLogsGoToStderr() throws {
    let daemon = try DaemonProcess(["--log-level", "debug"])
    let client = try TestClient(daemon)
    try client.initialize()
    try client.request("list/create", ["list": "x"])
    daemon.closeInput()
    XCTAssertEqual(daemon.waitForExit(), 0)
    XCTAssertTrue(daemon.standardError().contains("session 1"))  // the log went to stderr
    client.close()  // every byte of stdout parsed as a frame, or the client would have failed
  }

  func testHelpAndVersion() throws {
    for (flag, expected) in [("--help", "usage: listd"), ("--version", "listd 0.1.0")] {
      let daemon = try DaemonProcess([flag])
      XCTAssertEqual(daemon.waitForExit(), 0)
      let output = String(decoding: daemon.stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      XCTAssertTrue(output.contains(expected), output)
    }
    let bad = try DaemonProcess(["--frobnicate"])
    XCTAssertEqual(bad.waitForExit(), 2)
    XCTAssertTrue(bad.standardError().contains("unknown option '--frobnicate'"))
  }

  func testALogFileThatCannotBeOpenedSaysWhy() throws {
    let daemon = try DaemonProcess(["--log-file", "/nonexistent-dir/x.log"])
    XCTAssertEqual(daemon.waitForExit(), 2)
    XCTAssertTrue(
      daemon.standardError().contains(
        "cannot open log file /nonexistent-dir/x.log: No such file or directory"),
      daemon.standardError())
  }
}
