// End-to-end tests of --listen: shared lists and private subscriptions, socket and directory modes, stale and live sockets, --stay, signals.
import Foundation
import JSON
import XCTest

@testable import JSONRPC

final class SocketTests: XCTestCase {
  private var directory: PrivateDirectory!
  private var socketPath: String { directory.file("listd.sock") }

  override func setUpWithError() throws {
    directory = try PrivateDirectory()
  }

  override func tearDown() {
    directory.remove()
  }

  func testSessionsShareListsButEachHasItsOwnSubscriptions() throws {
    let daemon = try DaemonProcess.listening(on: socketPath)
    let stdio = try TestClient(daemon, name: "stdio")
    let first = try TestClient.connect(socketPath, name: "first")
    let second = try TestClient.connect(socketPath, name: "second")
    let sessions = try [stdio, first, second].map { try $0.initialize()["session"]?.intValue }
    XCTAssertEqual(
      Set(sessions.compactMap { $0 }).count, 3, "each connection is its own session: \(sessions)")

    // A list created over stdio is announced to and usable by every session.
    try stdio.request(
      "list/create", ["list": "shared", "content": ["sections": [["id": "s", "items": [["id": "a"]]]]]])
    for client in [first, second] {
      XCTAssertNotNil(client.next("list/didCreate") { $0["list"] == "shared" })
    }
    try first.request("list/subscribe", ["list": "shared", "snapshot": "none"])
    try first.request(
      "list/edit", ["list": "shared", "edits": [["op": "appendItems", "items": [["id": "b"]]]]])
    try second.request(
      "list/edit", ["list": "shared", "edits": [["op": "appendItems", "items": [["id": "c"]]]]])
    XCTAssertEqual(first.next("list/didChange") { $0["version"] == 2 }?["previousVersion"], 1)
    // Only the subscribed session got changes.
    XCTAssertEqual(try second.version(of: "shared"), 2)
    XCTAssertEqual(try stdio.request("list/info", ["list": "shared"])["subscribers"], 1)
    XCTAssertFalse(second.notifications.contains { $0.method == "list/didChange" })
    XCTAssertFalse(stdio.notifications.contains { $0.method == "list/didChange" })

    // A list created over a socket is shared the other way; subscribing to all is per session.
    try second.request("list/subscribe", ["snapshot": "none"])
    try first.request("list/create", ["list": "mine"])
    XCTAssertNotNil(second.next("list/didCreate") { $0["list"] == "mine" })
    try stdio.request(
      "list/edit", ["list": "mine", "edits": [["op": "appendSections", "sections": [["id": "x"]]]]])
    XCTAssertEqual(second.next("list/didChange") { $0["list"] == "mine" }?["version"], 1)
    let lists = try stdio.request("list/all")["lists"]?.arrayValue?.compactMap { $0["list"]?.stringValue }
    XCTAssertEqual(Set(lists ?? []), ["shared", "mine"])
    XCTAssertEqual(
      try stdio.request("list/info", ["list": "mine"])["owner"]?["session"], sessions[1].map { .int($0) })

    // `exit` on a socket closes that connection only.
    first.notify("exit")
    XCTAssertTrue(waitUntil { first.connection.isClosed })
    XCTAssertEqual(try second.version(of: "shared"), 2)
    XCTAssertEqual(try stdio.version(of: "mine"), 1)
    XCTAssertTrue(daemon.process.isRunning)
    second.close()
    stdio.close()
  }

  func testSocketIsMode0600InsideADirectoryOnlyTheUserCanEnter() throws {
    let daemon = try DaemonProcess.listening(on: socketPath)
    let socket = try XCTUnwrap(fileStatus(socketPath))
    XCTAssertEqual(socket.st_mode & S_IFMT, S_IFSOCK)
    XCTAssertEqual(socket.st_mode & 0o777, 0o600)
    XCTAssertEqual(socket.st_uid, getuid())
    XCTAssertEqual(try XCTUnwrap(fileStatus(directory.path)).st_mode & 0o777, 0o700)
    // No temporary name left behind.
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["listd.sock"])
    daemon.stop()
  }

  func testDefaultPathIsUnderXDGRuntimeDirInADirectoryCreated0700() throws {
    let daemon = try DaemonProcess(["--listen"], environment: ["XDG_RUNTIME_DIR": directory.path])
    let expected = directory.file("listd/listd.sock")
    XCTAssertTrue(waitUntil { fileStatus(expected) != nil }, "no socket at \(expected)")
    XCTAssertEqual(try XCTUnwrap(fileStatus(directory.file("listd"))).st_mode & 0o777, 0o700)
    XCTAssertEqual(try XCTUnwrap(fileStatus(expected)).st_mode & 0o777, 0o600)
    let client = try TestClient.connect(expected)
    try client.initialize()
    XCTAssertEqual(try client.request("list/all")["lists"], [])
    client.close()
    daemon.send(signal: SIGTERM)
    XCTAssertEqual(daemon.waitForExit(), 0)
    XCTAssertNil(fileStatus(expected))
  }

  func testADirectoryOthersCanEnterIsRefusedAtStartup() throws {
    let open = directory.file("open")
    XCTAssertEqual(mkdir(open, 0o755), 0)
    chmod(open, 0o755)
    let daemon = try DaemonProcess(["--listen", open + "/listd.sock"])
    XCTAssertEqual(daemon.waitForExit(), 1)
    let message = daemon.standardError()
    XCTAssertTrue(message.contains(open), message)
    XCTAssertTrue(message.contains("can be entered by other users"), message)
    XCTAssertTrue(message.contains("755"), message)
    XCTAssertNil(fileStatus(open + "/listd.sock"))
  }

  func testADirectoryOwnedBySomeoneElseIsRefusedAtStartup() throws {
    guard getuid() == 0 else { throw XCTSkip("needs root to give a directory to another uid") }
    let foreign = directory.file("foreign")
    XCTAssertEqual(mkdir(foreign, 0o700), 0)
    XCTAssertEqual(chown(foreign, 65534, 65534), 0)
    let daemon = try DaemonProcess(["--listen", foreign + "/listd.sock"])
    XCTAssertEqual(daemon.waitForExit(), 1)
    let message = daemon.standardError()
    XCTAssertTrue(message.contains("belongs to uid 65534"), message)
  }

  func testAPathThatIsNotASocketIsRefusedAndLeftAlone() throws {
    XCTAssertTrue(FileManager.default.createFile(atPath: socketPath, contents: Data("keep me".utf8)))
    let daemon = try DaemonProcess(["--listen", socketPath])
    XCTAssertEqual(daemon.waitForExit(), 1)
    XCTAssertTrue(daemon.standardError().contains("exists and is not a socket"))
    XCTAssertEqual(FileManager.default.contents(atPath: socketPath), Data("keep me".utf8))
  }

  func testAStaleSocketFileIsReplaced() throws {
    // A socket bound and closed without unlinking: nobody listens on it.
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    XCTAssertEqual(try UnixSocket.withAddress(socketPath) { bind(fd, $0, $1) }, 0)
    close(fd)
    XCTAssertEqual(fileStatus(socketPath).map { $0.st_mode & S_IFMT }, S_IFSOCK)
    XCTAssertThrowsError(try UnixSocket.connect(to: socketPath))

    let daemon = try DaemonProcess(["--listen", socketPath])
    let client = try TestClient.connect(socketPath)
    try client.initialize()
    try client.request("list/create", ["list": "x"])
    XCTAssertEqual(try XCTUnwrap(fileStatus(socketPath)).st_mode & 0o777, 0o600)
    client.close()

    // A daemon killed with SIGKILL leaves its socket behind; the next one replaces it.
    kill(daemon.pid, SIGKILL)
    XCTAssertNotNil(daemon.waitForExit())
    XCTAssertEqual(fileStatus(socketPath).map { $0.st_mode & S_IFMT }, S_IFSOCK)
    let next = try DaemonProcess(["--listen", socketPath])
    let again = try TestClient.connect(socketPath)
    try again.initialize()
    XCTAssertEqual(try again.request("list/all")["lists"], [])  // a new daemon, not the dead one
    again.close()
    next.stop()
  }

  func testALiveSocketIsNotTakenOver() throws {
    let first = try DaemonProcess.listening(on: socketPath)
    let owner = try TestClient.connect(socketPath)
    try owner.initialize()
    try owner.request("list/create", ["list": "kept"])

    let second = try DaemonProcess(["--listen", socketPath])
    XCTAssertEqual(second.waitForExit(), 1)
    let message = second.standardError()
    XCTAssertTrue(message.contains("another listd is listening on \(socketPath)"), message)
    // The first daemon still owns the path.
    let client = try TestClient.connect(socketPath)
    try client.initialize()
    XCTAssertEqual(try client.version(of: "kept"), 0)
    client.close()
    owner.close()
    first.stop()
  }

  func testStayKeepsServingSocketClientsAfterStdinCloses() throws {
    let log = directory.file("log")
    let daemon = try DaemonProcess.listening(on: socketPath, ["--stay", "--log-file", log])
    let stdio = try TestClient(daemon)
    try stdio.initialize()
    try stdio.request("list/create", ["list": "kept"])
    let client = try TestClient.connect(socketPath)
    try client.initialize()
    daemon.closeInput()
    XCTAssertTrue(waitUntil { logContents(log).contains("stdin closed") }, logContents(log))
    XCTAssertTrue(daemon.process.isRunning)
    XCTAssertEqual(try client.version(of: "kept"), 0)
    try client.request(
      "list/edit", ["list": "kept", "edits": [["op": "appendSections", "sections": [["id": "s"]]]]])
    // New clients are still accepted.
    let late = try TestClient.connect(socketPath)
    try late.initialize()
    XCTAssertEqual(try late.version(of: "kept"), 1)
    late.close()
    client.close()
    daemon.send(signal: SIGTERM)
    XCTAssertEqual(daemon.waitForExit(), 0)
    XCTAssertNil(fileStatus(socketPath))
  }

  func testWithoutStayClosingStdinStopsTheDaemonAndRemovesTheSocket() throws {
    let daemon = try DaemonProcess.listening(on: socketPath)
    let raw = try RawClient.socket(socketPath)
    XCTAssertNotNil(raw.request(id: 1, "initialize", [:])?["result"])
    daemon.closeInput()
    XCTAssertEqual(daemon.waitForExit(), 0)
    XCTAssertNil(fileStatus(socketPath))
    XCTAssertTrue(raw.waitForEndOfFile(), "the socket client was not disconnected")
  }

  func testSIGTERMAndSIGINTStopCleanlyAndRemoveTheSocket() throws {
    for signal in [SIGTERM, SIGINT] {
      let daemon = try DaemonProcess.listening(on: socketPath)
      let client = try TestClient.connect(socketPath)
      try client.initialize()
      daemon.send(signal: signal)
      XCTAssertEqual(daemon.waitForExit(), 0, "signal \(signal)")
      XCTAssertNil(fileStatus(socketPath), "signal \(signal) left the socket")
      XCTAssertTrue(waitUntil { client.connection.isClosed }, "signal \(signal): client still connected")
    }
  }

  /// SO_PEERCRED: a peer of another uid is refused. Testing a second uid end to end needs another
  /// user account, so this checks the credential lookup the listener relies on: it reports our
  /// own uid for both ends of a socket pair and for a connection accepted by the real daemon.
  func testPeerCredentialsReportTheConnectingUser() throws {
    var pair: [Int32] = [-1, -1]
    XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
    defer {
      close(pair[0])
      close(pair[1])
    }
    XCTAssertEqual(UnixSocket.peerUID(pair[0]), getuid())
    XCTAssertEqual(UnixSocket.peerUID(pair[1]), getuid())
    // Not a socket: no credentials, rather than a wrong uid.
    let notASocket = open(directory.path, O_RDONLY)
    XCTAssertNil(UnixSocket.peerUID(notASocket))
    close(notASocket)

    let daemon = try DaemonProcess.listening(on: socketPath, ["--log-level", "debug"])
    let fd = try UnixSocket.connect(to: socketPath)
    defer { close(fd) }
    XCTAssertEqual(UnixSocket.peerUID(fd), getuid())  // the daemon's uid, as seen by us
    let client = RawClient(reading: fd, writing: fd)
    XCTAssertNotNil(client.request(id: 1, "initialize", [:])?["result"], "a same-uid peer is served")
    daemon.stop()
  }
}
