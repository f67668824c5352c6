// When subscription answers and notifications arrive relative to each other, read raw in process.
import Foundation
import JSON
import JSONRPC
import ListServer
import XCTest

final class SubscriptionOrderTests: XCTestCase {
  /// Reads `raw` until the answer to `id`; returns it and the `list/didChange` versions of `list`
  /// that arrived before it.
  private func answer(_ raw: RawClient, id: Int, list: String) -> (JSONValue?, [Int64]) {
    var before: [Int64] = []
    while let message = raw.next() {
      if message["id"] == .int(Int64(id)) && message["method"] == nil { return (message, before) }
      if message["method"] == "list/didChange", message["params"]?["list"] == .string(list),
        let version = message["params"]?["version"]?.intValue
      {
        before.append(version)
      }
    }
    return (nil, before)
  }

  /// Reads `raw` until the `list/didChange` of `version`; returns the versions seen, in order.
  private func changes(_ raw: RawClient, list: String, through version: Int64) -> [Int64] {
    var seen: [Int64] = []
    while let message = raw.next() {
      guard message["method"] == "list/didChange", message["params"]?["list"] == .string(list),
        let got = message["params"]?["version"]?.intValue
      else { continue }
      seen.append(got)
      if got >= version { break }
    }
    return seen
  }

  /// Another connection pipelines changes while this one subscribes: the answer always comes
  /// before every notification of a later version, and the later ones follow without a gap.
  func testTheSubscribeAnswerPrecedesNotificationsOfLaterVersions() throws {
    let server = TestClient.server()
    let writer = try RawClient.inProcess(of: server)
    XCTAssertNil(writer.request(id: 1, "initialize", [:])?["error"])
    XCTAssertNil(
      writer.request(id: 2, "list/create", ["list": "busy", "content": ["sections": [["id": "s"]]]])?["error"]
    )
    let viewer = try RawClient.inProcess(of: server, primary: false)
    XCTAssertNil(viewer.request(id: 1, "initialize", [:])?["error"])

    var nextID = 10
    var version: Int64 = 0
    let rounds = 40
    let changesPerRound = 60
    for round in 0..<rounds {
      for index in 0..<changesPerRound {
        let item: JSONValue = ["id": .string("r\(round)-\(index)")]
        writer.sendRequest(
          id: nextID + index, "list/edit",
          ["list": "busy", "edits": [["op": "appendItems", "items": [item]]]])
      }
      // Every other round subscribes to every list instead of the one.
      let params: JSONValue =
        round % 2 == 0 ? ["list": "busy", "snapshot": "none"] : ["snapshot": "none"]
      viewer.sendRequest(id: nextID, "list/subscribe", params)
      let (reply, before) = answer(viewer, id: nextID, list: "busy")
      let entry = reply?["result"]?["lists"]?.arrayValue?.first { $0["list"] == "busy" }
      guard let answered = entry?["version"]?.intValue else {
        return XCTFail("round \(round): no subscribe answer: \(String(describing: reply))")
      }
      let later = before.filter { $0 > answered }
      XCTAssertEqual(later, [], "round \(round): notifications of versions after \(answered) came first")
      version += Int64(changesPerRound)
      for index in 0..<changesPerRound {
        XCTAssertNil(writer.response(id: nextID + index)?["error"], "round \(round) edit \(index)")
      }
      if answered < version {
        let seen = changes(viewer, list: "busy", through: version)
        XCTAssertEqual(seen, Array((answered + 1)...version), "round \(round): a gap or a repeat")
      }
      XCTAssertNil(viewer.request(id: nextID + 1, "list/unsubscribe", [:])?["error"])
      nextID += changesPerRound + 1
    }
    viewer.close()
  }

  /// On one connection, requests about a list take effect in the order they were sent:
  /// a subscribe followed by an unsubscribe leaves no subscription, whatever the timing.
  func testSubscribeThenUnsubscribeOnOneConnectionEndsUnsubscribed() throws {
    let raw = try RawClient.inProcess(of: TestClient.server())
    XCTAssertNil(raw.request(id: 1, "initialize", [:])?["error"])
    XCTAssertNil(
      raw.request(id: 2, "list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])?["error"])
    var id = 10
    for round in 0..<20 {
      raw.sendRequest(
        id: id, "list/edit",
        ["list": "l", "edits": [["op": "appendItems", "items": [["id": .string("a\(round)")]]]]])
      raw.sendRequest(
        id: id + 1, "list/subscribe",
        round % 2 == 0 ? ["list": "l", "snapshot": "none"] : ["snapshot": "none"])
      raw.sendRequest(id: id + 2, "list/unsubscribe", round % 2 == 0 ? ["list": "l"] : [:])
      raw.sendRequest(id: id + 3, "list/info", ["list": "l"])
      let info = raw.response(id: id + 3)
      XCTAssertEqual(info?["result"]?["subscribers"], 0, "round \(round): \(String(describing: info))")
      XCTAssertEqual(
        info?["result"]?["version"], .int(Int64(round + 1)), "round \(round): list/info missed its own edit")
      id += 4
    }
  }

  /// A user event sent right after a change on the same connection is checked against that
  /// change (the item it added exists, with its toggle).
  func testAnEventSeesTheChangeSentBeforeItOnTheSameConnection() throws {
    let raw = try RawClient.inProcess(of: TestClient.server())
    XCTAssertNil(raw.request(id: 1, "initialize", [:])?["error"])
    XCTAssertNil(
      raw.request(id: 2, "list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])?["error"])
    var id = 10
    for round in 0..<20 {
      let item: JSONValue = ["id": .string("t\(round)"), "accessories": [["type": "toggle", "isOn": false]]]
      raw.sendRequest(id: id, "list/edit", ["list": "l", "edits": [["op": "appendItems", "items": [item]]]])
      raw.sendRequest(id: id + 1, "event/toggle", ["list": "l", "item": .string("t\(round)"), "isOn": true])
      let answer = raw.response(id: id + 1)
      XCTAssertEqual(
        answer?["result"]?["version"], .int(Int64(round + 1)), "round \(round): \(String(describing: answer))"
      )
      id += 2
    }
  }

  /// Every kind of read sent right after a change on the same connection sees the change.
  func testEveryReadSentAfterAChangeOnTheSameConnectionSeesIt() throws {
    let raw = try RawClient.inProcess(of: TestClient.server())
    XCTAssertNil(raw.request(id: 1, "initialize", [:])?["error"])
    XCTAssertNil(
      raw.request(id: 2, "list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])?["error"])
    let inbox = TranscriptInbox(raw)  // answers may come in any order: keep what is not asked for yet
    var id = 10
    for round in 1...10 {
      let version = JSONValue.int(Int64(round))
      raw.sendRequest(
        id: id, "list/edit",
        ["list": "l", "edits": [["op": "appendItems", "items": [["id": .string("i\(round)")]]]]])
      raw.sendRequest(id: id + 1, "query/counts", ["list": "l"])
      raw.sendRequest(id: id + 2, "list/all", [:])
      raw.sendRequest(id: id + 3, "list/changesSince", ["list": "l", "version": 0])
      raw.sendRequest(id: id + 4, "query/item", ["list": "l", "item": .string("i\(round)")])
      XCTAssertEqual(
        inbox.response(to: .int(Int64(id + 1)))?["result"]?["items"], version, "round \(round): query/counts")
      XCTAssertEqual(
        inbox.response(to: .int(Int64(id + 2)))?["result"]?["lists"]?[0]?["version"], version,
        "round \(round): list/all")
      XCTAssertEqual(
        inbox.response(to: .int(Int64(id + 3)))?["result"]?["version"], version,
        "round \(round): list/changesSince")
      XCTAssertNil(inbox.response(to: .int(Int64(id + 4)))?["error"], "round \(round): query/item")
      id += 5
    }
  }
}
