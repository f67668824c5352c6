// Long-running behaviour: thousands of connections, pipelined bursts ended by shutdown and exit.
import Foundation
import JSON
import JSONRPC
import XCTest

final class LongRunningTests: XCTestCase {
  /// A shared daemon must return to its starting descriptors, threads and memory as clients
  /// come and go. Under `ulimit -n 128` a leak of even one descriptor per closed connection
  /// stops it serving long before 10,000 connections.
  func testThousandsOfShortConnectionsReturnToStartingDescriptorsThreadsAndMemory() throws {
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let path = directory.file("listd.sock")
    let daemon = try DaemonProcess.listening(
      on: path, ["--stay", "--demo", "--log-level", "warning"], descriptorLimit: 128)
    defer { daemon.stop() }

    func shortConnection(_ index: Int) throws {
      let client = try RawClient.socket(path)
      defer { client.close() }
      if index % 4 == 3 { return }  // connect, then close at once
      client.sendRequest(id: 1, "initialize", [:], framing: .newlineDelimited)
      client.sendRequest(id: 2, "list/all", nil, framing: .newlineDelimited)
      guard client.response(id: 1) != nil, let all = client.response(id: 2) else {
        throw TestFailure("connection \(index) was not served: \(daemon.standardError())")
      }
      XCTAssertNotNil(all["result"]?["lists"], "connection \(index)")
    }

    for index in 0..<200 { try shortConnection(index) }  // warm-up: thread pools, caches
    XCTAssertTrue(waitUntil(timeout: 20) { daemon.threadCount() ?? 0 <= 8 }, "threads never settled")
    let descriptors = daemon.openDescriptors()
    let threads = try XCTUnwrap(daemon.threadCount())
    let resident = try XCTUnwrap(daemon.residentKiB())

    for index in 0..<10_000 { try shortConnection(index) }

    XCTAssertTrue(
      waitUntil(timeout: 20) { daemon.openDescriptors() <= descriptors },
      "descriptors: \(daemon.openDescriptors()) after, \(descriptors) before")
    XCTAssertTrue(
      waitUntil(timeout: 20) { daemon.threadCount() ?? .max <= threads },
      "threads: \(daemon.threadCount() ?? -1) after, \(threads) before")
    let grown = (daemon.residentKiB() ?? .max) - resident
    // 10,000 connections that each kept 64 bytes (a dispatch continuation) would add 625 KiB.
    XCTAssertLessThan(grown, 384, "RSS grew by \(grown) KiB over 10,000 connections")
    XCTAssertTrue(daemon.process.isRunning)
  }

  /// The answer to `shutdown` is never lost, however much is still queued when `exit` follows
  /// without waiting for it: 50 runs, each writing a burst, `shutdown` and `exit` at once.
  func testShutdownAnswerSurvivesAPipelinedBurstFollowedAtOnceByExit() throws {
    var input = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"# + "\n"
    let burst = 1_500
    for id in 10..<(10 + burst) {
      input += #"{"jsonrpc":"2.0","id":\#(id),"method":"list/all"}"# + "\n"
    }
    input += #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"# + "\n"
    input += #"{"jsonrpc":"2.0","method":"exit"}"# + "\n"
    let bytes = Array(input.utf8)

    for run in 0..<50 {
      let daemon = try DaemonProcess(["--demo"])
      let writer = Thread { [daemon] in
        let client = RawClient(reading: daemon.output, writing: daemon.input)
        client.write(bytes)
      }
      writer.start()
      let output = daemon.stdout.fileHandleForReading.readDataToEndOfFile()
      XCTAssertEqual(daemon.waitForExit(), 0, "run \(run)")
      var reader = FrameReader()
      var answered = Set<Int64>()
      for event in reader.feed(Array(output)) {
        guard case .frame(let body) = event, let message = try? JSONParser().parse(body),
          let id = message["id"]?.intValue
        else { continue }
        answered.insert(id)
      }
      XCTAssertTrue(answered.contains(2), "run \(run): no answer to shutdown")
      XCTAssertEqual(answered.count, burst + 2, "run \(run): answers missing")
      if !answered.contains(2) { break }
    }
  }

  /// Memory follows what a list holds, not every id it ever saw: a list kept at 100 items
  /// whose ids churn (5 in, 5 out per edit), and edits that intern 10 new ids each and then
  /// fail, each through 200,000 new ids, end within a small bound of where the daemon settled
  /// after the first tenth. (The issue's 200,000 requests of one id each take minutes on a
  /// debug build; the ids are what grew.)
  func testChurningIdsAndFailedEditsKeepMemoryFlat() throws {
    for failing in [false, true] {
      let daemon = try DaemonProcess(["--log-level", "warning"])
      defer { daemon.stop() }
      let client = RawClient(daemon)
      XCTAssertNotNil(client.request(id: 1, "initialize", [:], framing: .newlineDelimited))
      let items = (0..<100).map { JSONValue.object(["id": .string("k\($0)")]) }
      let created = client.request(
        id: 2, "list/create",
        ["list": "log", "content": ["sections": [["id": "s", "items": .array(items)]]]],
        framing: .newlineDelimited)
      XCTAssertNil(created?["error"])

      let idsPerEdit = failing ? 10 : 5
      let rounds = 200_000 / idsPerEdit / 1_000
      var nextItem = 100
      var nextID = 10
      var settled = 0
      for round in 0..<rounds {
        var lines = ""
        for _ in 0..<1_000 {
          let appended = (0..<idsPerEdit).map { #"{"id":"k\#(nextItem + $0)"}"# }.joined(separator: ",")
          let deleted =
            failing
            ? #""no-such-item""#
            : (0..<idsPerEdit).map { #""k\#(nextItem - 100 + $0)""# }.joined(separator: ",")
          nextItem += idsPerEdit
          let edits =
            #"[{"op":"appendItems","items":[\#(appended)]},{"op":"deleteItems","items":[\#(deleted)]}]"#
          lines +=
            #"{"jsonrpc":"2.0","id":\#(nextID),"method":"list/edit","params":{"list":"log","edits":\#(edits)}}"#
          lines += "\n"
          nextID += 1
        }
        client.write(lines)
        let last = try XCTUnwrap(client.response(id: nextID - 1, timeout: 60), "round \(round)")
        XCTAssertEqual(last["error"] != nil, failing, "round \(round): \(last)")
        if round == rounds / 10 - 1 { settled = try XCTUnwrap(daemon.residentKiB()) }
      }
      let final = try XCTUnwrap(daemon.residentKiB())
      // Before ids were reclaimed both grew by about 15–20 MB over the last 180,000 ids.
      XCTAssertLessThan(
        final - settled, 4_096, "\(failing ? "failing edits" : "churn"): RSS \(settled) KiB → \(final) KiB")
    }
  }
}
