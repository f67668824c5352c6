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
}
