// The daemon's mirror property over single-item edits of a 1,000,000-item list: a subscriber's mirror equals the daemon's list.
import Foundation
import JSON
import SeededRandom
import XCTest

final class MillionItemDaemonTests: XCTestCase {
  /// An owner creates a 1,000,000-item list (its answer without rows) and sends 200 seeded
  /// single-item edits, pipelined: appends, inserts, deletes, moves and updates anywhere in the
  /// list. A socket subscriber mirrors every `list/didChange`, starting from its subscribe
  /// answer (all 1,000,000 rows); at the middle and at the end the mirror's row count and 40
  /// windows of it (both ends, the rest at random) equal `query/window`'s.
  func testASubscriberMirrorsSingleItemEditsOfAMillionItemList() throws {
    let seed = PropertySeeds.seed("LISTD_MILLION_DAEMON_SEED", default: 1_000_000)
    var random = SplitMix64(seed: seed)
    let count = 1_000_000
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let socket = directory.file("listd.sock")
    let daemon = try DaemonProcess.listening(on: socket)
    defer { daemon.stop() }
    let owner = try TestClient(daemon, name: "owner")
    try owner.initialize(name: "owner")
    let items: [JSONValue] = (0..<count).map { ["id": .string("i\($0)"), "text": .string("Item \($0)")] }
    let created = try owner.request(
      "list/create",
      ["list": "big", "rows": "none", "content": ["sections": [["id": "s", "items": .array(items)]]]],
      timeout: 300)
    XCTAssertEqual(created["version"], 0)

    let subscriber = try TestClient.socket(socket, name: "subscriber")
    try subscriber.initialize(name: "subscriber")
    let answer = try subscriber.request("list/subscribe", ["list": "big"], timeout: 300)
    var mirror = try WireMirror(subscribed: try XCTUnwrap(answer["lists"]?.arrayValue?.first))
    XCTAssertEqual(mirror.rowCount, count)

    var present = (0..<count).map { "i\($0)" }
    var next = 0
    func item() -> String { present[random.int(0..<present.count)] }
    func edit() -> JSONValue {
      switch random.int(0..<6) {
      case 0:
        next += 1
        present.append("n\(next)")
        return ["op": "appendItems", "section": "s", "items": [["id": .string("n\(next)"), "text": "new"]]]
      case 1:
        next += 1
        present.append("n\(next)")
        return ["op": "insertItems", "before": .string(item()), "items": [["id": .string("n\(next)")]]]
      case 2:
        let at = random.int(0..<present.count)
        let gone = present[at]
        present.swapAt(at, present.count - 1)
        present.removeLast()
        return ["op": "deleteItems", "items": [.string(gone)]]
      case 3:
        var (moving, anchor) = (item(), item())
        while anchor == moving { anchor = item() }
        let side = random.chance(percent: 50) ? "after" : "before"
        return .object(["op": "moveItem", "item": .string(moving), side: .string(anchor)])
      default:
        return [
          "op": "updateItems",
          "items": [["id": .string(item()), "text": .string("v\(random.int(0..<1000))")]],
        ]
      }
    }
    // The mirror against the daemon: the row count and 40 windows of 100 rows, at random and
    // at both ends (the whole list went through the subscribe answer the mirror started from).
    func checkAgainstTheDaemon(at version: Int) throws {
      while mirror.version < version {
        guard let params = subscriber.next("list/didChange", timeout: 60) else {
          throw TestFailure("seed \(seed): no notification after v\(mirror.version)")
        }
        try mirror.apply(didChange: params)
      }
      let rows = try XCTUnwrap(mirror.sections.first?.rows)
      let offsets = [0, rows.count - 100] + (0..<38).map { _ in random.int(0..<(rows.count - 100)) }
      for offset in offsets {
        let window = try owner.request(
          "query/window", ["list": "big", "offset": .int(Int64(offset)), "limit": 100])
        XCTAssertEqual(window["version"]?.intValue, Int64(version), "seed \(seed)")
        XCTAssertEqual(
          window["totalRows"]?.intValue, Int64(rows.count), "seed \(seed): row count at v\(version)")
        let daemonRows = try XCTUnwrap(window["rows"]?.arrayValue)
        let expected = rows[offset..<(offset + 100)].map { [$0["id"], $0["text"]] }
        let actual = daemonRows.map { [$0["id"], $0["text"]] }
        if expected != actual {
          XCTFail("seed \(seed): at v\(version) rows \(offset)..<\(offset + 100) differ from the mirror")
          return
        }
      }
    }
    var version = 0
    for half in 0..<2 {
      let answers = (0..<100).map { _ in ResultSlot() }
      for slot in answers {
        owner.connection.sendRequest("list/edit", ["list": "big", "edits": [edit()]]) { slot.set($0) }
      }
      for (index, slot) in answers.enumerated() {
        let result = try slot.wait(timeout: 120, "list/edit #\(half * 100 + index)")
        version = Int(try XCTUnwrap(result.get()["version"]?.intValue, "seed \(seed)"))
      }
      try checkAgainstTheDaemon(at: version)
    }
    XCTAssertEqual(version, 200, "seed \(seed): every edit made a version")
    XCTAssertEqual(mirror.rowCount, present.count, "seed \(seed)")
    subscriber.close()
    owner.close()
  }
}
