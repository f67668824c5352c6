// Replays every Protocol/examples/*.jsonl transcript against the real binary.
import Foundation
import JSON
import JSONRPC
import ListClient
import XCTest

/// Each transcript line is one of:
/// - `{"send": message}` — written to the daemon's stdin;
/// - `{"expect": response}` — the response with that id must arrive and match;
/// - `{"expectNotification": notification}` — the next notification must match;
/// - `{"comment": text}` — ignored.
/// Matching is structural and exact, except that `"*"` matches any value. Every message is also
/// checked against Protocol/protocol.json. To rewrite the expectations from the actual answers
/// (keeping the wildcards): `listctl --spawn -- run FILE --update`, then review the diff.
final class ExampleTranscriptTests: XCTestCase {
  static var transcripts: [URL] {
    let directory = ProtocolSpec.directory.appendingPathComponent("examples")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { directory.appendingPathComponent($0) }
  }

  func testThereAreTranscripts() {
    XCTAssertGreaterThanOrEqual(Self.transcripts.count, 5)
  }

  func testEveryTranscriptReplays() throws {
    for url in Self.transcripts {
      try replay(url)
    }
  }

  private func replay(_ url: URL) throws {
    let name = url.lastPathComponent
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.isEmpty }
    var steps: [JSONValue] = []
    for (index, line) in lines.enumerated() {
      do { steps.append(try JSONParser().parse(String(line))) } catch {
        throw TestFailure("\(name):\(index + 1): \(error)")
      }
    }
    let daemon = try DaemonProcess()
    defer { daemon.stop() }
    let client = TranscriptInbox(RawClient(daemon))
    for (index, step) in steps.enumerated() {
      let location = "\(name):\(index + 1)"
      if let message = step["send"] {
        client.raw.frame(message)
      } else if let expected = step["expect"] {
        guard let id = expected["id"], let actual = client.response(to: id) else {
          XCTFail("\(location): no response with id \(expected["id"] ?? .null)")
          return
        }
        if let difference = TranscriptMatch.difference(expected, actual) {
          XCTFail("\(location): \(difference)")
        }
        let request = steps[..<index].last { step in step["send"]?["id"] == id }
        checkSpec(actual, request: request?["send"], location)
      } else if let expected = step["expectNotification"] {
        guard let actual = client.notification() else {
          XCTFail("\(location): no notification arrived (expected \(expected["method"] ?? .null))")
          return
        }
        if let difference = TranscriptMatch.difference(expected, actual) {
          XCTFail("\(location): \(difference)")
        }
        XCTAssertEqual(
          ProtocolSpec.shared.checkParams(actual["method"]?.stringValue ?? "", actual["params"]), [], location
        )
      } else if step["comment"] == nil {
        XCTFail("\(location): a line must have send, expect, expectNotification or comment")
      }
    }
    XCTAssertEqual(
      client.pending.filter { $0["method"] != nil }.count, 0,
      "\(name): notifications nobody expected: \(client.pending)")
  }

  private func checkSpec(_ response: JSONValue, request: JSONValue?, _ location: String) {
    guard let method = request?["method"]?.stringValue else { return }
    if let result = response["result"] {
      XCTAssertEqual(ProtocolSpec.shared.checkResult(method, result), [], location)
    } else if let error = response["error"] {
      let code = Int(error["code"]?.intValue ?? 0)
      XCTAssertEqual(
        ProtocolSpec.shared.checkError(method, code: code, message: error["message"]?.stringValue ?? ""), [],
        location)
    }
  }
}
