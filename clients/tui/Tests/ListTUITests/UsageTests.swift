// The command line: --help, usage errors, and refusing to run without a terminal.
import Foundation
import XCTest

final class UsageTests: XCTestCase {
  /// Runs listd-tui with `arguments` and stdin/stdout not a terminal; returns status and output.
  func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = buildDirectory.appendingPathComponent("listd-tui")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  func testHelpUsageErrorsAndNoTerminal() throws {
    let help = try run(["--help"])
    XCTAssertEqual(help.status, 0)
    XCTAssertTrue(help.output.contains("--socket PATH") && help.output.contains("--demo"), help.output)
    let version = try run(["--version"])
    XCTAssertEqual(version.status, 0)
    let listd = Process()
    listd.executableURL = buildDirectory.appendingPathComponent("listd")
    listd.arguments = ["--version"]
    let output = Pipe()
    listd.standardOutput = output
    try listd.run()
    let daemonVersion = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    listd.waitUntilExit()
    // The same build and protocol as the daemon: `listd-tui 0.1.0 (protocol 1)`.
    XCTAssertTrue(daemonVersion.hasPrefix("listd "), daemonVersion)
    XCTAssertEqual(version.output, "listd-tui " + daemonVersion.dropFirst("listd ".count))
    let unknown = try run(["--bogus"])
    XCTAssertEqual(unknown.status, 2)
    XCTAssertEqual(unknown.output, "listd-tui: unknown option '--bogus'\nTry 'listd-tui --help'.\n")
    // A typo is answered with what was meant, in the form listd and listctl use too.
    let typo = try run(["--sokcet", "/x"])
    XCTAssertEqual(typo.status, 2)
    XCTAssertEqual(
      typo.output,
      "listd-tui: unknown option '--sokcet' (did you mean '--socket'?)\nTry 'listd-tui --help'.\n")
    let both = try run(["--socket", "/x", "--demo"])
    XCTAssertEqual(both.status, 2)
    XCTAssertTrue(both.output.contains("--socket excludes"), both.output)
    let missing = try run(["--list"])
    XCTAssertEqual(missing.status, 2)
    let noTerminal = try run(["--socket", "/nonexistent"])
    XCTAssertEqual(noTerminal.status, 1)
    XCTAssertTrue(noTerminal.output.contains("must be a terminal"), noTerminal.output)
    let badLog = try run(["--socket", "/nonexistent", "--log", "/nonexistent/dir/tui.log"])
    XCTAssertEqual(badLog.status, 1)
    XCTAssertTrue(
      badLog.output.contains(
        "--log: cannot open the log file '/nonexistent/dir/tui.log': No such file or directory"),
      badLog.output)
  }
}
