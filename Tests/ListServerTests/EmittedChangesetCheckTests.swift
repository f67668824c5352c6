// check/batchUpdate accepts every changeset form listd emits (full, lean, windowed, composed), and still refuses them one count or index off.
import Foundation
import JSON
import JSONRPC
import ListModel
import ListProtocol
import SeededRandom
import XCTest

final class EmittedChangesetCheckTests: XCTestCase {
  /// Seeds of the random histories; `LISTD_CHECK_SEED=n` runs one other.
  private static var seeds: [UInt64] {
    ProcessInfo.processInfo.environment["LISTD_CHECK_SEED"].flatMap(UInt64.init).map { [$0] } ?? [1, 2, 3, 4]
  }
  private static let batches = 150

  /// Over random histories, every changeset listd emits — a mutation's full answer, its lean
  /// answer (`rows: "none"`), a windowed subscriber's notification (counted sections with
  /// `rowsAt`, counted runs, `enter`), and a composed catch-up (full and windowed) — decoded by
  /// check/batchUpdate's own decoder, passes the check with the counts of the versions it joins;
  /// without the after counts, the check computes them exactly (inserted sections' counts come
  /// from `rowCount`, not from the rows a window carries).
  func testEveryEmittedChangesetFormPassesTheBatchUpdateCheck() throws {
    let started = Date()
    var cases: [String: Int] = [:]
    try Self.forEachEmitted { seed, version, form, changeset, before, after in
      let update = try CheckDecoding.update(Params(changeset, path: "update"))
      let checked = checkBatchUpdate(before: before, update, after: after)
      let computed = checkBatchUpdate(before: before, update, after: nil)
      guard checked == .valid(after: after), computed == .valid(after: after) else {
        throw TestFailure(
          "seed \(seed) v\(version) \(form): \(WireMirror.text(changeset)) with \(before) → \(after): "
            + "\(checked), without after \(computed)")
      }
      cases[form, default: 0] += 1
    }
    let total = cases.values.reduce(0, +)
    print(
      "EmittedChangesetCheckTests: \(total) changesets passed \(cases.sorted { $0.key < $1.key }) "
        + String(format: "in %.2f s", Date().timeIntervalSince(started)))
    for form in ["full", "lean", "windowed", "composed", "composedWindowed"] {
      XCTAssertGreaterThan(cases[form] ?? 0, 300, form)
    }
  }

  /// The same changesets with one count or one section index off (a run's count or rows, a
  /// section delete's count, an item entry's section) are refused; and an inserted section's
  /// `rowCount` off by one changes the after counts the check computes (UIKit takes any count for
  /// a new section, so with after counts given it is not a problem).
  func testEmittedChangesetsWithOneCountOrIndexOffAreRefused() throws {
    let started = Date()
    var cases: [String: Int] = [:]
    var random = SplitMix64(seed: 99)
    try Self.forEachEmitted { seed, version, form, changeset, before, after in
      guard let mutation = Self.mutate(changeset, random: &random) else { return }
      let context = "seed \(seed) v\(version) \(form): \(mutation.name) of \(WireMirror.text(changeset))"
      let update: BatchUpdate
      do {
        update = try CheckDecoding.update(Params(mutation.changeset, path: "update"))
      } catch {
        throw TestFailure("\(context): the mutated changeset does not decode: \(error)")
      }
      if mutation.name == "rowCount" {
        guard checkBatchUpdate(before: before, update, after: nil) != .valid(after: after) else {
          throw TestFailure("\(context): the computed after counts ignore rowCount")
        }
      } else {
        guard case .invalid = checkBatchUpdate(before: before, update, after: after) else {
          throw TestFailure("\(context): accepted with \(before) → \(after)")
        }
      }
      cases[mutation.name, default: 0] += 1
    }
    let total = cases.values.reduce(0, +)
    print(
      "EmittedChangesetCheckTests: \(total) mutated changesets refused \(cases.sorted { $0.key < $1.key }) "
        + String(format: "in %.2f s", Date().timeIntervalSince(started)))
    for name in ["runCount", "runSection", "sectionDeleteCount", "moveSection", "rowCount"] {
      XCTAssertGreaterThan(cases[name] ?? 0, 10, name)
    }
  }

  /// The daemon itself accepts the forms the issue found refused: a lean answer's counted
  /// section, and a windowed subscriber's counted section (`rowsAt`) and `enter`.
  func testTheDaemonChecksItsLeanAnswersAndWindowedNotifications() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    let content: JSONValue = ["sections": [["id": "s", "items": [["id": "a"], ["id": "b"], ["id": "c"]]]]]
    try client.request("list/create", ["list": "l", "content": content])
    try client.request("list/subscribe", ["list": "l", "window": ["offset": 1, "limit": 1]])
    let lean = try client.request(
      "list/edit",
      [
        "list": "l", "rows": "none",
        "edits": [
          [
            "op": "insertSections", "before": "s",
            "sections": [["id": "n", "items": [["id": "x"], ["id": "y"]]]],
          ]
        ],
      ])
    let inserted = try XCTUnwrap(client.next("list/didChange"))
    try client.request("list/edit", ["list": "l", "edits": [["op": "deleteSections", "sections": ["n"]]]])
    let deleted = try XCTUnwrap(client.next("list/didChange"))
    XCTAssertEqual(lean["changeset"]?["sectionInserts"]?[0]?["section"], ["id": "n", "rowCount": 2])
    XCTAssertEqual(inserted["changeset"]?["sectionInserts"]?[0]?["section"]?["rowsAt"], 1)
    XCTAssertNotNil(deleted["changeset"]?["enter"], "\(deleted)")
    for (changeset, before, after) in [
      (lean["changeset"], [3], [2, 3]), (inserted["changeset"], [3], [2, 3]),
      (deleted["changeset"], [2, 3], [3]),
    ] {
      let counts = JSONValue.array(after.map { .int(Int64($0)) })
      let update = try XCTUnwrap(changeset)
      XCTAssertEqual(
        try client.request(
          "check/batchUpdate", ["before": .array(before.map { .int(Int64($0)) }), "update": update]),
        ["valid": true, "after": counts], "\(update)")
    }
    // A counted section whose rows pass its count is -32602 naming the field and the values.
    let error = client.error(
      "check/batchUpdate",
      [
        "before": [],
        "update": [
          "sectionInserts": [
            [
              "index": 0,
              "section": ["id": "n", "rowCount": 1, "rowsAt": 1, "rows": [["id": "x", "level": 0]]],
            ]
          ]
        ],
      ])
    XCTAssertEqual(error.code, .invalidParams)
    XCTAssertEqual(error.data?["field"], "update.sectionInserts[0].section.rows")
    XCTAssertTrue(error.message.contains("1 rows from row 1, beyond the section's rowCount 1"), error.message)
    client.close()
  }

  // MARK: - Histories

  /// Calls `body` with every form of every changeset of `batches` random batches per seed, each
  /// as a client reads it (written and parsed again), with the visible row counts per section of
  /// the versions it joins.
  private static func forEachEmitted(
    _ body: (
      _ seed: UInt64, _ version: Int, _ form: String, _ changeset: JSONValue, _ before: [Int], _ after: [Int]
    )
      throws -> Void
  ) throws {
    for seed in seeds {
      var run = MirrorRun(seed: seed, list: "c")
      run.styledSections = true
      run.recordsStates = false
      _ = run.initialContent()
      try run.createReference()
      var recent: [ListSnapshot] = [run.model]  // the last versions, oldest first
      for _ in 0..<batches {
        let previous = run.model
        let version = run.version
        _ = try run.nextBatch()
        guard run.version > version, let changeset = run.lastChangeset else { continue }
        let new = run.model
        let (before, after) = (counts(previous), counts(new))
        func emit(_ form: String, _ value: JSONValue, _ before: [Int]) throws {
          try body(seed, run.version, form, try JSONValue(parsing: value.jsonBytes()), before, after)
        }
        try emit("full", ChangesetEncoding.changeset(changeset), before)
        try emit("lean", ChangesetEncoding.changeset(changeset, rows: .none), before)
        for _ in 0..<2 {
          let window = randomWindow(&run.random, rows: max(before.reduce(0, +), after.reduce(0, +)))
          try emit(
            "windowed",
            ChangesetEncoding.changeset(changeset, rows: .window(window, old: previous, new: new)),
            before)
        }
        // A catch-up composed from a few versions back (a subscriber behind, or joining late).
        let base = recent[run.random.int(in: 0...(recent.count - 1))]
        let composed = ListSnapshot.diff(from: base, to: new)
        try emit("composed", ChangesetEncoding.changeset(composed), counts(base))
        let window = randomWindow(&run.random, rows: after.reduce(0, +))
        try emit(
          "composedWindowed",
          ChangesetEncoding.changeset(composed, rows: .window(window, old: base, new: new)),
          counts(base))
        recent.append(new)
        if recent.count > 8 { recent.removeFirst() }
        run.forget(before: run.version)
      }
    }
  }

  /// Visible rows per section.
  private static func counts(_ snapshot: ListSnapshot) -> [Int] {
    snapshot.sectionIdentifiers.map { snapshot.numberOfItems(inSection: $0) ?? 0 }
  }

  private static func randomWindow(_ random: inout SplitMix64, rows: Int) -> RowWindow {
    RowWindow(offset: random.int(in: 0...(rows + 2)), limit: random.element([0, 1, 3, 8, 25])!)
  }

  // MARK: - Mutations

  /// One count or section index of `changeset` off by one, chosen among the changes UIKit's rules
  /// must refuse whatever the rest of the changeset: a run's count in a section present before
  /// and after, a run's section (its own loses rows), a section delete's count, an item move's
  /// destination section; or an inserted section's `rowCount`. Nil if none applies.
  private static func mutate(_ changeset: JSONValue, random: inout SplitMix64) -> (
    name: String, changeset: JSONValue
  )? {
    guard case .object(let object) = changeset else { return nil }
    func ints(_ value: JSONValue) -> [Int] { value.arrayValue!.map { Int($0.intValue!) } }
    func array(_ values: [Int]) -> JSONValue { .array(values.map { .int(Int64($0)) }) }
    var deletedOld = Set<Int>()
    for range in object["sectionDeletes"]?.arrayValue ?? [] {
      let n = ints(range)
      deletedOld.formUnion(n[0]..<(n[0] + n[1]))
    }
    let insertedNew = Set((object["sectionInserts"]?.arrayValue ?? []).map { Int($0["index"]!.intValue!) })
    // (name, member, entry index, new entry)
    var candidates: [(String, String, Int, JSONValue)] = []
    func off(_ value: Int, minimum: Int) -> Int {
      value > minimum && random.chance(0.5) ? value - 1 : value + 1
    }
    for (index, range) in (object["sectionDeletes"]?.arrayValue ?? []).enumerated() {
      let n = ints(range)
      let count = off(n[1], minimum: 1)
      // One more index already deleted by another range would change nothing (an index set).
      guard count < n[1] || !deletedOld.contains(n[0] + n[1]) else { continue }
      candidates.append(("sectionDeleteCount", "sectionDeletes", index, array([n[0], count])))
    }
    for (index, delete) in (object["itemDeletes"]?.arrayValue ?? []).enumerated() {
      let n = ints(delete)
      guard !deletedOld.contains(n[0]) else { continue }  // rows of a deleted section count for nothing
      candidates.append(("runCount", "itemDeletes", index, array([n[0], n[1], off(n[2], minimum: 1)])))
      candidates.append(("runSection", "itemDeletes", index, array([off(n[0], minimum: 0), n[1], n[2]])))
    }
    for (index, run) in (object["itemInserts"]?.arrayValue ?? []).enumerated() {
      guard case .object(var piece) = run, let at = piece["at"].map(ints), !insertedNew.contains(at[0])
      else { continue }  // an inserted section's rows are its own
      var recounted = piece
      if let rows = piece["rows"]?.arrayValue {
        recounted["rows"] = .array(
          rows.count > 1 && random.chance(0.5) ? Array(rows.dropLast()) : rows + [rows[0]])
      } else {
        recounted["count"] = .int(Int64(off(Int(piece["count"]!.intValue!), minimum: 1)))
      }
      candidates.append(("runCount", "itemInserts", index, .object(recounted)))
      piece["at"] = array([off(at[0], minimum: 0), at[1]])
      candidates.append(("runSection", "itemInserts", index, .object(piece)))
    }
    for (index, move) in (object["itemMoves"]?.arrayValue ?? []).enumerated() {
      var n = ints(move)
      n[2] = off(n[2], minimum: 0)
      candidates.append(("moveSection", "itemMoves", index, array(n)))
    }
    for (index, insert) in (object["sectionInserts"]?.arrayValue ?? []).enumerated() {
      guard case .object(var section) = insert["section"], let count = section["rowCount"]?.intValue else {
        continue
      }
      let carried = (section["rows"]?.arrayValue?.count ?? 0) + Int(section["rowsAt"]?.intValue ?? 0)
      section["rowCount"] = .int(Int64(off(Int(count), minimum: carried)))
      candidates.append(("rowCount", "sectionInserts", index, insert.setting("section", .object(section))))
    }
    guard let (name, key, index, entry) = random.element(candidates) else { return nil }
    var copy = object
    var entries = copy[key]!.arrayValue!
    entries[index] = entry
    copy[key] = .array(entries)
    return (name, .object(copy))
  }
}
