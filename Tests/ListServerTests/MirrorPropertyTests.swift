// The mirror property in process: subscribers' wire mirrors equal the server's list at every version.
import Foundation
import JSON
import JSONRPC
import ListModel
import ListProtocol
import ListServer
import SeededRandom
import XCTest

final class MirrorPropertyTests: XCTestCase {
  /// One owner (the stdio-like session) applies 5,000 random `list/edit` batches, pipelined in
  /// windows, while three socket-like sessions subscribe (and a fourth joins mid-stream). Each subscriber's mirror —
  /// its subscribe answer plus the `list/didChange` notifications, applied on the wire JSON —
  /// must equal the list at every version: the expected state of each version (the model run
  /// in-process on the same edits), and the daemon's own state at every window's end.
  ///
  /// `LISTD_MIRROR_SEED=n` replays a run; `LISTD_MIRROR_BATCHES=n` changes its length.
  func testSubscribersMirrorTheListAtEveryVersion() throws {
    let environment = ProcessInfo.processInfo.environment
    let seed = environment["LISTD_MIRROR_SEED"].flatMap(UInt64.init) ?? 7311
    let batches = environment["LISTD_MIRROR_BATCHES"].flatMap(Int.init) ?? 5_000
    print("MirrorPropertyTests: seed \(seed) (LISTD_MIRROR_SEED=\(seed) replays it), \(batches) batches")
    let started = Date()

    let server = TestClient.server()
    let owner = try TestClient.inProcess(of: server, primary: true, name: "owner")
    try owner.initialize(name: "owner")

    var run = MirrorRun(seed: seed, list: "m")
    let created = try owner.request(
      "list/create",
      [
        "list": "m", "title": "Mirror", "selectionMode": "multiple", "content": run.initialContent(),
        "columns": MirrorRun.columns,
      ])
    XCTAssertEqual(created["version"], 0)
    try run.createReference()

    var subscribers: [(client: TestClient, mirror: WireMirror)] = []
    for index in 0..<3 {
      let client = try TestClient.inProcess(of: server, name: "subscriber-\(index)")
      try client.initialize(name: "subscriber-\(index)")
      let answer = try client.request("list/subscribe", ["list": "m"])
      let mirror = try WireMirror(subscribed: try XCTUnwrap(answer["lists"]?.arrayValue?.first))
      XCTAssertEqual(mirror.version, 0)
      subscribers.append((client, mirror))
    }
    let checker = try TestClient.inProcess(of: server, name: "checker")
    try checker.initialize(name: "checker")
    var latecomer: (client: TestClient, answer: ResultSlot)?

    // Every changeset passes the batch-update check (the model's function on the decoded wire
    // changeset, and every 50th version the daemon's check/batchUpdate) with both versions' counts.
    var countsBefore = subscribers[0].mirror.sections.map(\.rows.count)
    func checkBatchUpdate(_ mirror: WireMirror, _ params: JSONValue) throws {
      let after = mirror.sections.map(\.rows.count)
      defer { countsBefore = after }
      let changeset = params["changeset"] ?? [:]
      let update = try CheckDecoding.update(Params(changeset, path: "changeset"))
      let result = ListModel.checkBatchUpdate(before: countsBefore, update, after: after)
      guard result == .valid(after: after) else {
        throw TestFailure("seed \(seed): v\(mirror.version): UIKit would refuse \(changeset): \(result)")
      }
      if mirror.version % 50 == 0 {
        let counts = JSONValue.array(after.map { .int(Int64($0)) })
        let answer = try checker.request(
          "check/batchUpdate",
          ["before": .array(countsBefore.map { .int(Int64($0)) }), "update": changeset, "after": counts])
        guard answer == ["valid": true, "after": counts] else {
          throw TestFailure(
            "seed \(seed): v\(mirror.version): check/batchUpdate answered \(answer) for \(changeset)")
        }
      }
    }

    var sent = 0
    var checkpoints = 0
    var failedBatches = 0
    while sent < batches {
      let windowSize = min(batches - sent, run.random.int(in: 1...50))
      let joinNow = latecomer == nil && sent + windowSize >= batches / 2
      if joinNow {
        let client = try TestClient.inProcess(of: server, name: "latecomer")
        try client.initialize(name: "latecomer")
        latecomer = (client, ResultSlot())
      }
      // Pipelined: the whole window is written before any answer is awaited.
      let answers = (0..<windowSize).map { _ in ResultSlot() }
      var expectations: [MirrorRun.Expectation] = []
      for index in 0..<windowSize {
        if joinNow && index == windowSize / 2, let latecomer {
          latecomer.client.connection.sendRequest("list/subscribe", ["list": "m"]) {
            latecomer.answer.set($0)
          }
        }
        let (params, expectation) = try run.nextBatch()
        expectations.append(expectation)
        let slot = answers[index]
        owner.connection.sendRequest("list/edit", params) { slot.set($0) }
      }
      for (index, (slot, expectation)) in zip(answers, expectations).enumerated() {
        let result = try slot.wait(timeout: 60, "list/edit #\(sent + index)")
        if case .failure = result { failedBatches += 1 }
        try run.check(result, against: expectation, batch: sent + index, seed: seed)
      }
      sent += windowSize

      // Checkpoint: the daemon's own state at the version every answer so far produced.
      let fresh = try checker.request("list/subscribe", ["list": "m"])
      try checker.request("list/unsubscribe", ["list": "m"])
      let daemonState = try WireMirror(subscribed: try XCTUnwrap(fresh["lists"]?.arrayValue?.first))
      XCTAssertEqual(daemonState.version, run.version, "seed \(seed): daemon version after \(sent) batches")
      if let difference = run.expected(at: daemonState.version)?.firstDifference(from: daemonState) {
        XCTFail("seed \(seed): after \(sent) batches the daemon differs from the model: \(difference)")
        return
      }
      if joinNow, let latecomer {
        let result = try latecomer.answer.wait(timeout: 20, "latecomer's list/subscribe")
        let mirror = try WireMirror(subscribed: try XCTUnwrap(result.get()["lists"]?.arrayValue?.first))
        print("MirrorPropertyTests: the latecomer joined at version \(mirror.version)")
        if let difference = run.expected(at: mirror.version)?.firstDifference(from: mirror) {
          XCTFail("seed \(seed): the latecomer's snapshot at v\(mirror.version) differs: \(difference)")
          return
        }
        subscribers.append((latecomer.client, mirror))
      }
      for index in subscribers.indices {
        let client = subscribers[index].client
        let name = client.connection.options.name
        try catchUp(&subscribers[index].mirror, client: client, to: daemonState.version) { mirror, params in
          if let difference = run.expected(at: mirror.version)?.firstDifference(from: mirror) {
            throw TestFailure("seed \(seed): \(name) at v\(mirror.version): \(difference)")
          }
          if let answered = run.answeredChangeset(at: mirror.version), answered != params["changeset"] {
            throw TestFailure(
              "seed \(seed): v\(mirror.version): the notification's changeset differs from the answer's")
          }
          if index == 0 { try checkBatchUpdate(mirror, params) }
        }
        if let difference = subscribers[index].mirror.firstDifference(from: daemonState) {
          XCTFail("seed \(seed): after \(sent) batches, mirror ≠ daemon: \(difference)")
          return
        }
      }
      checkpoints += 1
      run.forget(before: daemonState.version)
    }

    XCTAssertEqual(subscribers.count, 4, "the latecomer joined")
    let final = try XCTUnwrap(run.expected(at: run.version))
    for subscriber in subscribers {
      XCTAssertEqual(
        subscriber.mirror, final, "seed \(seed): final mirror of \(subscriber.client.connection.options.name)"
      )
      XCTAssertNil(
        subscriber.client.next("list/didChange", timeout: 0.05), "no change beyond the last version")
      subscriber.client.close()
    }
    let elapsed = Date().timeIntervalSince(started)
    print(
      "MirrorPropertyTests: \(batches) batches (\(failedBatches) rejected), final v\(run.version) "
        + "with \(final.rowCount) rows in \(final.sections.count) sections, \(checkpoints) checkpoints, "
        + String(format: "%.1f s", elapsed))
    XCTAssertGreaterThan(failedBatches, 0, "some batches are invalid")
    XCTAssertGreaterThan(run.version, batches / 2, "most batches change the list")
    checker.close()
    owner.close()
  }

  /// `list/changesSince` answers exactly the notifications a subscriber received, and a version
  /// older than `--history` keeps is -32015 with the oldest and current versions.
  func testChangesSinceEqualsTheNotificationsAndHistoryIsBounded() throws {
    let history = 20
    var options = ServerOptions()
    options.historyLimit = history
    let owner = try TestClient.inProcess(options, name: "owner")
    try owner.initialize()
    var run = MirrorRun(seed: 7, list: "h")
    try owner.request(
      "list/create",
      [
        "list": "h", "selectionMode": "multiple", "content": run.initialContent(),
        "columns": MirrorRun.columns,
      ])
    try run.createReference()
    // The owner subscribes too: it is the subscriber whose notifications we compare.
    let answer = try owner.request("list/subscribe", ["list": "h"])
    var mirror = try WireMirror(subscribed: try XCTUnwrap(answer["lists"]?.arrayValue?.first))

    var received: [JSONValue] = []
    while run.version < 50 {
      let (params, expectation) = try run.nextBatch()
      let result: Result<JSONValue, any Error>
      do { result = .success(try owner.request("list/edit", params)) } catch { result = .failure(error) }
      try run.check(result, against: expectation, batch: received.count, seed: 7)
    }
    while mirror.version < run.version {
      let params = try XCTUnwrap(owner.next("list/didChange"), "notification v\(mirror.version + 1)")
      try mirror.apply(didChange: params)
      received.append(params)
    }
    XCTAssertNil(try XCTUnwrap(run.expected(at: run.version)).firstDifference(from: mirror))

    let current = run.version
    for since in [current, current - 1, current - 7, current - history] {
      let answer = try owner.request("list/changesSince", ["list": "h", "version": .int(Int64(since))])
      XCTAssertEqual(answer["version"], .int(Int64(current)))
      let changes = try XCTUnwrap(answer["changes"]?.arrayValue)
      XCTAssertEqual(changes, Array(received.suffix(current - since)), "changes since v\(since)")
    }
    let error = owner.error(
      "list/changesSince", ["list": "h", "version": .int(Int64(current - history - 1))])
    XCTAssertEqual(error.code, .historyUnavailable)
    XCTAssertEqual(error.data?["oldestVersion"], .int(Int64(current - history)))
    XCTAssertEqual(error.data?["currentVersion"], .int(Int64(current)))
    XCTAssertEqual(owner.error("list/changesSince", ["list": "h", "version": 0]).code, .historyUnavailable)
    owner.close()
  }

  /// The daemon's one-pass decoding of content items (used for large content) gives exactly what
  /// the checked decoding gives, or declines; it declines every input the checked path rejects.
  func testFastContentDecodingEqualsTheCheckedPath() throws {
    var run = MirrorRun(seed: 11, list: "x")
    var fastCount = 0
    var items: [JSONValue] = (0..<2_000).map { _ in run.randomItem() }
    items += [
      ["id": "a", "text": .null, "children": .null, "expanded": .null, "accessories": [], "data": .null],
      ["id": "b7", "selectable": false, "movable": true, "children": [["id": "c", "expanded": true]]],
      ["id": "d", "text": 1], ["id": "e", "unknown": true], .object(JSONObject([("id", "f"), ("id", "g")])),
      ["text": "no id"], ["id": "h", "children": [["id": "i", "text": false]]],
      ["id": "j", "expanded": "yes"],
    ]
    for (index, item) in items.enumerated() {
      let inherit = index.isMultiple(of: 2)
      let checked = Result { () throws(ResponseError) in
        try ContentDecoding.tree(Params(item), inherit: inherit)
      }
      guard let fast = ContentDecoding.fastTrees([item], inherit: inherit) else { continue }
      fastCount += 1
      let expected = try checked.get()
      XCTAssertEqual(fast, [expected], "\(WireMirror.text(item))")
    }
    XCTAssertGreaterThan(fastCount, 500, "the fast path takes the common items")
  }

  // MARK: - Helpers

  /// Applies `client`'s pending `list/didChange` notifications to `mirror` until it reaches
  /// `version`, calling `check` after each.
  private func catchUp(
    _ mirror: inout WireMirror, client: TestClient, to version: Int,
    check: (WireMirror, JSONValue) throws -> Void
  ) throws {
    while mirror.version < version {
      guard let params = client.next("list/didChange", timeout: 20) else {
        throw TestFailure("\(client.connection.options.name): no notification after v\(mirror.version)")
      }
      try mirror.apply(didChange: params)
      try check(mirror, params)
    }
  }

}
