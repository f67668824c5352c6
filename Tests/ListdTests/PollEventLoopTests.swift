// The long set's run of the socket, subscription, clean-stop and long-running tests under LISTD_EVENT_LOOP=poll (issue 25).
import Foundation
import XCTest

/// Runs whole test classes again in a child test process whose environment (and so every daemon
/// and in-process connection it starts) says `LISTD_EVENT_LOOP=poll`: the portable backend passes
/// what the platform's default passes. Slow (each class as long as it takes): for `--long`.
final class PollEventLoopTests: XCTestCase {
  /// Runs `classes` (each `Target.Class`) under poll; fails with the child's report if any fails.
  private func runUnderPoll(_ classes: [String], file: StaticString = #filePath, line: UInt = #line) throws {
    let process = Process()
    #if os(Linux)
      // The test bundle is an executable taking XCTest filters as its argument.
      process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      process.arguments = [classes.joined(separator: ",")]
    #else
      let bundle = Bundle(for: PollEventLoopTests.self).bundleURL.path
      process.executableURL = URL(fileURLWithPath: "/usr/bin/xcrun")
      process.arguments = ["xctest", "-XCTest", classes.joined(separator: ","), bundle]
    #endif
    var environment = ProcessInfo.processInfo.environment
    environment["LISTD_EVENT_LOOP"] = "poll"
    process.environment = environment
    // A file, not a pipe: the child's report can be long, and nothing here reads it meanwhile.
    let report = FileManager.default.temporaryDirectory.appendingPathComponent(
      "listd-poll-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: report.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: report) }
    let output = try FileHandle(forWritingTo: report)
    process.standardOutput = output
    process.standardError = output
    try process.run()
    process.waitUntilExit()
    try output.close()
    let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
    let failures = text.split(separator: "\n").filter { $0.contains("error:") || $0.contains("' failed (") }
    XCTAssertEqual(
      process.terminationStatus, 0,
      "under LISTD_EVENT_LOOP=poll, \(classes.joined(separator: ", ")) failed:\n"
        + (failures.isEmpty ? String(text.suffix(4000)) : failures.joined(separator: "\n")),
      file: file, line: line)
    XCTAssertTrue(
      text.contains("Executed"), "the child ran no tests:\n\(text.suffix(2000))", file: file, line: line)
  }

  func testSocketTestsPassUnderPoll() throws {
    try runUnderPoll(["ListdTests.SocketTests", "ListdTests.SocketTrustTests", "ListdTests.SocketPathTests"])
  }

  func testSubscriptionTestsPassUnderPoll() throws {
    try runUnderPoll([
      "ListServerTests.SubscriptionTests", "ListdTests.SlowSubscriberTests",
      "ListServerTests.WindowedSubscriptionTests",
      "ListServerTests.SubscriptionOrderTests",
    ])
  }

  func testCleanStopTestsPassUnderPoll() throws {
    try runUnderPoll([
      "ListdTests.CleanStopTests", "ListdTests.CleanStopCaseTests", "JSONRPCTests.StopReadingTests",
    ])
  }

  func testLongRunningTestsPassUnderPoll() throws {
    try runUnderPoll(["ListdTests.LongRunningTests", "ListdTests.IdleConnectionsTests"])
  }

  func testStdioLifecycleAndDurabilityTestsPassUnderPoll() throws {
    try runUnderPoll([
      "ListdTests.StdioKindsTests", "ListdTests.LifecycleTests", "ListdTests.FramingCornerTests",
      "ListdTests.DurabilityTests", "ListServerTests.OwnershipTests",
    ])
  }

  func testConnectionTestsPassUnderPoll() throws {
    try runUnderPoll(["JSONRPCTests.ConnectionTests", "JSONRPCTests.InlineDispatchTests"])
  }
}
