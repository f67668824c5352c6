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
      on: path, ["--stay", "--demo", "--log-level", "warning", "--orphan-timeout", "1"], descriptorLimit: 128)
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

    // The allocator's own growth settles over the first few thousand connections (threads come
    // and go: glibc arenas and stack caches fill; about 300 KiB, then a few bytes per connection,
    // ±100 KiB — on a loaded machine up to 390 KiB more over the next 7,000): memory is
    // measured from there, over enough connections that a real leak stands out.
    for index in 0..<5_000 { try shortConnection(index) }
    let resident = try XCTUnwrap(daemon.residentKiB())
    for index in 5_000..<19_000 { try shortConnection(index) }
    assertBack(daemon, descriptors: descriptors, threads: threads, "after 19,000 connections")
    let grown = (daemon.residentKiB() ?? .max) - resident
    // 14,000 connections that each kept 64 bytes (a dispatch continuation) would add 875 KiB.
    XCTAssertLessThan(grown, 600, "RSS grew by \(grown) KiB over the last 14,000 of 19,000 connections")

    // Clients that subscribe (to one list, to every list) or create a list, then vanish
    // without reading a byte: the session must not stay registered anywhere (its lists are
    // orphans, disposed after --orphan-timeout).
    for index in 0..<1_200 {
      let request: String
      switch index % 3 {
      case 0: request = #"{"jsonrpc":"2.0","id":2,"method":"list/subscribe","params":{}}"#
      case 1: request = #"{"jsonrpc":"2.0","id":2,"method":"list/subscribe","params":{"list":"contacts"}}"#
      default: request = #"{"jsonrpc":"2.0","id":2,"method":"list/create","params":{"list":"gone\#(index)"}}"#
      }
      let fd = try UnixSocket.connect(to: path)
      let bytes = Array(
        (#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"# + "\n" + request + "\n").utf8)
      _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      close(fd)
      // They come faster than a debug daemon forgets them: keep within its descriptor limit.
      if index % 20 == 19 { waitUntil { daemon.openDescriptors() < 64 } }
    }
    // Their burst grows the dispatch pool past 100 threads; it shrinks back to a few idle
    // workers, which libdispatch keeps (no connection, queue or timer of ours holds a thread).
    assertBack(daemon, descriptors: descriptors, threads: threads + 4, "after 1,200 vanishing clients")
    let check = try RawClient.socket(path)
    check.sendRequest(id: 1, "initialize", [:], framing: .newlineDelimited)
    let info = try XCTUnwrap(
      check.request(id: 2, "list/info", ["list": "contacts"], framing: .newlineDelimited))
    XCTAssertEqual(info["result"]?["subscribers"], 0, "\(info)")
    XCTAssertTrue(
      waitUntil(timeout: 20) {
        check.request(id: 3, "list/all", nil, framing: .newlineDelimited)?["result"]?["lists"]?.arrayValue?
          .count == 6  // the demo lists
      }, "orphans were not disposed")
  }

  private func assertBack(
    _ daemon: DaemonProcess, descriptors: Int, threads: Int, _ when: String, line: UInt = #line
  ) {
    XCTAssertTrue(
      waitUntil(timeout: 20) { daemon.openDescriptors() <= descriptors },
      "\(when): descriptors \(daemon.openDescriptors()), \(descriptors) before", line: line)
    XCTAssertTrue(
      // Idle dispatch workers retire one at a time, some seconds apart.
      waitUntil(timeout: 60) { daemon.threadCount() ?? .max <= threads },
      "\(when): threads \(daemon.threadCount() ?? -1), \(threads) before", line: line)
    XCTAssertTrue(daemon.process.isRunning, when, line: line)
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
      let missing = Set((10..<(10 + Int64(burst))).map { $0 } + [1, 2]).subtracting(answered)
      XCTAssertEqual(missing, [], "run \(run): no answer for \(missing.sorted().prefix(10))")
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
      // Before ids were reclaimed both grew by about 15–20 MB over the last 180,000 ids; a
      // loaded machine has seen 4.1 MB without any leak.
      XCTAssertLessThan(
        final - settled, 6_144, "\(failing ? "failing edits" : "churn"): RSS \(settled) KiB → \(final) KiB")
    }
  }

  /// Logs go to stderr, but a stderr nobody reads (a parent that never drains the pipe) must
  /// not stop the daemon: 3,000 connections log two info lines each, far more than a pipe holds.
  func testADaemonWhoseStderrNobodyReadsKeepsServing() throws {
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let path = directory.file("listd.sock")
    let daemon = try DaemonProcess.listening(on: path, ["--stay"])  // stderr: a pipe never read
    defer { daemon.stop() }
    for index in 0..<3_000 {
      let client = try RawClient.socket(path)
      client.sendRequest(id: 1, "initialize", [:], framing: .newlineDelimited)
      XCTAssertNotNil(client.response(id: 1), "connection \(index) was not served")
      client.close()
      if client.sawEndOfFile { break }
    }
  }
}
