// The daemons these tests start write nothing to the test run's output (their stdio session's daemon/stopping used to).
import Foundation
import XCTest

final class TestDaemonOutputTests: XCTestCase {
  /// A daemon a test starts inherits the test's standard output unless told otherwise, and its
  /// stdio session's last message — `daemon/stopping` when the test stops it — appeared among
  /// the test results.
  func testAStoppedTestDaemonWritesNothingToTheTestOutput() throws {
    var status: Int32 = -1
    let written = try standardOutput {
      let daemon = try ListctlDaemon()
      status = try daemon.run("lists").status
      daemon.stop()
    }
    XCTAssertEqual(status, 0)
    XCTAssertEqual(written, "")
  }

  /// What `body` and the processes it started wrote to this process's standard output, which
  /// is a pipe while `body` runs (a child inherits it). Read once `body` returns: the children
  /// that matter have exited by then.
  private func standardOutput(of body: () throws -> Void) throws -> String {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw NSError(domain: "pipe", code: Int(errno)) }
    defer { close(fds[0]) }
    fflush(nil)
    let saved = dup(1)
    dup2(fds[1], 1)
    close(fds[1])
    defer {
      fflush(nil)
      dup2(saved, 1)
      close(saved)
    }
    try body()
    fflush(nil)
    _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
