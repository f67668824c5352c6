// --state end to end: every kind of change survives restarts and checkpoints; damage is reported and the rest served.
import Foundation
import JSON
import JSONRPC
import XCTest

final class DurabilityTests: XCTestCase {
  private var directory: PrivateDirectory!
  private var state: String { directory.file("state") }

  override func setUpWithError() throws { directory = try PrivateDirectory() }
  override func tearDown() { directory.remove() }

  /// A daemon on the state directory, with a client that initialized on its stdio.
  private func start(_ arguments: [String] = []) throws -> (DaemonProcess, TestClient) {
    let daemon = try DaemonProcess(["--state", state] + arguments)
    let client = try TestClient(daemon, name: "owner")
    try client.initialize()
    return (daemon, client)
  }

  /// Ends the session and waits up to `timeout` seconds for the daemon to exit cleanly.
  private func stop(_ daemon: DaemonProcess, _ client: TestClient, timeout: TimeInterval = 10) {
    client.close()
    daemon.closeInput()
    XCTAssertEqual(daemon.waitForExit(timeout: timeout), 0, daemon.standardError())
  }

  /// All a client can see of a list: its info (but its owner and subscribers), every row with
  /// its payload, the selection, and the whole outline with hidden children.
  private func fingerprint(_ client: TestClient, _ list: String) throws -> JSONValue {
    var info = try client.request("list/info", ["list": .string(list)])
    info = info.setting("owner", .null).setting("subscribers", 0)
    let subscribed = try client.request("list/subscribe", ["list": .string(list)])
    try client.request("list/unsubscribe", ["list": .string(list)])
    let outline = try client.request("query/outline", ["list": .string(list)])
    return ["info": info, "snapshot": subscribed["lists"]?[0]?["snapshot"] ?? .null, "outline": outline]
  }

  private static let outline: JSONValue = [
    "sections": [
      [
        "id": "files", "header": "Files",
        "items": [
          [
            "id": "docs", "text": "Documents", "data": ["size": 3],
            "children": [
              ["id": "a", "text": "a.txt", "accessories": [["type": "badge", "text": "new"]]],
              ["id": "b", "text": "b.txt", "children": [["id": "b1", "text": "deep"]]],
            ],
          ],
          ["id": "pics", "text": "Pictures", "trailingSwipeActions": [["id": "del", "title": "Delete"]]],
        ],
      ],
      [
        "id": "more", "footer": "end",
        "items": [["id": "m1", "text": "M1"], ["id": "m2", "selectable": false]],
      ],
    ]
  ]

  func testEveryKindOfChangeSurvivesRestartsAndCheckpoints() throws {
    var (daemon, client) = try start(["--checkpoint-bytes", "600"])
    try client.request(
      "list/create", ["list": "a", "title": "Files", "selectionMode": "multiple", "content": Self.outline])
    try client.request(
      "list/edit",
      [
        "list": "a",
        "edits": [
          ["op": "patchItems", "items": [["id": "a", "data": ["starred": true]]]],
          ["op": "appendChildren", "parent": "pics", "items": [["id": "p1", "text": "beach"]]],
          ["op": "moveItem", "item": "m1", "before": "pics"],
        ],
      ])
    try client.request("outline/expand", ["list": "a", "item": "docs"])
    try client.request("outline/expandToLevel", ["list": "a", "level": 2])
    try client.request("outline/collapse", ["list": "a", "item": "pics", "recursive": true])
    try client.request("selection/selectAll", ["list": "a"])
    try client.request("selection/deselect", ["list": "a", "items": ["docs"]])
    try client.request("event/deselect", ["list": "a", "item": "a"])
    try client.request(
      "list/create", ["list": "b", "content": ["sections": [["id": "s", "items": [["id": "x"]]]]]])
    try client.request("list/dispose", ["list": "b"])
    try client.request("list/create", ["list": "b", "selectionMode": "none", "content": Self.outline])
    try client.request(
      "list/replace",
      ["list": "b", "content": ["sections": [["id": "t", "items": [["id": "y", "text": "Y"]]]]]])
    let before = try ["a", "b"].map { try fingerprint(client, $0) }
    let all = try client.request("list/all")
    stop(daemon, client)
    let checkpoints = try FileManager.default.contentsOfDirectory(atPath: state).filter {
      $0.hasSuffix(".checkpoint")
    }
    XCTAssertFalse(checkpoints.isEmpty, "small --checkpoint-bytes made checkpoints")

    for round in 0..<2 {
      (daemon, client) = try start(["--checkpoint-bytes", "600"])
      XCTAssertEqual(try ["a", "b"].map { try fingerprint(client, $0) }, before, "round \(round)")
      XCTAssertEqual(
        try client.request("list/all")["lists"]?.arrayValue?.map { $0.setting("owner", .null) },
        all["lists"]?.arrayValue?.map { $0.setting("owner", .null) })
      XCTAssertEqual(
        try client.request("list/info", ["list": "a"])["owner"], .null, "lists come back ownerless")
      XCTAssertNil(client.next("window/logMessage", timeout: 0.1), "nothing to report")
      stop(daemon, client)
    }
    // The recovered lists go on: a change after a restart survives the next one.
    (daemon, client) = try start()
    try client.request("list/claim", ["list": "a"])
    let edited = try client.request(
      "list/edit", ["list": "a", "edits": [["op": "deleteItems", "items": ["b1"]]]])
    let after = try fingerprint(client, "a")
    stop(daemon, client)
    (daemon, client) = try start()
    XCTAssertEqual(try fingerprint(client, "a"), after)
    XCTAssertEqual(after["info"]?["version"], edited["version"])
    stop(daemon, client)
  }

  /// The newest journal file.
  private func newestJournal() throws -> String {
    let names = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasSuffix(".journal") }
    return state + "/" + (names.sorted().last ?? "")
  }

  /// Creates list `l` and makes `count` changes (versions 1…count); returns the fingerprint at each version.
  private func history(_ count: Int, arguments: [String] = []) throws -> [JSONValue] {
    let (daemon, client) = try start(arguments)
    try client.request("list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    var prints = [try fingerprint(client, "l")]
    for index in 1...count {
      try client.request(
        "list/edit",
        [
          "list": "l",
          "edits": [["op": "appendItems", "items": [["id": .string("i\(index)"), "text": "Item"]]]],
        ])
      prints.append(try fingerprint(client, "l"))
    }
    stop(daemon, client)
    return prints
  }

  /// Restarts, expects `problem` reported on stderr and to the first session, and the list at `version`.
  private func expectRecovery(
    reporting problem: String, at version: Int, prints: [JSONValue], file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    let (daemon, client) = try start()
    let message = client.next("window/logMessage")
    XCTAssertTrue(
      message?["message"]?.stringValue?.contains(problem) == true, "\(String(describing: message))",
      file: file, line: line)
    XCTAssertEqual(message?["type"], 1, file: file, line: line)
    XCTAssertEqual(try fingerprint(client, "l"), prints[version], file: file, line: line)
    // It serves, and the next change follows the recovered version.
    let next = try client.request(
      "list/edit", ["list": "l", "edits": [["op": "appendItems", "items": [["id": "later"]]]]])
    XCTAssertEqual(next["version"], .int(Int64(version + 1)), file: file, line: line)
    stop(daemon, client)
    XCTAssertTrue(daemon.standardError().contains(problem), file: file, line: line)
    // Reported once: the damage is gone from the directory.
    let (again, check) = try start()
    XCTAssertNil(check.next("window/logMessage", timeout: 0.2), file: file, line: line)
    XCTAssertEqual(
      try check.request("list/info", ["list": "l"])["version"], .int(Int64(version + 1)), file: file,
      line: line)
    stop(again, check)
  }

  func testATornTailIsReportedAndCut() throws {
    let prints = try history(6)
    let journal = try newestJournal()
    let size = try XCTUnwrap(fileStatus(journal)).st_size
    XCTAssertEqual(truncate(journal, size - 5), 0)  // the last record loses its end
    try expectRecovery(reporting: "torn record", at: 5, prints: prints)
  }

  func testAFlippedBitInTheMiddleIsReportedAndWhatPrecedesItServed() throws {
    let prints = try history(10)
    let journal = try newestJournal()
    var bytes = try XCTUnwrap(FileManager.default.contents(atPath: journal))
    // The records are of similar size: the middle of the file is in the change to about v5.
    let middle = bytes.count / 2
    bytes[middle] ^= 0x10
    try bytes.write(to: URL(fileURLWithPath: journal))
    let (daemon, client) = try start()
    let message = try XCTUnwrap(client.next("window/logMessage")?["message"]?.stringValue)
    XCTAssertTrue(message.contains("corrupt record"), message)
    let version = try XCTUnwrap(client.request("list/info", ["list": "l"])["version"]?.intValue)
    XCTAssertTrue((3...6).contains(version), "recovered up to the damage: v\(version)")
    XCTAssertEqual(try fingerprint(client, "l"), prints[Int(version)])
    stop(daemon, client)
  }

  /// A damaged record costs its own list's later versions only: the other lists' records after
  /// it are recovered, and the damaged journal is kept aside.
  func testACorruptRecordOfOneListSparesTheOthers() throws {
    var (daemon, client) = try start()
    for list in ["a", "b"] {
      try client.request("list/create", ["list": .string(list), "content": ["sections": [["id": "s"]]]])
    }
    for index in 1...6 {
      for list in ["a", "b"] {
        try client.request(
          "list/edit",
          [
            "list": .string(list),
            "edits": [["op": "appendItems", "items": [["id": .string("\(list)\(index)")]]]],
          ])
      }
    }
    let a = try fingerprint(client, "a")
    stop(daemon, client)
    // Flip a byte inside b's change to version 3 (its item id "b3").
    let journal = try newestJournal()
    var bytes = try XCTUnwrap(FileManager.default.contents(atPath: journal))
    let marker = Array(#""b3""#.utf8)
    let at = try XCTUnwrap(
      (0..<bytes.count - marker.count).first { bytes[$0..<$0 + marker.count].elementsEqual(marker) })
    bytes[at + 1] = UInt8(ascii: "x")
    try bytes.write(to: URL(fileURLWithPath: journal))
    daemon = try DaemonProcess(["--state", state])
    client = try TestClient(daemon, name: "owner")
    let state = try client.initialize()["capabilities"]?["state"]
    XCTAssertEqual(state?["sync"], "batch")
    XCTAssertTrue(
      state?["recoveryProblems"]?[0]?.stringValue?.contains("corrupt record") == true,
      "every session can read what recovery found: \(String(describing: state))")
    let message = try XCTUnwrap(client.next("window/logMessage")?["message"]?.stringValue)
    XCTAssertTrue(message.contains("corrupt record"), message)
    XCTAssertEqual(try fingerprint(client, "a"), a, "list a lost nothing")
    XCTAssertEqual(
      try client.request("list/info", ["list": "b"])["version"], 2, "list b stays before its damaged change")
    stop(daemon, client)
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: journal + ".damaged"), "the damaged journal is kept aside")
    (daemon, client) = try start()
    XCTAssertNil(client.next("window/logMessage", timeout: 0.2), "reported once")
    XCTAssertEqual(try fingerprint(client, "a"), a)
    stop(daemon, client)
  }

  func testAMissingCheckpointIsReportedAndRecoveryUsesTheOneBefore() throws {
    let prints = try history(40, arguments: ["--checkpoint-bytes", "400"])
    let checkpoints = try FileManager.default.contentsOfDirectory(atPath: state).filter {
      $0.hasSuffix(".checkpoint")
    }
    .sorted()
    XCTAssertGreaterThan(checkpoints.count, 2, "small --checkpoint-bytes made checkpoints: \(checkpoints)")
    XCTAssertEqual(unlink(state + "/" + checkpoints.last!), 0)
    let (daemon, client) = try start()
    let message = try XCTUnwrap(client.next("window/logMessage")?["message"]?.stringValue)
    XCTAssertTrue(message.contains("is missing"), message)
    XCTAssertEqual(try fingerprint(client, "l"), prints[40], "the journals before it still hold every change")
    stop(daemon, client)
  }

  func testASecondDaemonOnTheSameDirectoryIsRefused() throws {
    let (daemon, client) = try start()
    let second = try DaemonProcess(["--state", state])
    XCTAssertEqual(second.waitForExit(), 1)
    let error = second.standardError()
    XCTAssertTrue(error.contains("is in use by another listd (pid \(daemon.pid))"), error)
    XCTAssertEqual(fileStatus(state).map { $0.st_mode & 0o777 }, 0o700, "the directory is private")
    stop(daemon, client)
  }

  func testTheDemoStartsAfreshAndOtherListsAreKept() throws {
    var (daemon, client) = try start(["--demo"])
    try client.request(
      "selection/select", ["list": "contacts", "items": [.string(try firstItem(client, "contacts"))]])
    try client.request("list/create", ["list": "mine", "content": ["sections": [["id": "s"]]]])
    stop(daemon, client)
    (daemon, client) = try start(["--demo"])
    XCTAssertEqual(
      try client.request("list/info", ["list": "contacts"])["version"], 0, "the demo starts afresh")
    XCTAssertEqual(try client.request("list/info", ["list": "mine"])["version"], 0, "other lists are kept")
    stop(daemon, client)
  }

  private func firstItem(_ client: TestClient, _ list: String) throws -> String {
    let answer = try client.request("query/itemAt", ["list": .string(list), "indexPath": [0, 0]])
    return try XCTUnwrap(answer["id"]?.stringValue ?? answer["item"]?["id"]?.stringValue, "\(answer)")
  }

  /// `list/changesSince` reaches past `--history` through the journal, across checkpoints and
  /// restarts, with the changesets the changes were answered with.
  func testChangesSinceReachesBackThroughTheJournal() throws {
    let arguments = ["--history", "5", "--checkpoint-bytes", "700"]
    var (daemon, client) = try start(arguments)
    try client.request("list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    var answered: [JSONValue] = []
    for index in 1...30 {
      let edit: JSONValue =
        index.isMultiple(of: 3)
        ? ["op": "moveItem", "item": "i1", "after": .string("i\(index - 1)")]
        : ["op": "appendItems", "items": [["id": .string("i\(index)"), "text": .string("Item \(index)")]]]
      answered.append(try client.request("list/edit", ["list": "l", "edits": [edit]])["changeset"] ?? .null)
    }
    for round in 0..<2 {
      let changes = try client.request("list/changesSince", ["list": "l", "version": 0])
      XCTAssertEqual(
        changes["changes"]?.arrayValue?.map { $0["changeset"] ?? .null }, answered, "round \(round)")
      XCTAssertEqual(
        changes["changes"]?.arrayValue?.map { $0["version"] ?? .null }, (1...30).map { .int(Int64($0)) })
      let explained = try client.request("list/changesSince", ["list": "l", "version": 2, "explain": true])
      XCTAssertEqual(explained["changes"]?.arrayValue?.count, 28)
      XCTAssertNotNil(explained["changes"]?[0]?["explain"]?["causes"], "\(explained)")
      stop(daemon, client)
      (daemon, client) = try start(arguments)
    }
    stop(daemon, client)
    // Without --state the history is what memory keeps.
    let memory = try DaemonProcess(["--history", "5"])
    let plain = try TestClient(memory)
    try plain.initialize()
    try plain.request("list/create", ["list": "m", "content": ["sections": [["id": "s"]]]])
    for index in 1...8 {
      try plain.request(
        "list/edit",
        ["list": "m", "edits": [["op": "appendItems", "items": [["id": .string("i\(index)")]]]]])
    }
    XCTAssertEqual(plain.error("list/changesSince", ["list": "m", "version": 0]).code, -32015)
    plain.close()
    memory.closeInput()
    XCTAssertEqual(memory.waitForExit(), 0)
  }

  /// `atVersion` and `list/diff` reach every version the journal retains, past `--history`,
  /// across checkpoints and restarts (the journal is each list's VersionSource).
  func testTimeTravelReachesBackThroughTheJournal() throws {
    let arguments = ["--history", "3", "--explain-history", "3", "--checkpoint-bytes", "900"]
    var (daemon, client) = try start(arguments)
    try client.request("list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    var contents = [try client.request("query/content", ["list": "l"])]
    for index in 1...25 {
      let edit: JSONValue =
        index.isMultiple(of: 4)
        ? ["op": "reloadItems", "items": ["i1"]]
        : ["op": "appendItems", "items": [["id": .string("i\(index)"), "text": .string("Item \(index)")]]]
      try client.request("list/edit", ["list": "l", "edits": [edit]])
      contents.append(try client.request("query/content", ["list": "l"]))
    }
    let reload = try client.request("list/diff", ["list": "l", "from": 3, "to": 4])["changeset"]
    for round in 0..<2 {
      for version in [0, 1, 7, 12, 20, 25] {
        XCTAssertEqual(
          try client.request("query/content", ["list": "l", "atVersion": .int(Int64(version))]),
          contents[version],
          "round \(round), v\(version)")
      }
      XCTAssertEqual(
        try client.request("list/diff", ["list": "l", "from": 3, "to": 4])["changeset"], reload,
        "a reload-only change keeps its reload (round \(round))")
      stop(daemon, client)
      (daemon, client) = try start(arguments)
    }
    stop(daemon, client)
  }

  /// Retention deletes old generations; the oldest version it keeps (as `-32015` names it)
  /// answers, and stays the same across a restart.
  func testTheOldestRetainedVersionIsTheSameAfterARestart() throws {
    let arguments = [
      "--retain-versions", "5", "--checkpoint-bytes", "1", "--history", "3", "--explain-history", "3",
    ]
    var (daemon, client) = try start(arguments)
    try client.request("list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    for index in 1...60 {
      try client.request(
        "list/edit",
        ["list": "l", "edits": [["op": "appendItems", "items": [["id": .string("i\(index)")]]]]])
    }
    func oldest() throws -> Int64 {
      let error = client.error("list/changesSince", ["list": "l", "version": 0])
      XCTAssertEqual(error.code, -32015, error.message)
      let oldest = try XCTUnwrap(error.data?["oldestVersion"]?.intValue)
      XCTAssertNoThrow(try client.request("list/changesSince", ["list": "l", "version": .int(oldest)]))
      XCTAssertNoThrow(try client.request("query/content", ["list": "l", "atVersion": .int(oldest)]))
      return oldest
    }
    // Checkpoints (and the deletions after them) run in the background while edits come in;
    // a clean stop waits for the one in flight, and a restart that appends nothing writes none.
    stop(daemon, client)
    (daemon, client) = try start(arguments)
    let before = try oldest()
    XCTAssertGreaterThan(before, 0, "retention deleted old generations")
    stop(daemon, client)
    (daemon, client) = try start(arguments)
    XCTAssertEqual(try oldest(), before)
    stop(daemon, client)
  }

  /// A clean stop waits for the checkpoint in flight: no `.tmp` is left, and the next start
  /// has no interrupted checkpoint to redo.
  func testACleanStopCompletesTheCheckpointInFlight() throws {
    var (daemon, client) = try start(["--checkpoint-bytes", "1"])
    let items = JSONValue.array((0..<100_000).map { ["id": .string("i\($0)"), "text": "some text"] })
    // The create's record is over the checkpoint size: a checkpoint of 100,000 items starts in
    // the background as the create is answered, and is still being written at the stop.
    // A debug daemon on a busy machine may take longer than the usual 20 s over 100,000 items.
    try client.request(
      "list/create", ["list": "l", "rows": "none", "content": ["sections": [["id": "s", "items": items]]]],
      timeout: 120)
    // The stop finishes that checkpoint first: as long as the create may take.
    stop(daemon, client, timeout: 120)
    let names = try FileManager.default.contentsOfDirectory(atPath: state)
    XCTAssertEqual(names.filter { $0.hasSuffix(".tmp") }, [], "\(names)")
    (daemon, client) = try start(["--checkpoint-bytes", "1"])
    XCTAssertEqual(try client.request("list/info", ["list": "l"])["items"], 100_000)
    stop(daemon, client)
    XCTAssertFalse(daemon.standardError().contains("was being written"), daemon.standardError())
  }

  func testStateOptionsAreChecked() throws {
    for (arguments, message) in [
      (["--sync", "always"], "--sync needs --state DIR"),
      (["--state", state, "--sync", "sometimes"], "--sync must be always, batch or none, got 'sometimes'"),
      (["--state", "/proc/nope"], "cannot create the state directory /proc/nope"),
    ] {
      let daemon = try DaemonProcess(arguments)
      let status = daemon.waitForExit()
      XCTAssertNotEqual(status, 0, "\(arguments)")
      XCTAssertTrue(daemon.standardError().contains(message), "\(arguments): \(daemon.standardError())")
    }
  }

  func testAFullDiskFailsTheChangeNamingTheCauseAndTheDaemonRecovers() throws {
    var (daemon, client) = try start(["--sync", "always"])
    try client.request(
      "list/create", ["list": "l", "content": ["sections": [["id": "s", "items": [["id": "x"]]]]]])
    let journal = try newestJournal()
    let size = UInt64(try XCTUnwrap(fileStatus(journal)).st_size)
    // The file-size limit of the running daemon stands in for a full disk (util-linux prlimit).
    try setFileSizeLimit(of: daemon, to: "\(size + 64)")
    let big: JSONValue = [
      "list": "l",
      "edits": [
        ["op": "appendItems", "items": [["id": "big", "text": .string(String(repeating: "z", count: 500))]]]
      ],
    ]
    let error = client.error("list/edit", big)
    XCTAssertEqual(error.code, -32020)
    XCTAssertTrue(error.message.contains("File too large"), error.message)
    XCTAssertEqual(error.data?["list"], "l")
    // Nothing changed, reads are served, and no torn record is left behind.
    XCTAssertEqual(try client.request("list/info", ["list": "l"])["version"], 0)
    XCTAssertEqual(UInt64(try XCTUnwrap(fileStatus(journal)).st_size), size)
    // Space returns: the same change goes through.
    try setFileSizeLimit(of: daemon, to: "unlimited")
    XCTAssertEqual(try client.request("list/edit", big)["version"], 1)
    let expected = try fingerprint(client, "l")
    stop(daemon, client)
    (daemon, client) = try start()
    XCTAssertEqual(try fingerprint(client, "l"), expected)
    stop(daemon, client)
  }

  private func setFileSizeLimit(of daemon: DaemonProcess, to limit: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
    process.arguments = ["--pid", "\(daemon.pid)", "--fsize=\(limit):unlimited"]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "prlimit --fsize=\(limit)")
  }
}
