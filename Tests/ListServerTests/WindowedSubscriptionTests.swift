// Windowed subscriptions in process: a windowed mirror equals the list's window at every version, and costs bytes per window.
import Foundation
import JSON
import JSONRPC
import ListClient
import SeededRandom
import XCTest

final class WindowedSubscriptionTests: XCTestCase {
  /// How many notifications carried `enter`, counted runs, counted sections (the test's coverage).
  private var seen: [String: Int] = [:]

  /// One owner applies 3,000 random `list/edit` batches (pipelined) while three windowed
  /// subscribers move their windows at random with `list/setWindow` (sent while batches are in
  /// flight). Each subscriber's `WindowedMirror` — its answer plus the filtered notifications —
  /// must equal the list at every version: every section's id, header, footer and row count, the
  /// window's rows, the selection (the model run in-process on the same edits gives the list).
  /// No notification carries more rows than the window holds.
  ///
  /// `LISTD_WINDOWED_SEED=n` replays a run; `LISTD_WINDOWED_BATCHES=n` changes its length.
  func testWindowedMirrorsEqualTheListAtEveryVersion() throws {
    let environment = ProcessInfo.processInfo.environment
    let seed =
      environment["LISTD_WINDOWED_SEED"].flatMap(UInt64.init) ?? 5311
    let batches = environment["LISTD_WINDOWED_BATCHES"].flatMap(Int.init) ?? 3_000
    print(
      "WindowedSubscriptionTests: seed \(seed) (LISTD_WINDOWED_SEED=\(seed) replays it), \(batches) batches")

    let server = TestClient.server()
    let owner = try TestClient.inProcess(of: server, primary: true, name: "owner")
    try owner.initialize(name: "owner")
    var run = MirrorRun(seed: seed, list: "w")
    try owner.request(
      "list/create",
      [
        "list": "w", "selectionMode": "multiple", "content": run.initialContent(),
        "columns": MirrorRun.columns,
      ])
    try run.createReference()

    var viewers: [Viewer] = []
    for (index, (offset, limit)) in [(0, 10), (17, 5), (30, 40)].enumerated() {
      let client = try TestClient.inProcess(of: server, name: "viewer-\(index)")
      try client.initialize(name: "viewer-\(index)")
      let answer = try client.request(
        "list/subscribe",
        ["list": "w", "window": ["offset": .int(Int64(offset)), "limit": .int(Int64(limit))]])
      let mirror = try WindowedMirror(subscribed: try XCTUnwrap(answer["lists"]?[0]), limit: limit)
      try check(mirror, against: run, seed: seed)
      viewers.append(Viewer(client: client, mirror: mirror))
    }

    var sent = 0
    var moves = 0
    while sent < batches {
      let size = min(batches - sent, run.random.int(in: 1...30))
      let answers = (0..<size).map { _ in ResultSlot() }
      var expectations: [MirrorRun.Expectation] = []
      let moveAt = (0..<viewers.count).map { _ in
        run.random.chance(0.3) ? run.random.int(in: 0...(size - 1)) : -1
      }
      for index in 0..<size {
        for viewer in viewers.indices where moveAt[viewer] == index {
          let total = run.expected(at: run.version)?.rowCount ?? 0
          let offset = run.random.int(in: 0...(total + 5))
          let limit = run.random.element([0, 1, 3, 8, 25, 60])!
          let slot = ResultSlot()
          viewers[viewer].client.connection.sendRequest(
            "list/setWindow", ["list": "w", "offset": .int(Int64(offset)), "limit": .int(Int64(limit))]
          ) { slot.set($0) }
          viewers[viewer].pending = (slot, limit)
          moves += 1
        }
        let (params, expectation) = try run.nextBatch()
        expectations.append(expectation)
        let slot = answers[index]
        owner.connection.sendRequest("list/edit", params) { slot.set($0) }
      }
      for (index, (slot, expectation)) in zip(answers, expectations).enumerated() {
        let result = try slot.wait(timeout: 60, "list/edit #\(sent + index)")
        try run.check(result, against: expectation, batch: sent + index, seed: seed)
      }
      sent += size
      for index in viewers.indices {
        if let (slot, limit) = viewers[index].pending {
          let answer = try slot.wait(timeout: 20, "list/setWindow").get()
          let version = try XCTUnwrap(answer["version"]?.intValue)
          try catchUp(&viewers[index], to: Int(version), run: run, seed: seed)
          try viewers[index].mirror.apply(setWindow: answer, limit: limit)
          try check(viewers[index].mirror, against: run, seed: seed)
          viewers[index].pending = nil
        }
        try catchUp(&viewers[index], to: run.version, run: run, seed: seed)
      }
      run.forget(before: run.version)
    }
    for viewer in viewers {
      XCTAssertNil(viewer.client.next("list/didChange", timeout: 0.05), "no change beyond the last version")
      viewer.client.close()
    }
    print("WindowedSubscriptionTests: final v\(run.version), \(moves) window moves, \(seen)")
    XCTAssertGreaterThan(moves, 10)
    XCTAssertEqual(seen.count, 3, "rows entering, counted runs and counted sections all occur")
    owner.close()
  }

  /// Expanding a node with 100,000 children: a windowed subscriber (100 rows) receives one
  /// counted run and its window's rows — under 20 KB where the full subscriber receives
  /// megabytes — and its mirror is exact; the owner asking `rows: "none"` is answered the
  /// structure only, under 1 KB.
  func testALargeExpandCostsAWindowedSubscriberItsWindow() throws {
    let server = TestClient.server()
    let owner = try TestClient.inProcess(of: server, primary: true, name: "owner")
    try owner.initialize()
    let children: [JSONValue] = (0..<100_000).map {
      ["id": .string("c\($0)"), "text": .string("Child \($0)")]
    }
    try owner.request(
      "list/create",
      [
        "list": "big",
        "content": [
          "sections": [["id": "s", "items": [["id": "top"], ["id": "root", "children": .array(children)]]]]
        ],
      ])
    let full = try TestClient.inProcess(of: server, name: "full")
    try full.initialize()
    try full.request("list/subscribe", ["list": "big", "snapshot": "none"])
    let windowed = try TestClient.inProcess(of: server, name: "windowed")
    try windowed.initialize()
    let answer = try windowed.request(
      "list/subscribe", ["list": "big", "window": ["offset": 0, "limit": 100]])
    var mirror = try WindowedMirror(subscribed: try XCTUnwrap(answer["lists"]?[0]), limit: 100)
    XCTAssertEqual(mirror.windowRows.compactMap { $0["id"]?.stringValue }, ["top", "root"])

    let expanded = try owner.request("outline/expand", ["list": "big", "item": "root", "rows": "none"])
    let answerBytes = expanded.jsonBytes().count
    XCTAssertLessThan(answerBytes, 1_000, "the owner's lean answer")
    let expected: JSONValue = [
      "itemInserts": [["at": [0, 2], "count": 100_000]], "itemReconfigures": [["at": [0, 1], "count": 1]],
      "expanded": ["root"],
    ]
    XCTAssertEqual(
      expanded["changeset"], expected)
    let fullChange = try XCTUnwrap(full.next("list/didChange", timeout: 120))
    let windowedChange = try XCTUnwrap(windowed.next("list/didChange", timeout: 120))
    let fullBytes = fullChange.jsonBytes().count
    let windowedBytes = windowedChange.jsonBytes().count
    print(
      "WindowedSubscriptionTests: the 100,000-row expand: windowed \(windowedBytes) bytes, full \(fullBytes) bytes"
    )
    XCTAssertLessThan(windowedBytes, 20_000)
    XCTAssertGreaterThan(fullBytes, 2_000_000)
    let inserts = try XCTUnwrap(windowedChange["changeset"]?["itemInserts"]?.arrayValue)
    XCTAssertEqual(inserts.count, 2)
    XCTAssertEqual(inserts.first?["at"], [0, 2])
    XCTAssertEqual(
      inserts.first?["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, (0..<98).map { "c\($0)" })
    XCTAssertEqual(inserts.last, ["at": [0, 100], "count": 99_902])
    try mirror.apply(didChange: windowedChange)
    XCTAssertEqual(mirror.totalRows, 100_002)
    XCTAssertEqual(mirror.windowRows.count, 100)
    XCTAssertEqual(mirror.windowRows.last?["id"], "c97")
    XCTAssertEqual(mirror.windowRows[1]["expanded"], true)

    // Moving the window to the end answers the rows there, and the collapse shifts nothing in.
    let moved = try windowed.request("list/setWindow", ["list": "big", "offset": 99_990, "limit": 100])
    try mirror.apply(setWindow: moved, limit: 100)
    XCTAssertEqual(
      mirror.windowRows.compactMap { $0["id"]?.stringValue }, (99_988..<100_000).map { "c\($0)" })
    try owner.request("outline/collapse", ["list": "big", "item": "root"])
    try mirror.apply(didChange: try XCTUnwrap(windowed.next("list/didChange")))
    XCTAssertEqual(mirror.totalRows, 2)
    XCTAssertEqual(mirror.windowRows, [])
    for client in [owner, full, windowed] { client.close() }
  }

  /// `list/setWindow` needs a subscription, a known list and a window within the limits; it turns
  /// a full subscription into a windowed one.
  func testSetWindowErrors() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    try client.request(
      "list/create",
      ["list": "l", "content": ["sections": [["id": "s", "items": [["id": "a"], ["id": "b"]]]]]])
    let unsubscribed = client.error("list/setWindow", ["list": "l", "offset": 0, "limit": 1])
    XCTAssertEqual(unsubscribed.code, .invalidParams)
    XCTAssertEqual(unsubscribed.data?["field"], "list")
    XCTAssertTrue(unsubscribed.message.contains("no subscription"), unsubscribed.message)
    XCTAssertEqual(client.error("list/setWindow", ["list": "nope", "offset": 0, "limit": 1]).code, -32010)
    try client.request("list/subscribe", ["list": "l"])
    XCTAssertEqual(
      client.error("list/setWindow", ["list": "l", "offset": -1, "limit": 1]).data?["field"], "offset")
    XCTAssertEqual(
      client.error("list/setWindow", ["list": "l", "offset": 0, "limit": 1_000_000]).data?["field"], "limit")
    let answer = try client.request("list/setWindow", ["list": "l", "offset": 1, "limit": 1])
    XCTAssertEqual(answer["window"]?["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["b"])
    XCTAssertEqual(answer["sections"], [["id": "s", "rows": 2]])
    XCTAssertEqual(answer["selection"], [])
    try client.request(
      "list/edit", ["list": "l", "edits": [["op": "appendItems", "items": [["id": "c", "text": "C"]]]]])
    let change = try XCTUnwrap(client.next("list/didChange"))
    XCTAssertEqual(change["changeset"], ["itemInserts": [["at": [0, 2], "count": 1]]])
    client.close()
  }

  // MARK: - Helpers

  /// Applies the viewer's notifications until its mirror reaches `version`, checking each.
  private func catchUp(_ viewer: inout Viewer, to version: Int, run: MirrorRun, seed: UInt64) throws {
    while viewer.mirror.version < version {
      guard let params = viewer.client.next("list/didChange", timeout: 20) else {
        throw TestFailure(
          "seed \(seed): \(viewer.client.connection.options.name): no notification after v\(viewer.mirror.version)"
        )
      }
      let carried = Self.carriedRows(params["changeset"] ?? [:])
      let text = WireMirror.text(params)
      for mark in ["\"enter\"", "\"count\"", "\"rowCount\""] where text.contains(mark) {
        seen[mark, default: 0] += 1
      }
      guard carried <= viewer.mirror.limit else {
        throw TestFailure(
          "seed \(seed): v\(params["version"] ?? .null) carries \(carried) rows, the window has \(viewer.mirror.limit)"
        )
      }
      do {
        try viewer.mirror.apply(didChange: params)
      } catch {
        throw TestFailure("seed \(seed): \(viewer.mirror) cannot apply \(WireMirror.text(params)): \(error)")
      }
      try check(viewer.mirror, against: run, seed: seed)
    }
  }

  /// The rows a changeset carries (runs, inserted sections, `enter`).
  private static func carriedRows(_ changeset: JSONValue) -> Int {
    var count = 0
    for key in ["itemInserts", "itemReloads", "itemReconfigures", "enter"] {
      for run in changeset[key]?.arrayValue ?? [] { count += run["rows"]?.arrayValue?.count ?? 0 }
    }
    for insert in changeset["sectionInserts"]?.arrayValue ?? [] {
      count += insert["section"]?["rows"]?.arrayValue?.count ?? 0
    }
    return count
  }

  /// The windowed mirror equals the list (the model's state at its version) seen through its window.
  private func check(_ mirror: WindowedMirror, against run: MirrorRun, seed: UInt64) throws {
    guard let expected = run.expected(at: mirror.version) else {
      throw TestFailure("seed \(seed): no expected state at v\(mirror.version)")
    }
    let context = "seed \(seed): \(mirror) [\(mirror.offset), +\(mirror.limit))"
    let sections = mirror.sections.map { [$0.id, $0.header ?? "-", $0.footer ?? "-", String($0.count)] }
    let expectedSections = expected.sections.map {
      [$0.id, $0.header ?? "-", $0.footer ?? "-", String($0.rows.count)]
    }
    guard sections == expectedSections else {
      throw TestFailure("\(context): sections \(sections) ≠ \(expectedSections)")
    }
    let flat = expected.sections.flatMap(\.rows)
    let window = Array(flat[min(mirror.offset, flat.count)..<min(mirror.offset + mirror.limit, flat.count)])
    guard mirror.windowRows == window else {
      let ids = mirror.windowRows.map { $0["id"]?.stringValue ?? "?" }
      let expectedIDs = window.map { $0["id"]?.stringValue ?? "?" }
      throw TestFailure(
        "\(context): window \(ids) ≠ \(expectedIDs)\(ids == expectedIDs ? " (payloads differ)" : "")")
    }
    guard mirror.selection == expected.selection else {
      throw TestFailure("\(context): selection \(mirror.selection.sorted()) ≠ \(expected.selection.sorted())")
    }
  }

  private struct Viewer {
    var client: TestClient
    var mirror: WindowedMirror
    var pending: (slot: ResultSlot, limit: Int)?
  }
}
