// Stdio that the event loop cannot watch: a regular file or /dev/null as stdin, a regular file as stdout.
import Foundation
import JSON
import JSONRPC
import XCTest

final class StdioKindsTests: XCTestCase {
  /// Requests read from a file (a regular file cannot be polled: it is read on a thread of its
  /// own) are all answered, in a file too, and the daemon exits at the end of the file.
  func testRequestsFromAFileAreAnsweredIntoAFile() throws {
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    var requests = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"# + "\n"
    requests += #"{"jsonrpc":"2.0","id":2,"method":"list/create","params":{"list":"l"}}"# + "\n"
    for id in 3..<203 { requests += #"{"jsonrpc":"2.0","id":\#(id),"method":"list/all","params":{}}"# + "\n" }
    requests += #"{"jsonrpc":"2.0","id":203,"method":"shutdown"}"# + "\n"
    requests += #"{"jsonrpc":"2.0","method":"exit"}"# + "\n"
    let input = directory.file("requests.jsonl")
    let output = directory.file("answers.jsonl")
    try Data(requests.utf8).write(to: URL(fileURLWithPath: input))
    XCTAssertTrue(FileManager.default.createFile(atPath: output, contents: nil))

    let process = Process()
    process.executableURL = DaemonProcess.binary
    process.arguments = ["--log-level", "error"]
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    try process.run()
    XCTAssertTrue(waitUntil(timeout: 30) { !process.isRunning }, "listd did not exit at the end of its input")
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0)

    var answered: [Int64] = []
    for line in try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n") {
      let message = try JSONValue(parsing: String(line))
      if let id = message["id"]?.intValue {
        XCTAssertNil(message["error"], "\(line)")
        answered.append(id)
      }
    }
    // Every request is answered once (answers of pipelined requests may come in any order).
    XCTAssertEqual(answered.sorted(), Array(1...203))
  }

  /// /dev/null as stdin (epoll refuses it) is an empty input: the daemon exits cleanly at once.
  func testDevNullAsStdinEndsTheDaemonCleanly() throws {
    let process = Process()
    process.executableURL = DaemonProcess.binary
    process.arguments = ["--log-level", "error"]
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    let stdout = Pipe()
    process.standardOutput = stdout
    try process.run()
    let written = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0)
    XCTAssertEqual(written.count, 0)
  }
}
