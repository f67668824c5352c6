// `--explain-history` end to end: the daemon's option bounds what list/explain can explain, and a bad value is a usage error.
import Foundation
import JSON
import JSONRPC
import XCTest

final class ExplainHistoryOptionTests: XCTestCase {
  let content: JSONValue = [
    "sections": [
      [
        "id": "s",
        "items": [["id": "a", "text": "A"], ["id": "b", "text": "B"], ["id": "c", "text": "C"]],
      ]
    ]
  ]

  /// `--explain-history N` keeps the records of the latest N changes: older ones answer -32015
  /// naming the oldest explainable version, and `changesSince … explain` likewise.
  func testExplainHistoryOptionBoundsTheExplainableVersions() throws {
    let small = try DaemonProcess(["--explain-history", "2"])
    defer { small.stop() }
    let client = try TestClient(small)
    defer { client.close() }
    let answer = try client.initialize()
    XCTAssertEqual(answer["capabilities"]?["limits"]?["explainVersions"], 2)
    try client.request("list/create", ["list": "l", "content": content])
    for text in ["1", "2", "3"] {
      try client.request(
        "list/edit",
        ["list": "l", "edits": [["op": "updateItems", "items": [["id": "a", "text": .string(text)]]]]])
    }
    XCTAssertEqual(try client.request("list/explain", ["list": "l", "version": 2])["version"], 2)
    let gone = client.error("list/explain", ["list": "l", "version": 1])
    XCTAssertEqual(gone.code.rawValue, -32015)
    XCTAssertEqual(gone.data?["oldestVersion"], 2)
    XCTAssertTrue(gone.message.contains("since version 2 only, not version 1"), gone.message)
    XCTAssertEqual(
      client.error("list/changesSince", ["list": "l", "version": 0, "explain": true]).code.rawValue, -32015)
    XCTAssertEqual(
      try client.request("list/changesSince", ["list": "l", "version": 0])["changes"]?.arrayValue?.count, 3)
  }
}

extension ExplainHistoryOptionTests {
  /// `--explain-history` takes a positive integer; anything else is a usage error naming it.
  func testABadExplainHistoryIsAUsageError() throws {
    for value in ["0", "x", "-3"] {
      let listd = Process()
      listd.executableURL = DaemonProcess.binary
      listd.arguments = ["--explain-history", value]
      let errors = Pipe()
      listd.standardError = errors
      listd.standardInput = FileHandle.nullDevice
      try listd.run()
      let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      listd.waitUntilExit()
      XCTAssertEqual(listd.terminationStatus, 2, value)
      XCTAssertTrue(stderr.contains("--explain-history needs a positive integer, got '\(value)'"), stderr)
    }
  }
}
