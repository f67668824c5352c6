// listctl record → listctl replay round trips over seeded random histories, and what a replay reports.
import Foundation
import JSON
import JSONRPC
import ListClient
import XCTest

final class RecordReplayTests: XCTestCase {
  private var daemon: ListctlDaemon!
  private var directory: String { daemon.directory }

  override func setUpWithError() throws { daemon = try ListctlDaemon() }
  override func tearDown() { daemon.stop() }

  private func client() async throws -> ListClient {
    let client = try ListClient.socket(path: daemon.socket, requestTimeout: .seconds(20))
    try await client.initialize(name: "RecordReplayTests")
    return client
  }

  /// Runs listctl against the daemon; fails the test unless it exits with `status`.
  @discardableResult
  private func listctl(
    _ arguments: [String], status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line
  ) throws -> Run {
    let run = try runListctl(["--socket", daemon.socket] + arguments)
    XCTAssertEqual(run.status, status, "listctl \(arguments): \(run.stderr)", file: file, line: line)
    return run
  }

  /// Random histories (every kind of change: edit batches of every op, replace, expand and
  /// collapse, select; in the three selection modes) are recorded, and each recording's expected
  /// changesets are the answers the list gave. Replayed into a new list it makes the same
  /// content at every version and the same changesets; a recording from a middle version
  /// replays too; and a recording replays into a fresh daemon (`--spawn`).
  ///
  /// `LISTD_RECORD_SEED=n` replays a run.
  func testRecordedHistoriesReplayExactly() async throws {
    let environment = ProcessInfo.processInfo.environment
    let seed = environment["LISTD_RECORD_SEED"].flatMap(UInt64.init) ?? 8311
    print("RecordReplayTests: seed \(seed) (LISTD_RECORD_SEED=\(seed) replays it)")
    let client = try await client()
    defer { client.close() }
    var history = RandomHistory(seed: seed)
    var versions = 0
    for run in 0..<15 {
      let list = "h\(run)"
      let mode = ["multiple", "single", "none"][run % 3]
      _ = try await client.create(
        list, title: "History \(run)", selectionMode: mode, content: history.initialContent())
      let answers = try await history.run(client, list: list, steps: 60)
      let current = Int(try await client.info(list)["version"]?.intValue ?? 0)
      versions += current
      let context = "seed \(seed), \(list)"

      let file = directory + "/\(list).jsonl"
      let recording = try listctl(["record", list]).stdout
      try recording.write(toFile: file, atomically: true, encoding: .utf8)
      let expected = try Self.expectedChangesets(recording)
      XCTAssertEqual(expected.count, current, "\(context): one change per version")
      for (version, changeset) in answers {
        XCTAssertEqual(
          expected[version], changeset, "\(context): the recording of v\(version) is not its answer")
      }

      let copy = "\(list)-copy"
      let replayed = try listctl(["replay", file, "--into", copy])
      XCTAssertEqual(
        replayed.stdout,
        "replayed \(file) into '\(copy)': \(current) version\(current == 1 ? "" : "s") after its creation, every answer as recorded\n"
      )
      try await assertSameVersions(client, list, copy, versions: 0...current, offset: 0, context)

      switch run % 3 {
      case 0:
        let fresh = try runListctl(["--spawn", "--", "replay", file])
        XCTAssertEqual(fresh.status, 0, "\(context): into a fresh daemon: \(fresh.stderr)")
      case 1 where current > 2:
        // From a middle version: the content then (and a select step when something was selected).
        let middle = current / 2
        let partial = directory + "/\(list)-middle.jsonl"
        try listctl(["record", list, "--from", String(middle)]).stdout.write(
          toFile: partial, atomically: true, encoding: .utf8)
        let middleCopy = "\(list)-middle"
        try listctl(["replay", partial, "--into", middleCopy])
        let selected = !(try await client.content(list, atVersion: middle)).selection.isEmpty
        try await assertSameVersions(
          client, list, middleCopy, versions: middle...current, offset: middle - (selected ? 1 : 0), context)
      default:
        break
      }
    }
    print("RecordReplayTests: \(versions) versions recorded and replayed")
    XCTAssertGreaterThan(versions, 300, "the histories change the lists")
  }

  /// `copy` at version `v − offset` has the content and selection of `list` at `v`, and was made
  /// by the same changeset, for every `v` of `versions` (changesets after the first).
  private func assertSameVersions(
    _ client: ListClient, _ list: String, _ copy: String, versions: ClosedRange<Int>, offset: Int,
    _ context: String
  ) async throws {
    let originalChanges = try await client.changes(list, since: versions.lowerBound)
    let copyChanges = try await client.changes(copy, since: versions.lowerBound - offset)
    XCTAssertEqual(
      originalChanges.map { $0["changeset"] }, copyChanges.map { $0["changeset"] },
      "\(context): changesets of \(copy)")
    for version in versions {
      let original = try await client.content(list, atVersion: version)
      let replayed = try await client.content(copy, atVersion: version - offset)
      XCTAssertEqual(replayed.content, original.content, "\(context): content of \(copy) at v\(version)")
      XCTAssertEqual(
        replayed.selection, original.selection, "\(context): selection of \(copy) at v\(version)")
    }
  }

  /// The changeset each `list/edit` of a recording expects, by the version it expects.
  static func expectedChangesets(_ recording: String) throws -> [Int: JSONValue] {
    var result: [Int: JSONValue] = [:]
    var editIDs = Set<JSONValue>()
    for line in recording.split(separator: "\n") {
      let value = try JSONValue(parsing: String(line))
      if let send = value["send"], send["method"] == "list/edit", let id = send["id"] { editIDs.insert(id) }
      if let expect = value["expect"], let id = expect["id"], editIDs.contains(id),
        let version = expect["result"]?["version"]?.intValue
      {
        result[Int(version)] = expect["result"]?["changeset"]
      }
    }
    return result
  }

  /// A replay stops at the first answer that differs: it names the file and line, what differs,
  /// the expected and the actual message (exit 1); the list it made is left as it was then.
  /// A list that exists already is named with the way out; a file that is not a recording, or
  /// not there, is a usage error.
  func testAReplayReportsTheFirstMismatch() async throws {
    let client = try await client()
    defer { client.close() }
    _ = try await client.create(
      "l", content: ["sections": [["id": "s", "items": [["id": "a", "text": "A"]]]]])
    _ = try await client.edit("l", [["op": "appendItems", "items": [["id": "b", "text": "B"]]]])
    _ = try await client.edit("l", [["op": "patchItems", "items": [["id": "a", "text": "A2"]]]])
    let recording = try listctl(["record", "l"]).stdout
    var lines = recording.split(separator: "\n").map(String.init)
    let target = try XCTUnwrap(lines.lastIndex { $0.contains("\"A2\"") && $0.contains("\"expect\"") })
    lines[target] = lines[target].replacingOccurrences(of: "\"A2\"", with: "\"A3\"")
    let file = directory + "/tampered.jsonl"
    try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)

    let run = try listctl(["replay", file, "--into", "m"], status: 1)
    XCTAssertEqual(run.stdout, "")
    let stderr = run.stderr.split(separator: "\n").map(String.init)
    XCTAssertEqual(stderr.count, 3, run.stderr)
    XCTAssertEqual(
      stderr.first,
      "listctl: \(file):\(target + 1): $.result.changeset.itemReconfigures[0].rows[0].text is \"A2\", expected \"A3\""
    )
    XCTAssertTrue(stderr[1].hasPrefix("  expected: {"), run.stderr)
    XCTAssertTrue(stderr[1].contains("\"A3\""), run.stderr)
    XCTAssertTrue(stderr[2].hasPrefix("  actual:   {"), run.stderr)
    XCTAssertTrue(stderr[2].contains("\"A2\""), run.stderr)
    let stopped = try await client.info("m")["version"]
    XCTAssertEqual(stopped, 2, "the replay stopped at the mismatch")

    let exists = try listctl(
      ["replay", directory + "/../" + (file as NSString).lastPathComponent], status: 2)
    XCTAssertTrue(exists.stderr.contains("cannot read"), exists.stderr)
    try recording.write(toFile: directory + "/good.jsonl", atomically: true, encoding: .utf8)
    let taken = try listctl(["replay", directory + "/good.jsonl"], status: 1)
    XCTAssertEqual(
      taken.stderr, "listctl: list 'l' exists on this daemon: replay under another id with --into LIST\n")
    try "{\"comment\": \"nothing\"}\n".write(
      toFile: directory + "/empty.jsonl", atomically: true, encoding: .utf8)
    let empty = try listctl(["replay", directory + "/empty.jsonl"], status: 2)
    XCTAssertTrue(empty.stderr.contains("creates no list: not a recording"), empty.stderr)
  }
}
