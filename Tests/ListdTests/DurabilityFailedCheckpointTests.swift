// --state after failed checkpoints (a full disk, real or injected) and with damage in older generations.
import Foundation
import JSON
import JSONRPC
import XCTest

/// A failed checkpoint leaves no trace a restart takes for damage and costs no version; damage
/// in generations startup does not read is reported once, and errors name what is really kept.
/// Checkpoint failures are injected with the daemon's test-only `LISTD_TEST_FAILING_CHECKPOINTS`
/// (Journal+TestHook.swift), and one test fills a real 1 MB tmpfs.
final class DurabilityFailedCheckpointTests: XCTestCase {
  private var directory: PrivateDirectory!
  private var state: String { directory.file("state") }

  override func setUpWithError() throws { directory = try PrivateDirectory() }
  override func tearDown() { directory.remove() }

  /// A daemon on `state` whose checkpoints of the generations `failing` names fail with ENOSPC.
  private func start(_ arguments: [String], state: String? = nil, failing: String? = nil) throws -> (
    DaemonProcess, TestClient, JSONValue
  ) {
    let daemon = try DaemonProcess(
      ["--state", state ?? self.state] + arguments,
      environment: failing.map { ["LISTD_TEST_FAILING_CHECKPOINTS": $0] })
    let client = try TestClient(daemon, name: "owner")
    return (daemon, client, try client.initialize())
  }

  /// A clean stop by SIGTERM (a checkpoint in flight completes first); the daemon's stderr.
  @discardableResult
  private func terminate(_ daemon: DaemonProcess, _ client: TestClient) -> String {
    kill(daemon.pid, SIGTERM)
    XCTAssertEqual(daemon.waitForExit(), 0)
    client.close()
    return daemon.standardError()
  }

  private func file(_ generation: Int, _ suffix: String, in state: String? = nil) -> String {
    (state ?? self.state) + "/" + String(format: "%010d", generation) + "." + suffix
  }

  private func edit(_ client: TestClient, _ index: Int, text: String = "Item") throws {
    try client.request(
      "list/edit",
      [
        "list": "l",
        "edits": [["op": "appendItems", "items": [["id": .string("i\(index)"), "text": .string(text)]]]],
      ])
  }

  /// Creates `l`, then edits it until generation `generation`'s journal exists (a checkpoint
  /// after each change: `--checkpoint-bytes 1`) and `extra` edits more; its content at each version.
  private func editUntil(
    generation: Int, extra: Int = 2, _ client: TestClient, state: String? = nil, text: String = "Item"
  ) throws -> [JSONValue] {
    var contents = [try client.request("query/content", ["list": "l"])]
    var extraLeft = extra
    for index in 1...200 {
      try edit(client, index, text: text)
      contents.append(try client.request("query/content", ["list": "l"]))
      if FileManager.default.fileExists(atPath: file(generation, "journal", in: state)) {
        if extraLeft == 0 { break }
        extraLeft -= 1
      }
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: file(generation, "journal", in: state)))
    return contents
  }

  private func expectNothingReported(_ initialized: JSONValue, _ client: TestClient, line: UInt = #line) {
    XCTAssertEqual(initialized["capabilities"]?["state"]?["recoveryProblems"], [], line: line)
    XCTAssertNil(client.next("window/logMessage", timeout: 0.2), line: line)
  }

  /// Issue 23, item 7: checkpoints that failed for lack of space are not "missing" at the next start.
  func testAFailedCheckpointIsNotReportedAsDamageAfterARestart() throws {
    var (daemon, client, _) = try start(["--checkpoint-bytes", "1"], failing: "3-")
    try client.request("list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    let contents = try editUntil(generation: 3, client)
    let log = terminate(daemon, client)
    XCTAssertTrue(log.contains("checkpoint 3 failed") && log.contains("No space left on device"), log)
    // Space is back.
    for round in 0..<2 {
      let initialized: JSONValue
      (daemon, client, initialized) = try start(["--checkpoint-bytes", "1"])
      expectNothingReported(initialized, client)
      XCTAssertEqual(try client.request("query/content", ["list": "l"]), contents.last, "round \(round)")
      let log = terminate(daemon, client)
      XCTAssertFalse(log.contains("missing"), log)
    }
  }

  /// Issue 23, item 8: the versions in the journals of failed checkpoints are rebuilt from the
  /// checkpoint before them, before and after a restart.
  func testVersionsOfAFailedCheckpointsGenerationAreKeptAfterARestart() throws {
    let arguments = ["--checkpoint-bytes", "1", "--history", "3", "--explain-history", "3"]
    var (daemon, client, _) = try start(arguments, failing: "3-5")
    try client.request("list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    let contents = try editUntil(generation: 7, client)
    XCTAssertFalse(FileManager.default.fileExists(atPath: file(4, "checkpoint")))
    func expectEveryVersion(_ context: String) throws {
      for version in contents.indices {
        XCTAssertEqual(
          try client.request("query/content", ["list": "l", "atVersion": .int(Int64(version))]),
          contents[version],
          "\(context): v\(version)")
      }
      let changes = try client.request("list/changesSince", ["list": "l", "version": 0])
      XCTAssertEqual(changes["changes"]?.arrayValue?.count, contents.count - 1, context)
    }
    try expectEveryVersion("before the restart")
    terminate(daemon, client)
    let initialized: JSONValue
    (daemon, client, initialized) = try start(arguments)
    expectNothingReported(initialized, client)
    try expectEveryVersion("after the restart")
    terminate(daemon, client)
  }

  /// Issue 23, item 7 on a real full filesystem: a 1 MB tmpfs (needs root; skipped otherwise).
  func testACheckpointFailedOnAFullFilesystemIsNotDamageOnceSpaceReturns() throws {
    let mountPoint = directory.file("small")
    XCTAssertEqual(mkdir(mountPoint, 0o700), 0)
    let (status, output) = run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint])
    guard status == 0 else {
      throw XCTSkip("mount -t tmpfs is not permitted here (needs root): \(output)")
    }
    defer { _ = run("/bin/umount", [mountPoint]) }
    let state = mountPoint + "/state"
    var (daemon, client, _) = try start(["--checkpoint-bytes", "1"], state: state)
    // About 20 KB a checkpoint.
    let items = JSONValue.array(
      (0..<200).map { ["id": .string("x\($0)"), "text": .string(String(repeating: "t", count: 80))] })
    try client.request(
      "list/create", ["list": "l", "rows": "none", "content": ["sections": [["id": "s", "items": items]]]])
    XCTAssertTrue(waitUntil { FileManager.default.fileExists(atPath: file(2, "checkpoint", in: state)) })
    // Fill the filesystem, then leave twelve pages: room for changes, not for a checkpoint as well.
    let filler = mountPoint + "/filler"
    let fd = open(filler, O_WRONLY | O_CREAT, 0o600)
    XCTAssertGreaterThanOrEqual(fd, 0)
    let chunk = [UInt8](repeating: 1, count: 4096)
    var filled = 0
    while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == chunk.count {
      filled += chunk.count
    }
    XCTAssertEqual(ftruncate(fd, off_t(max(0, filled - 12 * 4096))), 0)
    close(fd)
    // Changes of 5 KB: once the journal is larger than checkpoint 2, checkpoint 3 starts and
    // fills the disk; a change meanwhile may be refused for lack of space (-32020).
    for index in 1...20 {
      do { try edit(client, index, text: String(repeating: "z", count: 5000)) } catch let error
        as ResponseError
      { XCTAssertEqual(error.code, -32020) }
      if waitUntil(timeout: 0.2, { FileManager.default.fileExists(atPath: file(3, "journal", in: state)) }) {
        break
      }
    }
    XCTAssertTrue(
      waitUntil {
        !FileManager.default.fileExists(atPath: file(3, "checkpoint.tmp", in: state))
          && !FileManager.default.fileExists(atPath: file(3, "checkpoint", in: state))
      }, "checkpoint 3 failed: \(run("/bin/ls", ["-l", state]).1) \(run("/bin/df", [mountPoint]).1)")
    let content = try client.request("query/content", ["list": "l"])
    XCTAssertEqual(unlink(filler), 0, "space returns")
    let log = terminate(daemon, client)
    XCTAssertTrue(log.contains("checkpoint 3 failed") && log.contains("No space left on device"), log)
    let initialized: JSONValue
    (daemon, client, initialized) = try start(["--checkpoint-bytes", "1"], state: state)
    expectNothingReported(initialized, client)
    XCTAssertEqual(try client.request("query/content", ["list": "l"]), content)
    XCTAssertFalse(terminate(daemon, client).contains("missing"))
  }

  /// Issue 23, item 9: damage in a journal startup does not read is reported once, when history
  /// reads meet it, and the errors name it and the versions really kept.
  func testDamageInAnOlderJournalIsReportedOnceAndErrorsSayWhatIsKept() throws {
    let arguments = ["--checkpoint-bytes", "1500", "--history", "3", "--explain-history", "3"]
    let socket = directory.file("listd.sock")
    var daemon = try DaemonProcess.listening(on: socket, ["--state", state] + arguments)
    var client = try TestClient.socket(socket, name: "owner")
    try client.initialize()
    try client.request("list/create", ["list": "l", "content": ["sections": [["id": "s"]]]])
    var contents = [try client.request("query/content", ["list": "l"])]
    // Until checkpoint 4 exists: startup reads neither generation 2's journal nor its checkpoint.
    for index in 1...300 {
      try edit(client, index, text: String(repeating: "t", count: 60))
      contents.append(try client.request("query/content", ["list": "l"]))
      if index >= 40 && FileManager.default.fileExists(atPath: file(4, "checkpoint")) { break }
    }
    terminate(daemon, client)
    XCTAssertTrue(FileManager.default.fileExists(atPath: file(4, "checkpoint")))
    // Flip the length field of generation 2's third record (of at least five).
    let journal = file(2, "journal")
    var bytes = try XCTUnwrap(FileManager.default.contents(atPath: journal))
    var offsets: [Int] = []
    var offset = 0
    while offset + 8 <= bytes.count {
      offsets.append(offset)
      offset += 8 + (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
    XCTAssertGreaterThanOrEqual(offsets.count, 5)
    let body = bytes[(offsets[2] + 8)..<offsets[3]]
    let record = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    let damaged = try XCTUnwrap(record["version"] as? Int)
    bytes[offsets[2] + 2] ^= 0x40
    try bytes.write(to: URL(fileURLWithPath: journal))

    daemon = try DaemonProcess.listening(on: socket, ["--state", state] + arguments)
    client = try TestClient.socket(socket, name: "owner")
    let initialized = try client.initialize()
    XCTAssertEqual(initialized["capabilities"]?["state"]?["recoveryProblems"], [], "startup does not read it")
    var lost: [Int] = []
    var messages: [String] = []
    for version in contents.indices {
      do {
        let answer = try client.request("query/content", ["list": "l", "atVersion": .int(Int64(version))])
        XCTAssertEqual(answer, contents[version], "v\(version)")
      } catch let error as ResponseError {
        XCTAssertEqual(error.code, -32015, error.message)
        lost.append(version)
        messages.append(error.message)
      }
    }
    let first = try XCTUnwrap(lost.first)
    let last = try XCTUnwrap(lost.last)
    XCTAssertEqual(first, damaged, "the versions before the damaged record are kept")
    XCTAssertEqual(lost, Array(first...last), "one gap")
    XCTAssertLessThan(last, contents.count - 1)
    let gap = last == first ? "version \(first) is" : "versions \(first) to \(last) are"
    for message in messages {
      XCTAssertTrue(
        message.contains("which keeps versions 0 to \(first - 1) and \(last + 1) to \(contents.count - 1)"),
        message)
      XCTAssertTrue(
        message.contains("; \(gap) lost to damage: journal \(journal) has a corrupt record"), message)
    }
    // The changes since a version are kept from the end of the gap on.
    let error = client.error("list/changesSince", ["list": "l", "version": .int(Int64(first - 1))])
    XCTAssertEqual(error.data?["oldestVersion"], .int(Int64(last + 1)), error.message)
    XCTAssertTrue(error.message.contains("lost to damage: journal \(journal)"), error.message)
    XCTAssertNoThrow(
      try client.request("list/changesSince", ["list": "l", "version": .int(Int64(last + 1))]))
    XCTAssertEqual(
      client.error("list/changesSince", ["list": "l", "version": .int(Int64(last))]).code, -32015)
    // Every session finds it among the problems.
    let other = try TestClient.socket(socket, name: "other")
    let problems = try other.initialize()["capabilities"]?["state"]?["recoveryProblems"]?.arrayValue ?? []
    XCTAssertEqual(problems.count, 1, "\(problems)")
    XCTAssertTrue(problems.first?.stringValue?.contains("journal \(journal) has a corrupt record") == true)
    other.close()
    let log = terminate(daemon, client)
    XCTAssertEqual(log.components(separatedBy: "\(journal) has").count - 1, 1, "logged once: \(log)")
  }

  /// Runs `executable` and returns its status and output (stdout and stderr).
  private func run(_ executable: String, _ arguments: [String]) -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do { try process.run() } catch { return (-1, "\(error)") }
    process.waitUntilExit()
    return (
      process.terminationStatus,
      String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    )
  }
}
