// End-to-end: listctl never waits forever — a null-id error fails the command in flight, and
// every wait (an answer, a watched change, a scripted expectation) ends at --timeout.
import Foundation
import XCTest

final class ListctlWaitTests: XCTestCase {
  /// A fresh private directory, removed after the test.
  private func directory() throws -> String {
    let path = NSTemporaryDirectory() + "listctl-wait-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
  }

  /// Content of about 4 KB: over a 1,000-byte frame limit.
  private func largeContent(in directory: String) throws -> String {
    let items = (0..<100).map { #"{"id":"i\#($0)","text":"item number \#($0)"}"# }.joined(separator: ",")
    let path = directory + "/mid.json"
    try #"{"sections":[{"id":"s","items":[\#(items)]}]}"#.write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The daemon refuses the frame with -32700 and `"id": null`; the command fails with its message
  /// instead of waiting for an answer that will never come.
  func testAFrameTheDaemonCannotReadFailsTheCommandWithTheDaemonsMessage() throws {
    let content = try largeContent(in: try directory())
    let running = try RunningListctl([
      "--spawn", "--max-frame-bytes", "1000", "--", "create", "x", "--content", content,
    ])
    let run = running.finish(timeout: 20)
    XCTAssertEqual(run.status, 1, "killed after 20 s means it hung: \(run.stderr)")
    XCTAssertTrue(run.stderr.contains("listctl: error -32700"), run.stderr)
    XCTAssertTrue(run.stderr.contains("exceeds the limit of 1000 bytes"), run.stderr)
  }

  /// A daemon that reads but never answers: the first request gives up at --timeout, given
  /// before or after the command.
  func testNoAnswerEndsAtTheTimeout() throws {
    let directory = try directory()
    let mute = directory + "/mute-listd"
    try "#!/bin/sh\nwhile IFS= read -r line; do :; done\n".write(
      toFile: mute, atomically: true, encoding: .utf8)
    chmod(mute, 0o755)
    for arguments in [
      ["--timeout", "0.3", "--spawn", "--", "lists"], ["--spawn", "--", "lists", "--timeout", "0.3"],
    ] {
      let run = try RunningListctl(arguments, environment: ["LISTD": mute]).finish(timeout: 20)
      XCTAssertEqual(run.status, 3, "\(arguments): \(run.stderr)")
      XCTAssertTrue(
        run.stderr.contains("no answer to initialize within 0.3 s")
          && run.stderr.contains("--timeout SECONDS"),
        run.stderr)
    }
    XCTAssertEqual(try runListctl(["--timeout", "soon", "lists"]).status, 2)
    XCTAssertTrue(try runListctl(["--help"]).stdout.contains("--timeout SECONDS"))
    XCTAssertTrue(try runListctl(["lists", "--help"]).stdout.contains("--timeout SECONDS"))
  }

  /// `watch` waits for changes without a limit by default; with --timeout it ends when none came.
  func testWatchWithATimeoutEndsWhenNoChangeCame() throws {
    let daemon = try ListctlDaemon(["--demo"])
    defer { daemon.stop() }
    let run = try RunningListctl(["--socket", daemon.socket, "watch", "contacts", "--timeout", "0.3"])
      .finish(timeout: 20)
    XCTAssertEqual(run.status, 3, run.stderr)
    XCTAssertEqual(run.stdout, "watching contacts at version 0\n")
    XCTAssertTrue(run.stderr.contains("no change to 'contacts' within 0.3 s"), run.stderr)
  }

  func testWatchSaysTheDaemonWentAwayWhenItStops() throws {
    let daemon = try ListctlDaemon(["--demo"])
    let watch = try RunningListctl(["--socket", daemon.socket, "watch", "contacts", "--ready"])
    usleep(500_000)
    daemon.stop()
    let run = watch.finish(timeout: 20)
    XCTAssertEqual(run.status, 3, run.stderr)
    XCTAssertTrue(run.stderr.contains("the daemon closed the connection"), run.stderr)
  }

  /// `run`: an expectation whose answer cannot come fails at --timeout, saying why.
  func testRunReportsARequestTheDaemonCouldNotRead() throws {
    let directory = try directory()
    let script = directory + "/big.jsonl"
    let items = (0..<50).map { #"{"id":"i\#($0)","text":"item \#($0)"}"# }.joined(separator: ",")
    try """
    {"send":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}}
    {"expect":{"jsonrpc":"2.0","id":1,"result":"*"}}
    {"send":{"jsonrpc":"2.0","id":2,"method":"list/create","params":{"list":"x","content":{"sections":[{"id":"s","items":[\(items)]}]}}}}
    {"expect":{"jsonrpc":"2.0","id":2,"result":"*"}}

    """.write(toFile: script, atomically: true, encoding: .utf8)
    let run = try RunningListctl([
      "--spawn", "--max-frame-bytes", "1000", "--", "run", script, "--timeout", "0.5",
    ])
    .finish(timeout: 20)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("\(script):4: no response with id 2 within 0.5 s"), run.stderr)
    XCTAssertTrue(
      run.stderr.contains("could not read a request") && run.stderr.contains("-32700"), run.stderr)
  }
}
