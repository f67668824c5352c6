// End-to-end tests of the socket path itself: the sun_path length limit, files the daemon must not remove, fatal errors printed once.
import Foundation
import JSON
import JSONRPC
import XCTest

final class SocketPathTests: XCTestCase {
  private var directory: PrivateDirectory!

  override func setUpWithError() throws {
    directory = try PrivateDirectory()
  }

  override func tearDown() {
    directory.remove()
  }

  /// A path of exactly `bytes` bytes in a fresh private subdirectory named `name`.
  private func path(ofLength bytes: Int, in name: String) throws -> (directory: String, path: String) {
    let subdirectory = directory.file(name)
    XCTAssertEqual(mkdir(subdirectory, 0o700), 0)
    let prefix = subdirectory + "/"
    let path = prefix + String(repeating: "s", count: bytes - prefix.utf8.count)
    XCTAssertEqual(path.utf8.count, bytes)
    return (subdirectory, path)
  }

  /// sun_path holds 108 bytes with the terminating NUL: paths up to 107 bytes are served (when
  /// the temporary name `PATH.<pid>.tmp` would not fit, the socket is bound at PATH itself rather
  /// than at a truncated name), longer ones are refused with the path, its length and the limit —
  /// and no file is left behind either way.
  func testSocketPathsUpTo107BytesAreServedAndLongerOnesRefusedClearly() throws {
    for bytes in [97, 98, 107] {
      let (subdirectory, path) = try path(ofLength: bytes, in: "\(bytes)")
      let daemon = try DaemonProcess.listening(on: path)
      let client = try TestClient.connect(path)
      try client.initialize()
      XCTAssertEqual(try client.request("list/all")["lists"], [], "\(bytes) bytes")
      XCTAssertEqual(
        try FileManager.default.contentsOfDirectory(atPath: subdirectory),
        [(path as NSString).lastPathComponent],
        "\(bytes) bytes")
      client.close()
      daemon.send(signal: SIGTERM)
      XCTAssertEqual(daemon.waitForExit(), 0, "\(bytes) bytes: \(daemon.standardError())")
      XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: subdirectory), [], "\(bytes) bytes")
    }
    for bytes in [108, 120] {
      let (subdirectory, path) = try path(ofLength: bytes, in: "\(bytes)")
      let daemon = try DaemonProcess(["--listen", path])
      XCTAssertEqual(daemon.waitForExit(), 1, "\(bytes) bytes")
      XCTAssertEqual(
        daemon.standardError(),
        "listd: socket path is too long: \(path) is \(bytes) bytes; the limit is 107 bytes\n")
      XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: subdirectory), [], "\(bytes) bytes")
    }
  }

  /// The daemon binds `PATH.<pid>.tmp` before renaming it to PATH, and used to unlink whatever had
  /// that name first. Regular files named so for the next 2,000 pids (the daemon's pid is among
  /// them) all survive, the daemon serves PATH all the same, and nothing else appears beside them.
  func testFilesNamedLikeATemporarySocketSurvive() throws {
    let socketPath = directory.file("listd.sock")
    let last = Int(
      try String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines))!
    let limit = Int(
      try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines))!
    // Linux hands out pids in increasing order and wraps to 300.
    let pids = (1...2000).map { last + $0 < limit ? last + $0 : 300 + last + $0 - limit }
    let names = Set(pids.map { "listd.sock.\($0).tmp" })
    for name in names {
      XCTAssertTrue(FileManager.default.createFile(atPath: directory.file(name), contents: Data("keep".utf8)))
    }
    let daemon = try DaemonProcess.listening(on: socketPath)
    XCTAssertTrue(pids.contains(Int(daemon.pid)), "pid \(daemon.pid) outside the names made")
    let client = try TestClient.connect(socketPath)
    try client.initialize()
    client.close()
    XCTAssertEqual(
      Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)), names.union(["listd.sock"]))
    daemon.send(signal: SIGTERM)
    XCTAssertEqual(daemon.waitForExit(), 0)
    XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)), names)
    for name in names {
      XCTAssertEqual(FileManager.default.contents(atPath: directory.file(name)), Data("keep".utf8), name)
    }
  }

  /// A fatal error reaches stderr once, as `listd: MESSAGE`; with --log-file it also goes to the log.
  func testASecondDaemonOnTheSamePathPrintsItsErrorOnce() throws {
    let socketPath = directory.file("listd.sock")
    let first = try DaemonProcess.listening(on: socketPath)
    let message = "another listd is listening on \(socketPath)"

    let second = try DaemonProcess(["--listen", socketPath])
    XCTAssertEqual(second.waitForExit(), 1)
    XCTAssertEqual(second.standardError(), "listd: \(message)\n")

    let log = directory.file("log")
    let logged = try DaemonProcess(["--listen", socketPath, "--log-file", log])
    XCTAssertEqual(logged.waitForExit(), 1)
    XCTAssertEqual(logged.standardError(), "listd: \(message)\n")
    XCTAssertEqual(logContents(log).components(separatedBy: message).count - 1, 1, logContents(log))

    XCTAssertTrue(first.process.isRunning)
    first.stop()
  }
}
