// LISTD_EVENT_LOOP is checked first thing by each program: a name this build lacks is a usage error naming the value.
import Foundation
import XCTest

final class EventLoopVariableTests: XCTestCase {
  func testAnUnknownEventLoopIsAUsageErrorOfEachProgram() throws {
    let commands: [String: [String]] = [
      "listd": [], "listctl": ["--socket", "/nonexistent/listd.sock", "lists"], "listd-tui": [],
    ]
    for (tool, arguments) in commands {
      let run = try runProcess(
        buildDirectory.appendingPathComponent(tool).path, arguments, input: "",
        environment: ["LISTD_EVENT_LOOP": "select"])
      XCTAssertEqual(run.status, 2, "\(tool): \(run.stderr)")
      XCTAssertTrue(
        run.stderr.hasPrefix("\(tool): LISTD_EVENT_LOOP=select: unknown event loop"), "\(tool): \(run.stderr)"
      )
      XCTAssertEqual(run.stdout, "", tool)
    }
  }

  func testEachProgramsHelpSaysWhatLISTDEVENTLOOPTakes() throws {
    for tool in ["listd", "listctl", "listd-tui"] {
      let run = try runProcess(buildDirectory.appendingPathComponent(tool).path, ["--help"], input: "")
      XCTAssertEqual(run.status, 0, "\(tool): \(run.stderr)")
      let help = run.stdout.split(separator: "\n").joined(separator: " ").split(separator: " ").joined(
        separator: " ")
      XCTAssertTrue(help.contains("LISTD_EVENT_LOOP: the event loop's backend"), "\(tool): \(run.stdout)")
      XCTAssertTrue(help.contains("lower case; unset or empty means the default"), "\(tool): \(run.stdout)")
    }
  }

  func testListdLogsTheEventLoopItRuns() throws {
    for (value, expected) in [("poll", "poll"), ("", "epoll")] {
      #if canImport(Darwin)
        let expected = expected == "epoll" ? "kqueue" : expected
      #endif
      let run = try runProcess(
        buildDirectory.appendingPathComponent("listd").path, [], input: "",
        environment: ["LISTD_EVENT_LOOP": value])
      XCTAssertEqual(run.status, 0, run.stderr)
      XCTAssertTrue(
        run.stderr.contains("event loop: \(expected)"), "LISTD_EVENT_LOOP=\(value): \(run.stderr)")
    }
  }
}
