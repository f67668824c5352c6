// Bad input through the real binary (malformed frames, sockets, vanishing clients): a clear error, nothing lost, the daemon keeps serving. Bad requests are BadRequestTests, in process.
import Foundation
import JSON
import JSONRPC
import Synchronization
import XCTest

final class BadInputTests: XCTestCase {
  // MARK: - Fixtures

  /// List `l`: sections `s1` (items `a`, `b`) and `s2` (item `c`), multiple selection.
  private static let content: JSONValue = [
    "sections": [
      ["id": "s1", "header": "One", "items": [["id": "a", "text": "A"], ["id": "b", "text": "B"]]],
      ["id": "s2", "items": [["id": "c", "text": "C"]]],
    ]
  ]

  private func makeList(_ client: TestClient) throws {
    try client.request(
      "list/create", ["list": "l", "selectionMode": "multiple", "content": Self.content])
  }

  func testRequestsBeforeInitializeAndAfterShutdownOnASocketLeaveOtherSessionsServing() throws {
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let socketPath = directory.file("s")
    let daemon = try DaemonProcess.listening(on: socketPath)
    let main = try TestClient(daemon)
    try main.initialize()
    try makeList(main)

    let early = try TestClient.connect(socketPath)
    let error = early.error("list/info", ["list": "l"])
    XCTAssertEqual(error.code, .serverNotInitialized)
    XCTAssertTrue(error.message.contains("list/info"), error.message)
    early.notify("initialized", [:])  // dropped, not an error
    try early.initialize()
    XCTAssertEqual(try early.version(of: "l"), 0)
    XCTAssertEqual(try early.request("shutdown"), .null)
    let late = early.error("list/edit", ["list": "l", "edits": [["op": "deleteItems", "items": ["a"]]]])
    XCTAssertEqual(late.code, .invalidRequest)
    XCTAssertTrue(late.message.contains("list/edit") && late.message.contains("after shutdown"), late.message)
    // The refused edit did nothing, and the stdio session is unaffected by the socket's shutdown.
    XCTAssertEqual(try main.version(of: "l"), 0)
    try main.request("list/edit", ["list": "l", "edits": [["op": "deleteItems", "items": ["a"]]]])
    XCTAssertEqual(try main.version(of: "l"), 1)
    XCTAssertTrue(daemon.process.isRunning)
    early.close()
    main.close()
  }

  // MARK: - Malformed frames and JSON through stdin

  /// Bytes a client may send, and what the daemon must answer.
  private struct RawCase {
    let name: String
    let bytes: [UInt8]
    /// Expected error code of the answer (`nil`: no answer at all).
    let code: Int64?
    var mentions: [String] = []
    /// The error codes of a batch answer (an array) rather than one response.
    var batch: [Int64?]? = nil
    /// The `id` of the answer: null when the message had no usable id.
    var id: JSONValue = .null
  }

  private static func frame(_ body: String) -> [UInt8] { FrameWriter().frame(Array(body.utf8)) }
  private static func frame(_ body: [UInt8]) -> [UInt8] { FrameWriter().frame(body) }

  private static let rawCases: [RawCase] = [
    RawCase(
      name: "garbage", bytes: Array("hello garbage\r\n\r\n".utf8), code: -32700, mentions: ["hello garbage"]),
    RawCase(
      name: "bad JSON", bytes: frame(#"{"jsonrpc":"2.0","id":3,"#), code: -32700, mentions: ["end of input"]),
    RawCase(
      name: "bad JSON token", bytes: frame(#"{"jsonrpc":"2.0","id":3,"method":nope}"#), code: -32700,
      mentions: ["'o'", "byte offset 34"]),
    RawCase(
      name: "Content-Length: a", bytes: Array("Content-Length: a\r\n\r\n{}".utf8), code: -32700,
      mentions: ["Content-Length", "\"a\""]),
    RawCase(
      name: "negative Content-Length", bytes: Array("Content-Length: -5\r\n\r\n{}".utf8), code: -32700,
      mentions: ["\"-5\""]),
    RawCase(
      name: "conflicting Content-Length",
      bytes: Array("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}".utf8), code: -32700,
      mentions: ["conflicting", "\"2\"", "\"3\""]),
    RawCase(
      name: "missing Content-Length", bytes: Array("Content-Type: application/json\r\n\r\n{}".utf8),
      code: -32700,
      mentions: ["without Content-Length"]),
    RawCase(
      name: "bad charset",
      bytes: Array("Content-Length: 2\r\nContent-Type: application/json; charset=latin1\r\n\r\n{}".utf8),
      code: -32700, mentions: ["latin1"]),
    RawCase(
      name: "invalid UTF-8",
      bytes: frame(
        Array(#"{"jsonrpc":"2.0","id":9,"method":"list/all"#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)),
      code: -32700, mentions: ["UTF-8"]),
    RawCase(
      name: "too deep", bytes: frame(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)),
      code: -32700, mentions: ["deeper than 512"]),
    RawCase(
      name: "valid JSON, not JSON-RPC", bytes: frame(#"{"hello":1}"#), code: -32600, mentions: ["jsonrpc"]),
    RawCase(name: "a number", bytes: frame("42"), code: -32600, mentions: ["42"]),
    RawCase(
      name: "wrong version", bytes: frame(#"{"jsonrpc":"1.0","id":4,"method":"list/all"}"#), code: -32600,
      mentions: ["jsonrpc", "1.0"], id: 4),
    RawCase(
      name: "method not a string", bytes: frame(#"{"jsonrpc":"2.0","id":4,"method":7}"#), code: -32600,
      mentions: ["method", "7"], id: 4),
    RawCase(
      name: "id of the wrong type", bytes: frame(#"{"jsonrpc":"2.0","id":{"a":1},"method":"list/all"}"#),
      code: -32600, mentions: ["id"]),
    RawCase(name: "empty batch", bytes: frame("[]"), code: -32600, mentions: ["empty batch"]),
    RawCase(
      name: "batch with a bad member",
      bytes: frame(
        #"[{"jsonrpc":"2.0","id":"b1","method":"list/all"},{"foo":1},{"jsonrpc":"2.0","id":"b3","method":"nope"},"#
          + #"{"jsonrpc":"2.0","method":"initialized"}]"#),
      code: nil, batch: [nil, -32600, -32601]),
    RawCase(
      name: "batch of notifications",
      bytes: frame(#"[{"jsonrpc":"2.0","method":"initialized","params":{}}]"#),
      code: nil),
  ]

  func testMalformedFramesAndJSONGetErrorsAndTheConnectionKeepsServing() throws {
    let daemon = try DaemonProcess()
    let raw = RawClient(daemon)
    XCTAssertNotNil(raw.request(id: 1, "initialize", [:])?["result"])
    var id = 100
    for item in Self.rawCases {
      raw.write(item.bytes)
      if let code = item.code {
        guard let answer = raw.next() else {
          XCTFail("\(item.name): no answer")
          break
        }
        XCTAssertEqual(answer.errorCode, code, "\(item.name): \(answer)")
        XCTAssertEqual(answer["id"], item.id, "\(item.name): \(answer)")
        for word in item.mentions {
          XCTAssertTrue(
            answer.errorMessage.contains(word), "\(item.name): '\(answer.errorMessage)' lacks \(word)")
        }
      } else if let batch = item.batch {
        let answer = raw.next()
        let members = answer?.arrayValue ?? []
        XCTAssertEqual(members.map(\.errorCode), batch, "\(item.name): \(String(describing: answer))")
        XCTAssertNotNil(members.first?["result"]?["lists"], item.name)
      }
      // The same connection still serves a valid request, and nothing else was sent meanwhile.
      id += 1
      raw.sendRequest(id: id, "list/all")
      let answer = raw.next()
      XCTAssertEqual(answer?["id"], .int(Int64(id)), "\(item.name): after it, \(String(describing: answer))")
      XCTAssertNotNil(answer?["result"]?["lists"], "\(item.name): after it, \(String(describing: answer))")
    }
    daemon.closeInput()
    XCTAssertEqual(daemon.waitForExit(), 0)
  }

  func testOversizedFrameIsRefusedWithoutBeingReadAndTheStreamResynchronises() throws {
    let daemon = try DaemonProcess(["--max-frame-bytes", "4096"])
    let raw = RawClient(daemon)
    XCTAssertEqual(
      raw.request(id: 1, "initialize", [:])?["result"]?["capabilities"]?["limits"]?["maxFrameBytes"], 4096)
    let huge =
      #"{"jsonrpc":"2.0","id":2,"method":"list/create","params":{"list":""#
      + String(repeating: "x", count: 1 << 20) + #""}}"#
    raw.frame(huge)
    let answer = raw.next()
    XCTAssertEqual(answer?.errorCode, -32700)
    XCTAssertEqual(answer?["id"], .null)
    XCTAssertTrue(
      answer?.errorMessage.contains("\(huge.utf8.count) bytes") == true, answer?.errorMessage ?? "")
    XCTAssertTrue(answer?.errorMessage.contains("4096") == true, answer?.errorMessage ?? "")
    // An overstated length: the body runs into the next frame's header, which is still served.
    raw.write("Content-Length: 3000\r\n\r\n{\"jsonrpc\":")
    raw.sendRequest(id: 3, "list/all")
    let overrun = raw.next()
    XCTAssertEqual(overrun?.errorCode, -32700, "\(String(describing: overrun))")
    XCTAssertEqual(raw.response(id: 3)?["result"]?["lists"], [])
    XCTAssertEqual(raw.request(id: 4, "list/create", ["list": "small"])?["result"]?["version"], 0)
    daemon.closeInput()
    XCTAssertEqual(daemon.waitForExit(), 0)
  }

  func testNewlineDelimitedModeSurvivesABrokenLine() throws {
    let daemon = try DaemonProcess(["--max-frame-bytes", "4096"])
    let raw = RawClient(daemon)
    let initialize = raw.request(id: 1, "initialize", [:], framing: .newlineDelimited)
    XCTAssertNotNil(initialize?["result"])
    for (line, mention) in [
      (#"{"jsonrpc":"2.0","id":2,"method":"#, "end of input"),
      ("garbage", "'g'"),
      (#"{"jsonrpc":"2.0","id":2,"method":"list/all"} trailing"#, "byte offset"),
      (#"{"jsonrpc":"2.0","params":{"list":""# + String(repeating: "y", count: 10_000) + #""}}"#, "4096"),
    ] {
      raw.write(line + "\n")
      let answer = raw.next()
      XCTAssertEqual(answer?.errorCode, -32700, "\(line.prefix(60)): \(String(describing: answer))")
      XCTAssertTrue(answer?.errorMessage.contains(mention) == true, answer?.errorMessage ?? "no answer")
      XCTAssertNotNil(
        raw.request(id: 3, "list/all", framing: .newlineDelimited)?["result"], String(line.prefix(60)))
    }
    daemon.closeInput()
    XCTAssertEqual(daemon.waitForExit(), 0)
  }

  func testStdinClosedMidFrameEndsTheDaemonCleanly() throws {
    let daemon = try DaemonProcess()
    let raw = RawClient(daemon)
    XCTAssertNotNil(raw.request(id: 1, "initialize", [:])?["result"])
    raw.write("Content-Length: 80\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":2,")
    daemon.closeInput()
    XCTAssertEqual(daemon.waitForExit(), 0)
    XCTAssertTrue(raw.waitForEndOfFile())
    XCTAssertTrue(daemon.standardError().contains("stream ended after"))
  }

  // MARK: - Clients that vanish

  func testClientsThatDisconnectMidFrameOrMidRequestLoseNothingCommitted() throws {
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let socketPath = directory.file("s")
    let log = directory.file("log")
    let daemon = try DaemonProcess.listening(on: socketPath, ["--log-file", log])
    let main = try TestClient(daemon)
    try main.initialize()
    try makeList(main)
    try main.request("list/subscribe", ["list": "l", "snapshot": "none"])

    // A socket client commits an edit, then vanishes in the middle of the next frame.
    let midFrame = try RawClient.socket(socketPath)
    XCTAssertNotNil(midFrame.request(id: 1, "initialize", [:])?["result"])
    XCTAssertEqual(
      midFrame.request(
        id: 2, "list/edit",
        ["list": "l", "edits": [["op": "appendItems", "section": "s2", "items": [["id": "m"]]]]]
      )?["result"]?["version"], 1)
    let partial = FrameWriter().frame(
      [
        "jsonrpc": "2.0", "id": 3, "method": "list/edit",
        "params": ["list": "l", "edits": [["op": "deleteItems", "items": ["a", "b", "c", "m"]]]],
      ] as JSONValue)
    midFrame.write(Array(partial.prefix(partial.count - 10)))
    midFrame.close()

    // Another sends a whole request and vanishes before reading the answer: the request is served.
    let midRequest = try RawClient.socket(socketPath)
    XCTAssertNotNil(midRequest.request(id: 1, "initialize", [:])?["result"])
    midRequest.sendRequest(
      id: 2, "list/edit",
      ["list": "l", "edits": [["op": "appendItems", "section": "s1", "items": [["id": "r"]]]]])
    midRequest.close()

    // And a third vanishes in the middle of its header block.
    let midHeader = try RawClient.socket(socketPath)
    midHeader.write("Content-Len")
    midHeader.close()

    XCTAssertEqual(main.next("list/didChange")?["version"], 1)
    XCTAssertEqual(main.next("list/didChange")?["version"], 2)
    let ids = try main.request("query/window", ["list": "l", "offset": 0, "limit": 100])["rows"]?.arrayValue?
      .compactMap { $0["id"]?.stringValue }
    XCTAssertEqual(ids, ["a", "b", "r", "c", "m"])  // the cut-off delete never happened
    XCTAssertEqual(try main.version(of: "l"), 2)
    XCTAssertTrue(
      waitUntil { logContents(log).contains("stream ended after") },
      "the truncated frame is logged: \(logContents(log))")
    // The daemon still serves new socket clients and stdio.
    let next = try TestClient.connect(socketPath)
    try next.initialize()
    XCTAssertEqual(try next.version(of: "l"), 2)
    next.close()
    try main.request("list/edit", ["list": "l", "edits": [["op": "deleteItems", "items": ["r"]]]])
    XCTAssertEqual(try main.version(of: "l"), 3)
    main.close()
  }

  func testASubscriberThatNeverReadsIsKeptAndOthersGetEveryChange() throws {
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let socketPath = directory.file("s")
    let log = directory.file("log")
    let daemon = try DaemonProcess.listening(
      on: socketPath, ["--max-queue-bytes", "\(1 << 20)", "--history", "16", "--log-file", log])
    let owner = try TestClient(daemon)
    try owner.initialize()
    // A folder whose expansion sends 500 rows (~25 KB) in one notification; collapsing, a few bytes.
    let children: [JSONValue] = (0..<500).map {
      ["id": .string("child-\($0)"), "text": .string("row number \($0) of the folder")]
    }
    try owner.request(
      "list/create",
      [
        "list": "big",
        "content": ["sections": [["id": "s", "items": [["id": "folder", "children": .array(children)]]]]],
      ])

    let slow = try RawClient.socket(socketPath)
    XCTAssertNotNil(slow.request(id: 1, "initialize", [:])?["result"])
    XCTAssertNotNil(slow.request(id: 2, "list/subscribe", ["list": "big", "snapshot": "none"])?["result"])
    let fast = try RawClient.socket(socketPath)
    XCTAssertNotNil(fast.request(id: 1, "initialize", [:])?["result"])
    XCTAssertNotNil(fast.request(id: 2, "list/subscribe", ["list": "big", "snapshot": "none"])?["result"])
    XCTAssertEqual(try owner.request("list/info", ["list": "big"])["subscribers"], 2)

    // The fast subscriber reads every notification on its own thread, as wire order has them.
    // The fast subscriber reads every notification on its own thread, as wire order has them.
    let versions = Mutex<[Int64]>([])
    let lastVersion = Mutex<Int64?>(nil)
    let fastDone = DispatchSemaphore(value: 0)
    Thread {
      while let message = fast.next(timeout: 30) {
        guard message["method"] == "list/didChange", let version = message["params"]?["version"]?.intValue
        else {
          continue
        }
        versions.withLock { $0.append(version) }
        if version == lastVersion.withLock({ $0 }) { break }
      }
      fastDone.signal()
    }.start()

    // One expand/collapse round: ~25 KB to each subscriber. One request at a time: answers are as
    // large as the notifications, and the owner must keep up too.
    var version: Int64 = 0
    let failures = Mutex<[String]>([])
    func round() {
      for method in ["outline/expand", "outline/collapse"] {
        let answered = DispatchSemaphore(value: 0)
        owner.connection.sendRequest(method, ["list": "big", "item": "folder"]) { result in
          if case .failure(let error) = result { failures.withLock { $0.append("\(method): \(error)") } }
          answered.signal()
        }
        XCTAssertEqual(answered.wait(timeout: .now() + 30), .success)
        version += 1
      }
      // The fast one reads as fast as it can; a loaded machine must not make it "slow" too.
      let target = version - 4
      XCTAssertTrue(
        waitUntil(timeout: 30) { versions.withLock { $0.last ?? 0 } >= target }, "the fast one fell behind")
    }
    func subscribers() throws -> JSONValue? { try owner.request("list/info", ["list": "big"])["subscribers"] }

    // 600 versions (~7.5 MB to each subscriber, seven times --max-queue-bytes): the slow one is
    // not dropped — past the compose threshold its changes are held back, not queued — and the
    // daemon's memory does not grow with what it does not read.
    for _ in 0..<100 { round() }  // the slow one's socket buffer and queue fill up (~1.5 MB)
    let filledKiB = try XCTUnwrap(daemon.residentKiB())
    for _ in 0..<200 { round() }  // ~5 MB more to each subscriber
    let endKiB = try XCTUnwrap(daemon.residentKiB())
    XCTAssertEqual(failures.withLock { $0 }, [])
    XCTAssertEqual(try subscribers(), 2, "a subscriber was dropped")
    XCTAssertFalse(logContents(log).contains("peer is not reading"), logContents(log))
    XCTAssertLessThan(endKiB - filledKiB, 3_000, "RSS grew from \(filledKiB) KiB to \(endKiB) KiB")
    XCTAssertEqual(try owner.version(of: "big"), version)

    // The fast one saw every version, in order, none skipped.
    lastVersion.withLock { $0 = version }
    // It may have read the last one already.
    if versions.withLock({ $0.last == version }) { fastDone.signal() }
    XCTAssertEqual(fastDone.wait(timeout: .now() + 30), .success)
    let seen = versions.withLock { $0 }
    let firstWrong = seen.indices.first { seen[$0] != Int64($0 + 1) } ?? seen.count
    XCTAssertEqual(
      seen, (1...version).map { $0 },
      "\(seen.count) of \(version) versions; from index \(firstWrong): \(seen.dropFirst(max(0, firstWrong - 2)).prefix(6))"
    )

    // The slow one, reading at last, reaches the last version, partly through composed changes.
    var reached: Int64 = 0
    var composed = 0
    while reached < version, let message = slow.next(timeout: 30) {
      guard message["method"] == "list/didChange", let params = message["params"] else { continue }
      let previous = params["previousVersion"]?.intValue ?? -1
      XCTAssertEqual(previous, reached, "the slow one's changes follow each other")
      reached = params["version"]?.intValue ?? -1
      if reached > previous + 1 { composed += 1 }
    }
    XCTAssertEqual(reached, version)
    XCTAssertGreaterThan(composed, 0)
    owner.close()
  }
}
