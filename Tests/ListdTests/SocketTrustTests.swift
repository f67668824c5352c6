// Tests of what a client trusts before it talks to a socket: the directory, the socket file's owner, the peer's uid.
import Foundation
import JSON
import ListClient
import XCTest

@testable import JSONRPC

final class SocketTrustTests: XCTestCase {
  private var directory: PrivateDirectory!

  override func setUpWithError() throws {
    directory = try PrivateDirectory()
  }

  override func tearDown() {
    directory.remove()
  }

  /// Connects as a client of the default path does (its directory checked) and returns the error.
  private func refusal(_ path: String, privateDirectory: Bool = true) -> UnixSocketError? {
    do {
      close(try UnixSocket.connect(to: path, privateDirectory: privateDirectory))
      return nil
    } catch {
      return error as? UnixSocketError
    }
  }

  func testADirectoryOthersCanEnterIsRefusedAtTheDefaultPath() throws {
    let sub = directory.file("listd")
    let path = sub + "/listd.sock"
    let daemon = try DaemonProcess.listening(on: path)
    defer { daemon.stop() }
    XCTAssertNil(refusal(path), "a private directory is trusted")
    XCTAssertEqual(chmod(sub, 0o755), 0)
    let error = try XCTUnwrap(refusal(path))
    XCTAssertEqual(error.kind, .untrusted)
    XCTAssertEqual(
      error.description,
      "cannot connect to \(path): \(sub) can be entered by other users (mode 755); "
        + "use a directory only you can enter (chmod 700)")
    // An explicit path is the user's choice: its directory is not checked, the socket and peer are.
    XCTAssertNil(refusal(path, privateDirectory: false))
  }

  func testADirectoryOfAnotherUserIsRefusedAtTheDefaultPath() throws {
    guard getuid() == 0 else { throw XCTSkip("needs root to give a directory to another uid") }
    let sub = directory.file("listd")
    let path = sub + "/listd.sock"
    let daemon = try DaemonProcess.listening(on: path)
    defer { daemon.stop() }
    XCTAssertEqual(chown(sub, 65534, 65534), 0)
    XCTAssertEqual(
      refusal(path)?.description,
      "cannot connect to \(path): \(sub) belongs to uid 65534, not to this user (uid 0)")
  }

  func testASocketFileOfAnotherUserIsRefused() throws {
    guard getuid() == 0 else { throw XCTSkip("needs root to give the socket to another uid") }
    let path = directory.file("listd.sock")
    let daemon = try DaemonProcess.listening(on: path)
    defer { daemon.stop() }
    XCTAssertEqual(chown(path, 65534, 65534), 0)
    let message = "cannot connect to \(path): the socket belongs to uid 65534, not to this user (uid 0)"
    XCTAssertEqual(refusal(path)?.description, message)
    XCTAssertEqual(refusal(path, privateDirectory: false)?.description, message)
    XCTAssertThrowsError(try ListClient.socket(path: path)) { XCTAssertEqual("\($0)", message) }
  }

  /// A socket file of ours whose listening end belongs to a process of another uid (SO_PEERCRED
  /// reports the credentials of the process that called listen()).
  func testADaemonOfAnotherUserIsRefused() throws {
    guard getuid() == 0 else { throw XCTSkip("needs root to listen as another uid") }
    let path = directory.file("listd.sock")
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    XCTAssertEqual(try UnixSocket.withAddress(path) { bind(fd, $0, $1) }, 0)
    XCTAssertEqual(seteuid(65534), 0)
    let listening = listen(fd, 8)
    XCTAssertEqual(seteuid(0), 0)
    XCTAssertEqual(listening, 0)
    XCTAssertEqual(try XCTUnwrap(fileStatus(path)).st_uid, 0)

    let message = "cannot connect to \(path): the daemon there runs as uid 65534, not as this user (uid 0)"
    let error = try XCTUnwrap(refusal(path, privateDirectory: false))
    XCTAssertEqual(error.kind, .untrusted)
    XCTAssertEqual(error.description, message)
    XCTAssertThrowsError(try ListClient.socket(path: path)) { XCTAssertEqual("\($0)", message) }
  }

  func testPeerProblemNamesBothUids() {
    XCTAssertNil(UnixSocket.peerProblem(uid: 1000, expected: 1000))
    XCTAssertNil(UnixSocket.peerProblem(uid: getuid()))
    XCTAssertEqual(
      UnixSocket.peerProblem(uid: 65534, expected: 1000),
      "the daemon there runs as uid 65534, not as this user (uid 1000)")
    XCTAssertEqual(
      UnixSocket.peerProblem(uid: nil, expected: 1000), "cannot read the peer's credentials (SO_PEERCRED)")
  }

  /// The real daemon's connection reports our uid, and a ListClient is served through it.
  func testAClientOfTheSameUserIsServed() async throws {
    let path = directory.file("listd.sock")
    let daemon = try DaemonProcess.listening(on: path)
    defer { daemon.stop() }
    let fd = try UnixSocket.connect(to: path, privateDirectory: true)
    XCTAssertEqual(UnixSocket.peerUID(fd), getuid())
    close(fd)
    let client = try ListClient.socket(path: path)
    defer { client.close() }
    let initialized = try await client.initialize()
    XCTAssertEqual(initialized["protocolVersion"], 1)
  }

  func testTooLongAPathIsRefusedNotTruncated() {
    let path = directory.file(String(repeating: "s", count: 108 - directory.path.utf8.count - 1))
    XCTAssertEqual(path.utf8.count, 108)
    XCTAssertThrowsError(try UnixSocket.connect(to: path)) {
      XCTAssertEqual("\($0)", "socket path is too long: \(path) is 108 bytes; the limit is 107 bytes")
    }
    XCTAssertThrowsError(try UnixSocket.withAddress(path) { _, _ in 0 })
    XCTAssertThrowsError(try UnixSocket.withAddress("a\0b") { _, _ in 0 })
  }
}
