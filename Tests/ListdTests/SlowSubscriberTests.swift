// No subscriber left behind, end to end: a subscriber that stops reading is caught up with a composed change, not dropped.
import Foundation
import JSON
import JSONRPC
import ListClient
import XCTest

final class SlowSubscriberTests: XCTestCase {
  /// A subscriber stops reading its socket while 10,000 versions go by (about 40 MB of
  /// notifications, ten times `--max-queue-bytes`), then reads: it was not dropped, it received
  /// far fewer than 10,000 notifications — some composed over many versions — and its mirror
  /// equals the list at the last version. The daemon's memory grew by far less than the
  /// notifications it did not queue.
  func testAPausedSubscriberCatchesUpWithComposedChanges() throws {
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let socket = directory.file("listd.sock")
    let daemon = try DaemonProcess.listening(on: socket, ["--max-queue-bytes", "4000000"])
    defer { daemon.stop() }
    let owner = try TestClient(daemon, name: "owner")
    try owner.initialize()
    let items: [JSONValue] = (0..<500).map { ["id": .string("i\($0)"), "text": .string("item \($0)")] }
    try owner.request(
      "list/create", ["list": "p", "content": ["sections": [["id": "s", "items": .array(items)]]]])

    // The paused subscriber: it subscribes, then reads nothing until the end.
    let paused = try RawClient.socket(socket)
    paused.sendRequest(id: 1, "initialize", ["clientInfo": ["name": "paused"]])
    paused.frame(["jsonrpc": "2.0", "method": "initialized", "params": [:]] as JSONValue)
    paused.sendRequest(id: 2, "list/subscribe", ["list": "p"])
    // And a windowed one, paused too.
    let pausedWindow = try RawClient.socket(socket)
    pausedWindow.sendRequest(id: 1, "initialize", ["clientInfo": ["name": "paused-window"]])
    pausedWindow.frame(["jsonrpc": "2.0", "method": "initialized", "params": [:]] as JSONValue)
    pausedWindow.sendRequest(id: 2, "list/subscribe", ["list": "p", "window": ["offset": 100, "limit": 20]])
    XCTAssertTrue(try waitUntil { try owner.request("list/info", ["list": "p"])["subscribers"] == 2 })
    let rssBefore = try XCTUnwrap(daemon.residentKiB())

    // 10,000 versions, each rewriting the text of 8 items (about 4 KB of notification).
    let padding = String(repeating: "x", count: 400)
    var sent = 0
    while sent < 10_000 {
      let slots = (0..<100).map { _ in ResultSlot() }
      for (index, slot) in slots.enumerated() {
        let version = sent + index + 1
        let updates: [JSONValue] = (0..<8).map { k in
          ["id": .string("i\((version * 8 + k) % 500)"), "text": .string("v\(version) \(padding)")]
        }
        owner.connection.sendRequest(
          "list/edit", ["list": "p", "edits": [["op": "updateItems", "items": .array(updates)]]]
        ) {
          slot.set($0)
        }
      }
      for slot in slots { _ = try slot.wait(timeout: 60, "list/edit").get() }
      sent += slots.count
    }
    let rssAfter = try XCTUnwrap(daemon.residentKiB())
    let final = try owner.request("list/subscribe", ["list": "p"])
    let expected = try WireMirror(subscribed: try XCTUnwrap(final["lists"]?[0]))
    XCTAssertEqual(expected.version, 10_000)

    // Now it reads: the subscribe answer, then the notifications until the last version.
    let answer = try XCTUnwrap(paused.response(id: 2, timeout: 30), "the paused subscriber was dropped")
    var mirror = try WireMirror(subscribed: try XCTUnwrap(answer["result"]?["lists"]?[0]))
    XCTAssertEqual(mirror.version, 0)
    var notifications = 0
    var composed = 0
    while mirror.version < 10_000 {
      guard let message = paused.next(timeout: 30) else {
        return XCTFail("no notification after v\(mirror.version) (end of file: \(paused.sawEndOfFile))")
      }
      guard message["method"] == "list/didChange", let params = message["params"] else {
        XCTAssertNotEqual(message["method"], "list/resync", "a resync where a composed change fits")
        continue
      }
      XCTAssertEqual(ProtocolSpec.shared.checkParams("list/didChange", params), [])
      let previous = Int(params["previousVersion"]?.intValue ?? -1)
      let version = Int(params["version"]?.intValue ?? -1)
      if version > previous + 1 { composed += 1 }
      try mirror.apply(didChange: params)
      notifications += 1
    }
    print(
      "SlowSubscriberTests: 10,000 versions reached the paused subscriber in \(notifications) notifications "
        + "(\(composed) composed); daemon RSS \(rssBefore) KiB → \(rssAfter) KiB")
    XCTAssertNil(mirror.firstDifference(from: expected))

    let windowAnswer = try XCTUnwrap(
      pausedWindow.response(id: 2, timeout: 30), "the windowed subscriber was dropped")
    var windowed = try WindowedMirror(
      subscribed: try XCTUnwrap(windowAnswer["result"]?["lists"]?[0]), limit: 20)
    var windowedNotifications = 0
    while windowed.version < 10_000, let message = pausedWindow.next(timeout: 30) {
      guard message["method"] == "list/didChange", let params = message["params"] else { continue }
      try windowed.apply(didChange: params)
      windowedNotifications += 1
    }
    XCTAssertEqual(windowed.version, 10_000)
    XCTAssertEqual(windowed.windowRows, Array(expected.sections[0].rows[100..<120]))
    print("SlowSubscriberTests: the windowed one in \(windowedNotifications) notifications")
    XCTAssertGreaterThan(composed, 0)
    XCTAssertLessThan(notifications, 5_000)
    // 40 MB of notifications were not queued; what the daemon holds for the subscriber is two
    // versions of a 500-item list and a queue of at most --max-queue-bytes.
    XCTAssertLessThan(rssAfter - rssBefore, 32 * 1024, "the daemon's memory stays bounded")
    owner.close()
  }
}
