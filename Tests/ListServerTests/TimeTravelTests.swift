// Time travel against an in-process server: version errors, retention, subscribing from a past version, query/content, the VersionSource hook.
import Foundation
import JSON
import JSONRPC
import ListClient
import ListModel
import ListProtocol
import XCTest

@testable import ListServer

final class TimeTravelTests: XCTestCase {
  /// A server with one list `l` at version `versions` (each change appends one item), whose
  /// history keeps the records of the last `kept` changes (`--explain-history kept`); its client.
  private func server(versions: Int, kept: Int = 1_000) throws -> TestClient {
    var options = ServerOptions()
    options.explainLimit = kept
    let client = try TestClient.inProcess(options)
    try client.initialize()
    try client.request(
      "list/create", ["list": "l", "content": ["sections": [["id": "s", "items": [["id": "i0"]]]]]])
    for version in 1...max(1, versions) where versions > 0 {
      try client.request(
        "list/edit",
        ["list": "l", "edits": [["op": "appendItems", "items": [["id": .string("i\(version)")]]]]])
    }
    return client
  }

  /// Every version member refuses what is not a version the list had and retains, naming the
  /// field and the value: the wrong type and a negative number (-32602, before the list is
  /// looked up), a version newer than the list's (-32602), one it no longer keeps (-32015 with
  /// the oldest it keeps and the current one).
  func testVersionMembersNameTheFieldAndTheValue() throws {
    let client = try server(versions: 30, kept: 10)
    defer { client.close() }
    let requests: [(method: String, params: JSONValue, field: String)] = [
      ("query/counts", ["list": "l"], "atVersion"),
      ("query/window", ["list": "l", "offset": 0, "limit": 5], "atVersion"),
      ("query/item", ["list": "l", "item": "i0"], "atVersion"),
      ("query/content", ["list": "l"], "atVersion"),
      ("list/info", ["list": "l"], "atVersion"),
      ("list/subscribe", ["list": "l"], "atVersion"),
      ("list/diff", ["list": "l", "to": 30], "from"),
      ("list/diff", ["list": "l", "from": 30], "to"),
    ]
    for (method, params, field) in requests {
      func error(_ value: JSONValue, list: String = "l") -> ResponseError {
        client.error(method, params.setting(field, value).setting("list", .string(list)))
      }
      let text = error("7")
      XCTAssertEqual(text.code, .invalidParams, method)
      XCTAssertEqual(text.message, "invalid params: \"\(field)\" must be an integer, got \"7\"", method)
      XCTAssertEqual(text.data?["field"], .string(field), method)
      let fraction = error(1.5)
      XCTAssertEqual(fraction.message, "invalid params: \"\(field)\" must be an integer, got 1.5", method)
      let negative = error(-1)
      XCTAssertEqual(negative.message, "invalid params: \"\(field)\" must be 0 or more, got -1", method)
      XCTAssertEqual(negative.data?["field"], .string(field), method)
      // The member's type before the list; the version itself after it.
      XCTAssertEqual(error(-1, list: "nope").code, .invalidParams, method)
      XCTAssertEqual(error(31, list: "nope").code, ErrorCode(rawValue: -32010), method)
      let newer = error(31)
      XCTAssertEqual(newer.code, .invalidParams, method)
      XCTAssertEqual(
        newer.message, "invalid params: \"\(field)\" 31 is newer than the version of list 'l', 30", method)
      XCTAssertEqual(newer.data?["field"], .string(field), method)
      let old = error(19)
      XCTAssertEqual(old.code, ErrorCode(rawValue: -32015), method)
      XCTAssertEqual(
        old.message, "\"\(field)\" 19 is no longer kept by list 'l', which keeps versions 20 to 30", method)
      XCTAssertEqual(old.data, ["oldestVersion": 20, "currentVersion": 30], method)
      // The oldest kept version itself answers.
      XCTAssertNoThrow(try client.request(method, params.setting(field, 20)), method)
    }
    // atVersion null is the current version.
    XCTAssertEqual(try client.request("query/counts", ["list": "l", "atVersion": .null])["version"], 30)
    // A past version is one list's.
    let all = client.error("list/subscribe", ["atVersion": 3])
    XCTAssertEqual(all.code, .invalidParams)
    XCTAssertEqual(all.message, "invalid params: \"atVersion\" needs \"list\": a past version is one list's")
    // An unknown item of then is the item's error, after the version's.
    let gone = client.error("query/item", ["list": "l", "item": "i30", "atVersion": 29])
    XCTAssertEqual(gone.code, ErrorCode(rawValue: -32012))
    XCTAssertEqual(
      try client.request("query/item", ["list": "l", "item": "i29", "atVersion": 29])["version"], 29)
  }

  /// The newest change is always kept, so version current − 1 is always retained; with one
  /// record, the current and the previous version only.
  func testTheLastChangeIsAlwaysRetained() throws {
    let client = try server(versions: 5, kept: 1)
    defer { client.close() }
    XCTAssertEqual(try client.request("query/counts", ["list": "l", "atVersion": 4])["items"], 5)
    let diff = try client.request("list/diff", ["list": "l", "from": 5, "to": 4])
    XCTAssertEqual(diff["changeset"], ["itemDeletes": [[0, 5, 1]]])
    let error = client.error("query/counts", ["list": "l", "atVersion": 3])
    XCTAssertEqual(error.data, ["oldestVersion": 4, "currentVersion": 5])
    XCTAssertEqual(
      error.message, "\"atVersion\" 3 is no longer kept by list 'l', which keeps versions 4 to 5")
  }

  /// A subscription from a past version answers that version, then every change after it in
  /// order — those already committed, then new ones — with nothing skipped or repeated; the
  /// answer comes before all of them.
  func testSubscribingFromAPastVersionReceivesEveryLaterChange() throws {
    let owner = try server(versions: 6)
    defer { owner.close() }
    let answer = try owner.request(
      "list/subscribe",
      ["list": "l", "atVersion": 2, "snapshot": "window", "window": ["offset": 0, "limit": 2]])
    let entry = try XCTUnwrap(answer["lists"]?.arrayValue?.first)
    XCTAssertEqual(entry["version"], 2)
    XCTAssertEqual(entry["info"]?["version"], 2)
    XCTAssertEqual(entry["info"]?["items"], 3)
    XCTAssertEqual(entry["window"]?["totalRows"], 3)
    try owner.request("list/edit", ["list": "l", "edits": [["op": "deleteItems", "items": ["i0"]]]])
    // Windowed: the versions since arrive composed in one change (2 → 6), then 7.
    var windowed = try WindowedMirror(subscribed: entry, limit: 2)
    var versions: [[Int64]] = []
    while versions.count < 2, let change = owner.next("list/didChange") {
      versions.append([change["previousVersion"]?.intValue ?? -1, change["version"]?.intValue ?? -1])
      try windowed.apply(didChange: change)
    }
    XCTAssertEqual(versions, [[2, 6], [6, 7]])
    XCTAssertNil(owner.next("list/didChange", timeout: 0.1))
    let window = try owner.request("query/window", ["list": "l", "offset": 0, "limit": 2])
    XCTAssertEqual(
      windowed.windowRows,
      window["rows"]?.arrayValue?.map { row -> JSONValue in
        guard case .object(var object) = row else { return row }
        object["section"] = nil
        object["indexPath"] = nil
        return .object(object)
      })

    // Full snapshot: a mirror from the answer follows every version.
    let full = try owner.request("list/subscribe", ["list": "l", "atVersion": 0])
    var mirror = try WireMirror(subscribed: try XCTUnwrap(full["lists"]?.arrayValue?.first))
    XCTAssertEqual(mirror.rowCount, 1)
    while mirror.version < 7, let change = owner.next("list/didChange") {
      try mirror.apply(didChange: change)
    }
    let now = try owner.request("list/subscribe", ["list": "l"])
    XCTAssertNil(
      mirror.firstDifference(from: try WireMirror(subscribed: try XCTUnwrap(now["lists"]?.arrayValue?.first)))
    )
  }

  /// `query/content` gives what `list/create` reads back into the same list: hidden items,
  /// expansion (leaves too), payloads, headers and footers; and `list/info` at a version has
  /// that version's counts and the current title.
  func testQueryContentRoundTripsThroughListCreate() throws {
    let client = try TestClient.inProcess()
    defer { client.close() }
    try client.initialize()
    let content: JSONValue = [
      "sections": [
        [
          "id": "s", "header": "H", "footer": "F",
          "items": [
            [
              "id": "a", "text": "A", "data": ["z": 1, "a": [1.5, nil]],
              "accessories": [["type": "progress", "value": 0.5]],
              "children": [["id": "b", "expanded": true, "children": [["id": "c", "selectable": false]]]],
            ],
            [
              "id": "leaf", "expanded": true, "movable": true,
              "contextMenuActions": [["id": "x", "title": "X"]],
            ],
          ],
        ],
        ["id": "empty", "items": []],
      ]
    ]
    try client.request(
      "list/create", ["list": "l", "title": "Title", "selectionMode": "multiple", "content": content])
    try client.request("selection/select", ["list": "l", "items": ["leaf"]])
    try client.request("outline/expand", ["list": "l", "item": "a"])
    let at0 = try client.request("query/content", ["list": "l", "atVersion": 0])
    XCTAssertEqual(at0["version"], 0)
    XCTAssertEqual(at0["selection"], [])
    XCTAssertEqual(at0["selectionMode"], "multiple")
    try client.request(
      "list/create", ["list": "copy", "selectionMode": "multiple", "content": at0["content"] ?? [:]])
    let copied = try client.request("query/content", ["list": "copy"])
    XCTAssertEqual(copied["content"], at0["content"])
    // The copy's rows are the original's at version 0.
    let original = try client.request("list/subscribe", ["list": "l", "atVersion": 0])["lists"]?[0]?[
      "snapshot"]
    let copy = try client.request("list/subscribe", ["list": "copy"])["lists"]?[0]?["snapshot"]
    XCTAssertEqual(copy, original)
    let now = try client.request("query/content", ["list": "l"])
    XCTAssertEqual(now["selection"], ["leaf"])
    XCTAssertEqual(now["content"]?["sections"]?[0]?["items"]?[0]?["expanded"], true)
    XCTAssertNil(at0["content"]?["sections"]?[0]?["items"]?[0]?["expanded"])
    let info = try client.request("list/info", ["list": "l", "atVersion": 1])
    XCTAssertEqual(info["version"], 1)
    XCTAssertEqual(info["selected"], 1)
    XCTAssertEqual(info["rows"], 2)
    XCTAssertEqual(info["title"], "Title")
  }

  /// `list/diff` answers `{}` for one version with itself, the change's own changeset for
  /// adjacent versions, and with `explain` the causes (source `list/diff`, naming the edit of
  /// `edits` when both are asked).
  func testListDiffExplainsAndNamesItsEdits() throws {
    let client = try server(versions: 3)
    defer { client.close() }
    XCTAssertEqual(
      try client.request("list/diff", ["list": "l", "from": 2, "to": 2, "edits": true]),
      ["list": "l", "from": 2, "to": 2, "changeset": [:], "edits": []])
    let changes = try client.request("list/changesSince", ["list": "l", "version": 2])["changes"]?[0]
    let forward = try client.request("list/diff", ["list": "l", "from": 2, "to": 3, "explain": true])
    XCTAssertEqual(forward["changeset"], changes?["changeset"])
    XCTAssertEqual(forward["explain"]?["source"], ["method": "list/diff"])
    let back = try client.request(
      "list/diff", ["list": "l", "from": 3, "to": 0, "explain": true, "edits": true])
    XCTAssertEqual(back["changeset"], ["itemDeletes": [[0, 1, 3]]])
    XCTAssertEqual(back["edits"], [["op": "deleteItems", "items": ["i1", "i2", "i3"]]])
    XCTAssertEqual(
      back["explain"]?["causes"],
      [
        [
          "change": "itemDeletes", "entry": 0, "offset": 0, "count": 3, "item": "i1", "reason": "removed",
          "edit": ["index": 0, "op": "deleteItems"],
        ]
      ])
    // Reverting: the edits with ifVersion make the old content a new version.
    let reverted = try client.request(
      "list/edit", ["list": "l", "edits": back["edits"] ?? [], "ifVersion": 3])
    XCTAssertEqual(reverted["version"], 4)
    XCTAssertEqual(
      try client.request("query/content", ["list": "l"])["content"],
      try client.request("query/content", ["list": "l", "atVersion": 0])["content"])
  }

  /// Every time-travel read goes through `LiveList.snapshot(atVersion:)`, which asks the
  /// connected `VersionSource` (the journal) for versions memory no longer keeps, and names the
  /// source's oldest version when neither has one.
  func testAVersionSourceAnswersWhatMemoryNoLongerKeeps() throws {
    var snapshot = ListSnapshot(selectionMode: .single)
    try snapshot.appendSections(["s"])
    let list = LiveList(
      id: "l", snapshot: snapshot, metadata: ListMetadata(title: "l", appearance: .plain), owner: nil,
      historyLimit: 1_000, explainLimit: 2)
    var versions = [snapshot]
    for index in 1...5 {
      list.queue.sync {
        _ = try? ListChanges.mutate(list, ifVersion: nil, source: ChangeSource(method: "test")) {
          snapshot throws(ResponseError) in
          let old = snapshot
          try? snapshot.appendItems(["i\(index)"], toSection: "s")
          return diff(old, snapshot)
        }
      }
      versions.append(list.committed.snapshot)
    }
    XCTAssertEqual(try list.retainedVersions().oldest, 3)
    XCTAssertEqual(try list.snapshot(atVersion: 3), versions[3])
    XCTAssertThrowsError(try list.snapshot(atVersion: 1)) { error in
      XCTAssertEqual(
        (error as? ListError).map { ResponseError($0) }?.data, ["oldestVersion": 3, "currentVersion": 5])
    }

    let source = FixedVersions(oldest: 1, snapshots: [1: versions[1], 2: versions[2]])
    list.pastVersions.connect(source)
    XCTAssertEqual(try list.snapshot(atVersion: 1), versions[1])
    XCTAssertEqual(try list.snapshot(atVersion: 5), versions[5])
    XCTAssertEqual(source.asked, [1], "memory answers first")
    XCTAssertEqual(try list.retainedVersions().oldest, 1)
    XCTAssertThrowsError(try list.snapshot(atVersion: 0)) { error in
      XCTAssertEqual(
        (error as? ListError).map { ResponseError($0) }?.data, ["oldestVersion": 1, "currentVersion": 5])
    }
    let (from, to) = try list.snapshots(from: 1, to: 5)
    XCTAssertEqual(diff(from, to), diff(versions[1], versions[5]))
    // Adjacent versions come from the source's record of the change, with its reload marks.
    var reloaded = versions[2]
    try reloaded.reloadItems(["i1"])
    source.changes[2] = (versions[1], reloaded)
    let (after, before) = try list.snapshots(from: 2, to: 1)
    XCTAssertEqual(diff(before, after).itemReloads.count, 1)
    XCTAssertEqual(diff(after, before), diff(reloaded, versions[1]))
  }
}

/// A VersionSource with fixed snapshots, recording what it was asked.
private final class FixedVersions: VersionSource, @unchecked Sendable {
  // `@unchecked Sendable`: `asked` is guarded by `lock`.
  let retainedVersions: [ClosedRange<Int>]
  let snapshots: [Int: ListSnapshot]
  private let lock = NSLock()
  private var _asked: [Int] = []
  var asked: [Int] { lock.withLock { _asked } }

  init(oldest: Int, snapshots: [Int: ListSnapshot]) {
    retainedVersions = [oldest...(snapshots.keys.max() ?? oldest)]
    self.snapshots = snapshots
  }

  func snapshot(atVersion version: Int) -> ListSnapshot? {
    lock.withLock { _asked.append(version) }
    return snapshots[version]
  }

  /// Records of changes, by the version they produced.
  var changes: [Int: (ListSnapshot, ListSnapshot)] {
    get { lock.withLock { _changes } }
    set { lock.withLock { _changes = newValue } }
  }
  private var _changes: [Int: (ListSnapshot, ListSnapshot)] = [:]

  func change(producing version: Int) -> (before: ListSnapshot, after: ListSnapshot)? {
    changes[version].map { (before: $0.0, after: $0.1) }
  }
}
