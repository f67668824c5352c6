// End-to-end: listctl's help, exit codes and --spawn.
import Foundation
import XCTest

final class ListctlUsageTests: XCTestCase {
  func testHelpEverywhere() throws {
    let top = try runListctl(["--help"])
    XCTAssertEqual(top.status, 0)
    XCTAssertTrue(top.stdout.contains("exit codes: 0 ok, 1"), top.stdout)
    for command in [
      "lists", "create", "dispose", "show", "apply", "edit", "select", "deselect", "expand", "collapse",
      "query",
      "watch", "call",
    ] {
      // --help answers without a daemon.
      let run = try runListctl(["--socket", "/nonexistent/s", command, "--help"])
      XCTAssertEqual(run.status, 0, command)
      XCTAssertTrue(run.stdout.hasPrefix("usage: listctl"), "\(command): \(run.stdout)")
      XCTAssertTrue(run.stdout.contains(" \(command) "), "\(command): \(run.stdout)")
    }
    XCTAssertEqual(try runListctl(["help", "watch"]).stdout, try runListctl(["watch", "--help"]).stdout)
  }

  func testUsageErrorsExit2() throws {
    for arguments in [[], ["bogus"], ["show"], ["lists", "--nope"], ["--socket"], ["edit", "l", "{nope"]] {
      let run = try runListctl(["--socket", "/nonexistent/s"] + arguments)
      XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
      XCTAssertTrue(run.stderr.hasPrefix("listctl: "), run.stderr)
      XCTAssertEqual(run.stdout, "")
    }
  }

  func testAWrongNumberOfArgumentsSaysWhichIsWrong() throws {
    let extra = try runListctl(["create", "t3", "extra"])
    XCTAssertEqual(extra.status, 2)
    XCTAssertTrue(
      extra.stderr.hasPrefix("listctl: unexpected argument 'extra'\nusage: listctl create"), extra.stderr)
    let missing = try runListctl(["dispose"])
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(
      missing.stderr.hasPrefix("listctl: missing an argument\nusage: listctl dispose"), missing.stderr)
  }

  func testCannotConnectExits3() throws {
    let run = try runListctl(["--socket", "/nonexistent/s", "lists"])
    XCTAssertEqual(run.status, 3)
    XCTAssertTrue(run.stderr.contains("cannot connect"), run.stderr)
  }

  func testErrorAnswerExits1() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let run = try daemon.run("show", "nope")
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(run.stdout, "")
    XCTAssertTrue(run.stderr.contains("-32010"), run.stderr)
    XCTAssertEqual(try daemon.run("call", "no/such").status, 1)
  }

  func testSpawnStartsAPrivateDaemon() throws {
    let run = try runListctl(["--spawn", "--demo", "--", "lists"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("contacts  v"), run.stdout)
    XCTAssertEqual(run.stderr, "")
    let show = try runListctl(["--spawn", "--demo", "--", "show", "files"])
    XCTAssertEqual(show.status, 0, show.stderr)
    XCTAssertTrue(show.stdout.contains("▸") || show.stdout.contains("▾"), show.stdout)
    let empty = try runListctl(["--spawn", "lists", "--json"])
    XCTAssertEqual(empty.status, 0, empty.stderr)
    XCTAssertEqual(empty.stdout, "{\n  \"lists\": []\n}\n")
  }
}
