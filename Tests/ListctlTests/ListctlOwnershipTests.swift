// listctl end to end: dispose --force and claim, raw command-line bytes, global options placed.
import Foundation
import XCTest

final class ListctlOwnershipTests: XCTestCase {
  func testDisposeNeedsForceForAnotherOwnersListAndClaimAdoptsAnOrphan() throws {
    let daemon = try ListctlDaemon(["--demo"])
    defer { daemon.stop() }
    let refused = try daemon.run("dispose", "contacts")
    XCTAssertEqual(refused.status, 1, refused.stderr)
    XCTAssertTrue(refused.stderr.contains("-32018"), refused.stderr)
    XCTAssertTrue(refused.stderr.contains("listd demo"), refused.stderr)
    let forced = try daemon.run("dispose", "contacts", "--force")
    XCTAssertEqual(forced.status, 0, forced.stderr)
    XCTAssertEqual(forced.stdout, "disposed contacts at v0\n")

    // listctl's own session ends with the command: a list it creates is then an orphan.
    XCTAssertEqual(try daemon.run("create", "mine").status, 0)
    let claimed = try daemon.run("--json", "claim", "mine")
    XCTAssertEqual(claimed.status, 0, claimed.stderr)
    XCTAssertTrue(claimed.stdout.contains(#""owner""#), claimed.stdout)
    XCTAssertTrue(try daemon.run("claim", "--help").stdout.contains("--force"))
  }

  func testInvalidUTF8InAnArgumentIsRefusedNamingTheOffset() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", #"exec "$0" --socket "$1" create "$(printf 'bad\377name')""#,
      buildDirectory.appendingPathComponent("listctl").path, daemon.socket,
    ]
    let err = Pipe()
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertEqual(process.terminationStatus, 2, stderr)
    XCTAssertTrue(stderr.contains("argument 4 is not valid UTF-8: invalid UTF-8 at byte offset 3"), stderr)
    XCTAssertEqual(try daemon.run("lists").stdout, "")  // nothing reached the daemon
  }

  func testAGlobalOptionAfterTheCommandSaysWhereItGoes() throws {
    let run = try runListctl(["lists", "--socket", "/tmp/x.sock"])
    XCTAssertEqual(run.status, 2)
    XCTAssertTrue(run.stderr.contains("--socket is a listctl option: put it before the command"), run.stderr)
  }
}
