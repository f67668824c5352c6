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

  /// A lone `listctl claim` (or `create`) owns the list only until it exits, and the README's
  /// tour says so where it runs them.
  func testAClaimLastsOnlyUntilTheCommandExitsAndTheReadmeSaysSo() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    XCTAssertEqual(try daemon.run("create", "groceries").status, 0)
    XCTAssertEqual(try daemon.run("claim", "groceries").status, 0)
    let info = try daemon.run("--json", "call", "list/info", #"{"list": "groceries"}"#)
    XCTAssertTrue(info.stdout.filter { !$0.isWhitespace }.contains(#""owner":null"#), info.stdout)
    let readme = try String(
      contentsOf: ReadmeCommandsTests.root.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n")
    let claim = lines.first { $0.hasPrefix("listctl claim groceries") } ?? ""
    XCTAssertTrue(claim.contains("only until the command exits"), String(claim))
    let create = lines.first { $0.hasPrefix("listctl create todo") } ?? ""
    XCTAssertTrue(create.contains("its owner (the command's session) does not"), String(create))
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
