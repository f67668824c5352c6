// Time travel against mirrors over seeded random histories: atVersion answers, list/diff, its edits, query/content.
import Foundation
import JSON
import JSONRPC
import ListClient
import SeededRandom
import XCTest

final class TimeTravelPropertyTests: XCTestCase {
  /// A random history of `list/edit` batches (MirrorRun: the model run in-process predicts every
  /// version's rows), then, at every retained version and across thousands of pairs:
  /// - `query/window` with `atVersion` answers that version's rows, and `list/info` its counts;
  /// - `list/subscribe` with `atVersion` answers that version, and the `didChange`s that follow
  ///   bring the mirror to the current version;
  /// - `list/diff {from: a, to: b}` applied to the mirror of `a` gives the mirror of `b`
  ///   (forward and backward);
  /// - its `edits`, sent to a list created from `query/content` at `a`, answer the same changeset
  ///   and leave the content of `b`.
  ///
  /// `LISTD_TIMETRAVEL_SEED=n` replays a run; `LISTD_TIMETRAVEL_PAIRS=n` changes the number of pairs.
  func testAtVersionAndListDiffAgreeWithTheMirrors() throws {
    let environment = ProcessInfo.processInfo.environment
    let seed =
      environment["LISTD_TIMETRAVEL_SEED"].flatMap(UInt64.init) ?? 6311
    let pairs = environment["LISTD_TIMETRAVEL_PAIRS"].flatMap(Int.init) ?? 2_000
    print("TimeTravelPropertyTests: seed \(seed) (LISTD_TIMETRAVEL_SEED=\(seed) replays it), \(pairs) pairs")
    let client = try TestClient.inProcess(name: "owner")
    defer { client.close() }
    try client.initialize(name: "owner")

    var run = MirrorRun(seed: seed, list: "t")
    try client.request(
      "list/create",
      [
        "list": "t", "selectionMode": "multiple", "content": run.initialContent(),
        "columns": MirrorRun.columns,
      ])
    try run.createReference()
    var batch = 0
    while run.version < 400 {
      let (params, expectation) = try run.nextBatch()
      let result = Result<JSONValue, any Error> { try client.request("list/edit", params) }
      try run.check(result, against: expectation, batch: batch, seed: seed)
      batch += 1
    }
    let current = run.version
    var clock = Date()
    func lap(_ what: String) {
      print("TimeTravelPropertyTests: \(what) \(String(format: "%.1f s", Date().timeIntervalSince(clock)))")
      clock = Date()
    }
    func expected(_ version: Int) throws -> WireMirror {
      try XCTUnwrap(run.expected(at: version), "seed \(seed): no expected state at v\(version)")
    }
    var snapshots: [Int: JSONValue] = [:]
    func snapshot(_ version: Int) throws -> JSONValue {
      if let cached = snapshots[version] { return cached }
      let value = try expected(version).snapshot
      snapshots[version] = value
      return value
    }

    // Every version: its rows and counts.
    for version in 0...current {
      // Every 50th answer is checked against the schema too (the validator is slow in debug builds).
      let checked = version % 50 == 0
      func query(_ method: String, _ params: JSONValue) throws -> JSONValue {
        checked ? try client.request(method, params) : try unchecked(client, method, params)
      }
      let window = try query(
        "query/window", ["list": "t", "atVersion": .int(Int64(version)), "offset": 0, "limit": 10_000])
      XCTAssertEqual(window["version"], .int(Int64(version)))
      let rows = (window["rows"]?.arrayValue ?? []).map { row -> JSONValue in
        guard case .object(var object) = row else { return row }
        object["section"] = nil
        object["indexPath"] = nil
        return .object(object)
      }
      let mirror = try expected(version)
      guard rows == mirror.sections.flatMap(\.rows) else {
        return XCTFail("seed \(seed): query/window at v\(version) differs from the mirror")
      }
      let info = try query("list/info", ["list": "t", "atVersion": .int(Int64(version))])
      XCTAssertEqual(info["version"], .int(Int64(version)))
      XCTAssertEqual(info["rows"], .int(Int64(mirror.rowCount)), "seed \(seed): rows at v\(version)")
      XCTAssertEqual(
        info["sections"], .int(Int64(mirror.sections.count)), "seed \(seed): sections at v\(version)")
      XCTAssertEqual(
        info["selected"], .int(Int64(mirror.selection.count)), "seed \(seed): selected at v\(version)")
    }

    lap("versions")
    // Every 25th version: a subscription from it, brought to the current version by what follows.
    for version in stride(from: 0, through: current, by: 25) {
      let answer = try client.request("list/subscribe", ["list": "t", "atVersion": .int(Int64(version))])
      var mirror = try WireMirror(subscribed: try XCTUnwrap(answer["lists"]?.arrayValue?.first))
      XCTAssertNil(
        mirror.firstDifference(from: try expected(version)), "seed \(seed): subscribed at v\(version)")
      try client.request("list/unsubscribe", ["list": "t"])
      while mirror.version < current {
        let params = try XCTUnwrap(
          client.next("list/didChange", timeout: 20),
          "seed \(seed): v\(mirror.version + 1) after subscribing at v\(version)")
        try mirror.apply(didChange: params)
      }
      XCTAssertNil(
        mirror.firstDifference(from: try expected(current)), "seed \(seed): from v\(version) to now")
    }

    lap("subscriptions")
    // Pairs: the changeset takes the mirror of `from` to the mirror of `to`; every 25th pair, the
    // edits make that changeset and that content from a copy of `from`.
    var random = SplitMix64(seed: seed ^ 0x71_4E_7E_A7)
    var scratch = 0
    for pair in 0..<pairs {
      let from = random.int(in: 0...current)
      let to =
        random.chance(0.3) ? min(current, max(0, from + random.int(in: -1...1))) : random.int(in: 0...current)
      let withEdits = pair % 25 == 0
      var params: JSONObject = ["list": "t", "from": .int(Int64(from)), "to": .int(Int64(to))]
      if withEdits { params.append("edits", true) }
      // Every 25th answer is checked against the schema too (the validator is slow in debug builds).
      let answer =
        withEdits
        ? try client.request("list/diff", .object(params))
        : try unchecked(client, "list/diff", .object(params))
      let changeset = try XCTUnwrap(answer["changeset"])
      var mirror = try expected(from)
      do {
        try mirror.apply(changeset: changeset)
      } catch {
        return XCTFail("seed \(seed): list/diff \(from) → \(to) does not fit v\(from): \(error)")
      }
      guard mirror.snapshot == (try snapshot(to)) else {
        return XCTFail("seed \(seed): list/diff \(from) → \(to) applied to v\(from) is not v\(to)")
      }
      if from + 1 == to, let answered = run.answeredChangeset(at: to) {
        XCTAssertEqual(
          changeset, answered, "seed \(seed): list/diff of adjacent versions is the change's own")
      }
      guard withEdits else { continue }
      scratch += 1
      let copy = "copy\(scratch)"
      let base = try create(copy, from: "t", atVersion: from, client)
      let edits = try XCTUnwrap(answer["edits"])
      let made = try client.request(
        "list/edit", ["list": .string(copy), "edits": edits, "ifVersion": .int(Int64(base))])
      XCTAssertEqual(
        made["changeset"], changeset, "seed \(seed): the edits of \(from) → \(to) make another changeset")
      let got = try client.request("query/content", ["list": .string(copy)])
      let want = try client.request("query/content", ["list": "t", "atVersion": .int(Int64(to))])
      XCTAssertEqual(
        got["content"], want["content"], "seed \(seed): the edits of \(from) → \(to) make another content")
      XCTAssertEqual(
        got["selection"], want["selection"], "seed \(seed): the edits of \(from) → \(to) select otherwise")
      for key in ["columns", "emptyState", "editing"] {
        XCTAssertEqual(got[key], want[key], "seed \(seed): the edits of \(from) → \(to) make another \(key)")
      }
      try client.request("list/dispose", ["list": .string(copy)])
    }
    lap("pairs")
    print(
      "TimeTravelPropertyTests: v\(current) after \(batch) batches, \(pairs) pairs (\(scratch) with edits)")
  }

  /// A request answered without the schema check of ``TestClient/request(_:_:timeout:)``.
  func unchecked(_ client: TestClient, _ method: String, _ params: JSONValue) throws -> JSONValue {
    let slot = ResultSlot()
    client.connection.sendRequest(method, params) { slot.set($0) }
    return try slot.wait(timeout: 20, method).get()
  }

  /// Creates `id` with the content, selection mode and selection of `list` at `version`, as a
  /// recording does (the selection, if any, by a `select` that makes version 1); returns the
  /// copy's version.
  @discardableResult
  func create(_ id: String, from list: String, atVersion version: Int, _ client: TestClient) throws -> Int {
    let content = try client.request(
      "query/content", ["list": .string(list), "atVersion": .int(Int64(version))])
    var params: JSONObject = [
      "list": .string(id), "selectionMode": content["selectionMode"] ?? "single",
      "content": content["content"] ?? [:],
    ]
    for key in ["columns", "emptyState", "editing"] {  // the list attributes it has
      if let value = content[key] { params.append(key, value) }
    }
    try client.request("list/create", .object(params))
    guard let selection = content["selection"]?.arrayValue, !selection.isEmpty else { return 0 }
    let selected = try client.request(
      "list/edit", ["list": .string(id), "edits": [["op": "select", "items": .array(selection)]]])
    return Int(selected["version"]?.intValue ?? -1)
  }
}
