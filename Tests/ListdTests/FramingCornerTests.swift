// End-to-end framing corners through the real binary: an overstated Content-Length, a line far over the frame limit.
import Foundation
import JSON
import JSONRPC
import XCTest

final class FramingCornerTests: XCTestCase {
  /// The defect report's repro: the first frame's `Content-Length: 88` runs its body into the
  /// second frame's header line. The first request gets a parse error; the second and third are
  /// answered, and no other error is sent.
  func testAnOverstatedContentLengthCostsOnlyItsOwnFrame() throws {
    let daemon = try DaemonProcess()
    let raw = RawClient(daemon)
    let cut = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"na"#
    let second = #"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"processId":1}}"#
    let third = #"{"jsonrpc":"2.0","id":3,"method":"list/create","params":{"list":"r"}}"#
    let stream =
      "Content-Length: 88\r\n\r\n\(cut)\nContent-Length: \(second.utf8.count)\r\n\r\n\(second)\n"
      + "Content-Length: \(third.utf8.count)\r\n\r\n\(third)\n"
    // The 88 bytes end inside the second frame's header line, as in the report.
    XCTAssertEqual(cut.utf8.count + 1 + "Content-Length".utf8.count, 88)
    raw.write(stream)
    // Everything sent up to the answer to a fourth request: exactly one error among it.
    raw.sendRequest(id: 4, "list/all")
    var messages: [JSONValue] = []
    while messages.last?["id"] != 4 {
      guard let message = raw.next() else { return XCTFail("no answer to request 4 after \(messages)") }
      messages.append(message)
    }
    let errors = messages.filter { $0["error"] != nil }
    XCTAssertEqual(errors.count, 1, "\(messages)")
    XCTAssertEqual(errors.first?.errorCode, -32700, "\(messages)")
    XCTAssertEqual(errors.first?["id"], .null, "\(messages)")
    XCTAssertNotNil(messages.first { $0["id"] == 2 }?["result"]?["serverInfo"], "\(messages)")
    XCTAssertEqual(messages.first { $0["id"] == 3 }?["result"]?["version"], 0, "\(messages)")
    XCTAssertEqual(messages.last?["result"]?["lists"]?.arrayValue?.count, 1, "\(messages)")
    daemon.closeInput()
    XCTAssertEqual(daemon.waitForExit(), 0)
  }

  /// A 50 MB newline-delimited line against a 1 MB limit: it is not stored (the daemon's peak
  /// resident size grows by well under the line's size), one error names the limit and the
  /// line's length, and the request after it is answered.
  func testALineFarOverTheLimitIsNotStored() throws {
    let daemon = try DaemonProcess(["--max-frame-bytes", "1000000"])
    let raw = RawClient(daemon)
    XCTAssertNotNil(raw.request(id: 1, "initialize", [:], framing: .newlineDelimited)?["result"])
    let before = try XCTUnwrap(peakResidentKiB(of: daemon))
    var line = Array(#"{"jsonrpc":"2.0","id":2,"method":"list/create","params":{"list":""#.utf8)
    line += [UInt8](repeating: UInt8(ascii: "x"), count: 50 << 20)
    line += Array(#""}}"#.utf8)
    raw.write(line + [0x0A])
    raw.sendRequest(id: 3, "list/all", framing: .newlineDelimited)
    let error = raw.next()
    XCTAssertEqual(error?.errorCode, -32700, "\(String(describing: error))")
    XCTAssertEqual(error?["id"], .null)
    XCTAssertEqual(
      error?.errorMessage,
      "parse error: line of \(line.count) bytes exceeds the limit of 1000000 bytes (frame at byte offset 59)")
    XCTAssertEqual(raw.next()?["result"]?["lists"], [])
    let after = try XCTUnwrap(peakResidentKiB(of: daemon))
    XCTAssertLessThan(after - before, 16 << 10, "peak resident size grew by \(after - before) KiB")
    daemon.closeInput()
    XCTAssertEqual(daemon.waitForExit(), 0)
  }

  /// The daemon's peak resident set size in KiB (`VmHWM` of /proc/PID/status).
  private func peakResidentKiB(of daemon: DaemonProcess) -> Int? {
    let path = "/proc/\(daemon.process.processIdentifier)/status"
    guard let status = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    return nil
  }
}
