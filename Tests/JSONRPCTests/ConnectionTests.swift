// Connection tests over real socket pairs: dispatch, concurrency, cancellation, timeouts, limits.
import Foundation
import JSONRPC
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

final class ConnectionTests: XCTestCase {
  let log = CapturedLog()

  func options(_ dispatch: Connection.DispatchMode = .concurrent) -> Connection.Options {
    Connection.Options(dispatch: dispatch, logger: log.logger)
  }

  /// A started server and client over a socket pair.
  func pair(_ setUp: (Connection) -> Void) throws -> (server: Connection, client: Connection) {
    let (server, client) = try Connection.socketPair(options(), options())
    setUp(server)
    server.start()
    client.start()
    addTeardownBlock {
      client.close()
      server.close()
    }
    return (server, client)
  }

  func testRequestResponse() async throws {
    let (_, client) = try pair { server in
      server.onRequest("echo") { request in request.rawParams ?? .null }
      server.onRequest("add") { request in
        .int(Int64(try request.params.int("a") + request.params.int("b")))
      }
    }
    let echoed = try await client.sendRequest("echo", ["text": "héllo 😀", "n": [1, 2.5, nil]])
    XCTAssertEqual(echoed, ["text": "héllo 😀", "n": [1, 2.5, nil]])
    let sum = try await client.sendRequest("add", ["a": 2, "b": 40])
    XCTAssertEqual(sum, 42)
    do {
      _ = try await client.sendRequest("add", ["a": 2, "b": "x"])
      XCTFail("expected an error")
    } catch let error as ResponseError {
      XCTAssertEqual(error.code, .invalidParams)
      XCTAssertEqual(error.message, #"invalid params: "b" must be an integer, got "x""#)
      XCTAssertEqual(error.data, ["field": "b"])
    }
    do {
      _ = try await client.sendRequest("nope")
      XCTFail("expected an error")
    } catch let error as ResponseError {
      XCTAssertEqual(error, ResponseError(.methodNotFound, #"method not found: "nope""#))
    }
  }

  func testConcurrentRequestsAreHandledConcurrentlyAndMatchedById() async throws {
    // Measured by how many handlers run at once, not by the time taken: a loaded machine may
    // take any time.
    let running = Box<(now: Int, most: Int)>((0, 0))
    let (_, client) = try pair { server in
      server.onRequest("slow") { request in
        running.mutate { $0 = ($0.now + 1, max($0.most, $0.now + 1)) }
        usleep(100_000)
        running.mutate { $0.now -= 1 }
        return .int(Int64(try request.params.int("n") * 2))
      }
    }
    try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
      for n in 0..<30 {
        group.addTask { (n, try await client.sendRequest("slow", ["n": .int(Int64(n))])) }
      }
      for try await (n, result) in group {
        XCTAssertEqual(result, .int(Int64(n * 2)))
      }
    }
    XCTAssertGreaterThan(running.value.most, 1, "handlers ran one at a time")
  }

  func testSerialDispatchRunsHandlersInArrivalOrder() async throws {
    let seen = Box<[Int64]>([])
    let (server, client) = try Connection.socketPair(options(.serial), options())
    server.onNotification("note") { note in
      if let n = try note.params.optionalInt("n"), n % 7 == 0 { usleep(1000) }
      seen.mutate { $0.append(Int64(try! note.params.int("n"))) }
    }
    server.onRequest("barrier") { _ in .int(Int64(seen.value.count)) }
    server.start()
    client.start()
    defer {
      client.close()
      server.close()
    }
    for n in 0..<200 { client.notify("note", ["n": .int(Int64(n))]) }
    let count = try await client.sendRequest("barrier")
    XCTAssertEqual(count, 200)
    XCTAssertEqual(seen.value, (0..<200).map(Int64.init))
  }

  func testDeferredResponseFromAnotherThread() async throws {
    let (_, client) = try pair { server in
      server.onRequestDeferred("later") { request in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) {
          request.connection.notify("first", ["before": "response"])
          request.respond(["done": true])
          XCTAssertFalse(request.respond("twice"), "a second answer is refused")
        }
      }
    }
    let notified = Box(false)
    client.onNotification("first") { _ in notified.value = true }
    let result = try await client.sendRequest("later")
    XCTAssertEqual(result, ["done": true])
    waitUntil { notified.value }
  }

  func testAnIdIsFreeForReuseOnceItsAnswerIsSent() throws {
    // The id used to stay in flight until just after the answer was written: a peer that reused
    // it at once was sometimes told "duplicate request id". Several connections at once make
    // the answering thread lose the processor at that moment often enough to show it.
    let rounds = 4_000
    let failures = Box<[String]>([])
    let options = options()
    DispatchQueue.concurrentPerform(iterations: 6) { connection in
      do {
        let (server, peer) = try RawPeer.withServer(options) { server in
          server.onRequestDeferred("echo") { request in
            DispatchQueue.global().async { request.respond(request.params.value ?? .null) }
          }
        }
        defer { server.close() }
        for round in 0..<rounds {
          peer.send(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":[\#(round)]}"#)
          guard let answer = peer.readJSON(1).first, answer["result"] == [.int(Int64(round))] else {
            let text = String(decoding: peer.received.suffix(200), as: UTF8.self)
            failures.mutate { $0.append("connection \(connection), round \(round): …\(text)") }
            return
          }
        }
      } catch {
        failures.mutate { $0.append("connection \(connection): \(error)") }
      }
    }
    XCTAssertEqual(failures.value, [])
  }

  func testCancelRequestAnswersRequestCancelledAndHandlerObservesIt() throws {
    let observed = Box(false)
    let started = DispatchSemaphore(value: 0)
    let (server, peer) = try RawPeer.withServer(options()) { server in
      server.onRequest("wait") { request in
        started.signal()
        while !request.isCancelled { usleep(1000) }
        observed.value = true
        return "too late"
      }
    }
    defer { server.close() }
    peer.send(#"{"jsonrpc":"2.0","id":7,"method":"wait"}"#)
    XCTAssertEqual(started.wait(timeout: .now() + 5), .success)
    peer.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#)
    let answers = peer.readJSON(1)
    XCTAssertEqual(answers.first?["id"], 7)
    XCTAssertEqual(answers.first?["error"]?["code"], -32800)
    waitUntil { observed.value }
    // The handler's late answer is dropped: nothing else arrives.
    XCTAssertEqual(peer.readEvents(1, timeout: 0.2), [])
  }

  func testCooperativeCancellationLetsTheHandlerDecide() throws {
    let (server, peer) = try RawPeer.withServer(options()) { server in
      server.onRequest("work", cancellation: .cooperative) { request in
        while !request.isCancelled { usleep(1000) }
        throw ResponseError.requestCancelled(request.id)
      }
      server.onRequestAsync("sleep") { _ in
        try await Task.sleep(for: .seconds(30))
        return "slept"
      }
    }
    defer { server.close() }
    peer.send(#"{"jsonrpc":"2.0","id":"w","method":"work"}"#)
    peer.send(#"{"jsonrpc":"2.0","id":"s","method":"sleep"}"#)
    usleep(50_000)
    peer.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"w"}}"#)
    peer.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"s"}}"#)
    let answers = peer.readJSON(2)
    XCTAssertEqual(Set(answers.compactMap { $0["id"] }), ["w", "s"])
    for answer in answers { XCTAssertEqual(answer["error"]?["code"], -32800) }
  }

  func testRequestToPeerTimesOutAndSendsCancel() async throws {
    let (client, peer) = try RawPeer.withServer(options()) { _ in }
    defer { client.close() }
    let start = Date()
    do {
      _ = try await client.sendRequest("never", ["x": 1], timeout: .milliseconds(100))
      XCTFail("expected a timeout")
    } catch let error as ConnectionError {
      XCTAssertEqual(error, .timedOut(method: "never", id: 1))
    }
    XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    let seen = peer.readJSON(2)
    XCTAssertEqual(seen.first?["method"], "never")
    XCTAssertEqual(seen.last?["method"], "$/cancelRequest")
    XCTAssertEqual(seen.last?["params"], ["id": 1])
  }

  func testResponsesMatchedByIdInAnyOrder() async throws {
    let (client, peer) = try RawPeer.withServer(options()) { _ in }
    defer { client.close() }
    async let a = client.sendRequest("q", ["n": 1])
    async let b = client.sendRequest("q", ["n": 2])
    async let c = client.sendRequest("q", ["n": 3])
    let requests = peer.readJSON(3)
    XCTAssertEqual(requests.count, 3)
    // Answer in reverse order, the last one as an error; one response for an unknown id.
    peer.send(#"{"jsonrpc":"2.0","id":999,"result":0}"#)
    for request in requests.reversed() {
      let id = request["id"]!.intValue!
      let n = request["params"]!["n"]!.intValue!
      if n == 3 {
        peer.send(#"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32801,"message":"changed"}}"#)
      } else {
        peer.send(#"{"jsonrpc":"2.0","id":\#(id),"result":\#(n * 10)}"#)
      }
    }
    let (ra, rb) = try await (a, b)
    XCTAssertEqual(ra, 10)
    XCTAssertEqual(rb, 20)
    do {
      _ = try await c
      XCTFail("expected the peer's error")
    } catch let error as ResponseError {
      XCTAssertEqual(error, ResponseError(.contentModified, "changed"))
    }
    waitUntil { self.log.lines.contains { $0.contains("response to unknown request id 999") } }
  }

  func testPeerThatNeverReadsIsDisconnectedWithBoundedMemory() throws {
    var serverOptions = options()
    serverOptions.maxOutgoingBytes = 1 << 20
    let (server, peer) = try RawPeer.withServer(serverOptions) { _ in }
    let closed = Box<CloseReason?>(nil)
    server.onClose { closed.value = $0 }
    let payload: JSONValue = ["blob": .string(String(repeating: "x", count: 60_000))]
    var sent = 0
    while server.notify("big", payload) {
      sent += 1
      XCTAssertLessThan(sent, 10_000, "the connection never gave up")
      if sent >= 10_000 { break }
    }
    // Socket buffers hold a few hundred KiB; the queue holds at most 1 MiB.
    XCTAssertLessThan(sent * 60_000, (1 << 20) + (8 << 20))
    waitUntil { closed.value != nil }
    guard case .outgoingQueueOverflow(_, let limit) = closed.value else {
      return XCTFail("\(String(describing: closed.value))")
    }
    XCTAssertEqual(limit, 1 << 20)
    XCTAssertTrue(
      log.lines.contains { $0.contains("peer is not reading") && $0.hasPrefix("error") }, "\(log.lines)")
    XCTAssertFalse(server.notify("after", nil))
    withExtendedLifetime(peer) {}
  }

  func testEndOfInputMidFrameClosesCleanly() throws {
    let (server, peer) = try RawPeer.withServer(options()) { server in
      server.onRequest("x") { _ in nil }
    }
    let closed = Box<CloseReason?>(nil)
    server.onClose { closed.value = $0 }
    peer.send(#"{"jsonrpc":"2.0","id":1,"method":"x"}"#)
    peer.write("Content-Length: 100\r\n\r\n{\"jsonrpc\":")
    peer.shutdownWrite()
    let answers = peer.readJSON(1)
    XCTAssertEqual(answers.first?["result"], .null)
    waitUntil { closed.value != nil }
    XCTAssertEqual(closed.value, .endOfInput)
    XCTAssertTrue(
      log.lines.contains { $0.contains("stream ended after 11 of 100 body bytes") }, "\(log.lines)")
    server.waitUntilClosed()
    XCTAssertEqual(peer.readToEnd(timeout: 1).count, peer.received.count)
  }

  func testEndOfInputWaitsForRequestsInProgress() throws {
    let (server, peer) = try RawPeer.withServer(options(.serial)) { server in
      server.onRequestDeferred("slow") { request in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { request.respond("done") }
      }
      server.onRequest("fast") { _ in "quick" }
    }
    peer.send(#"{"jsonrpc":"2.0","id":1,"method":"slow"}"#)
    peer.send(#"{"jsonrpc":"2.0","id":2,"method":"fast"}"#)
    peer.shutdownWrite()
    server.waitUntilClosed()
    let answers = peer.readJSON(2)
    XCTAssertEqual(Set(answers.compactMap { $0["result"] }), ["done", "quick"])
  }

  /// Everything the server writes is a well-formed frame, whatever it is sent.
  func testOutputIsNothingButFrames() throws {
    let (server, peer) = try RawPeer.withServer(options()) { server in
      server.onRequest("echo") { request in request.rawParams ?? .null }
      server.onNotification("note") { note in note.connection.notify("noted", note.rawParams) }
    }
    let inputs = [
      frame(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":"é"}}"#),
      frame(#"{"jsonrpc":"2.0","id":2,"method":"echo""#),  // bad JSON
      "Content-Length: abc\r\n\r\n{}",  // bad header
      frame(#"{"jsonrpc":"2.0","method":"note","params":[1]}"#),
      frame(#"{"jsonrpc":"1.0","id":3,"method":"echo"}"#),
      frame(#"[{"jsonrpc":"2.0","id":4,"method":"echo"},{"jsonrpc":"2.0","method":"note"},5]"#),
      frame("[]"), frame(""), frame("[1,2,3]"), "garbage\r\n",
      frame(#"{"jsonrpc":"2.0","id":5,"method":"unknown"}"#),
    ]
    for input in inputs { peer.write(input) }
    peer.shutdownWrite()
    server.waitUntilClosed()
    let output = peer.readToEnd()
    var reader = FrameReader(framing: .contentLength)
    let events = reader.feed(output) + reader.finish()
    var bodies: [JSONValue] = []
    for event in events {
      guard case .frame(let body) = event else { return XCTFail("not a frame: \(event)") }
      guard let json = try? JSONValue(parsing: body) else { return XCTFail("not JSON: \(body)") }
      bodies.append(json)
    }
    let text = String(decoding: output, as: UTF8.self)
    XCTAssertTrue(text.hasPrefix("Content-Length: "), text)
    // 1 echo, parse error, header error, noted ×2, invalid request, batch answer, empty batch,
    // empty body, [1,2,3] batch, garbage, unknown method.
    XCTAssertEqual(bodies.count, 12, text)
    let errors = bodies.compactMap { $0["error"]?["code"]?.intValue }
    XCTAssertEqual(errors.filter { $0 == -32700 }.count, 4, text)  // bad JSON, bad header, empty body, garbage
    XCTAssertTrue(errors.contains(-32601))
    guard let batch = bodies.first(where: { $0.arrayValue != nil && $0.arrayValue!.count == 2 })?.arrayValue
    else {
      return XCTFail("no batch answer in \(text)")
    }
    XCTAssertEqual(batch[0]["id"], 4)
    XCTAssertEqual(batch[1]["error"]?["message"], "invalid request: message must be an object, got 5")
    let allInvalid = bodies.first { $0.arrayValue?.count == 3 }?.arrayValue
    XCTAssertEqual(allInvalid?.compactMap { $0["error"]?["code"] }, [-32600, -32600, -32600])
    XCTAssertTrue(bodies.contains { $0["error"]?["message"] == "invalid request: empty batch" })
    XCTAssertTrue(
      bodies.contains { $0["error"]?["message"] == #"invalid request: "jsonrpc" must be "2.0", got "1.0""# })
  }

  func testAllNotificationBatchGetsNoAnswer() throws {
    let count = Box(0)
    let (server, peer) = try RawPeer.withServer(options()) { server in
      server.onNotification("n") { _ in count.mutate { $0 += 1 } }
      server.onRequest("ping") { _ in "pong" }
    }
    defer { server.close() }
    peer.send(#"[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","method":"n"}]"#)
    peer.send(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
    let answers = peer.readJSON(1)
    XCTAssertEqual(answers.first?["result"], "pong")
    waitUntil { count.value == 2 }
    XCTAssertEqual(peer.readEvents(1, timeout: 0.1), [])
  }

  func testNewlineDelimitedClientGetsNewlineDelimitedAnswers() throws {
    let (server, peer) = try RawPeer.withServer(options()) { server in
      server.onRequest("echo") { request in request.rawParams ?? .null }
    }
    peer.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":[\"a\\nb\"]}\n")
    peer.write("not json\n")
    peer.shutdownWrite()
    server.waitUntilClosed()
    let text = String(decoding: peer.readToEnd(), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(lines.count, 3, text)
    XCTAssertEqual(lines[2], "", "every answer ends with a line feed")
    // The parse error is answered by the reading thread, the request by a handler: either order.
    let answers = try lines.prefix(2).map { try JSONValue(parsing: String($0)) }
    XCTAssertTrue(answers.contains(["jsonrpc": "2.0", "id": 1, "result": ["a\nb"]]), text)
    XCTAssertTrue(answers.contains { $0["error"]?["code"] == -32700 }, text)
    XCTAssertEqual(server.framing, .newlineDelimited)
  }

  func testGateAndUnhandledFallback() throws {
    let initialized = Box(false)
    let (server, peer) = try RawPeer.withServer(options()) { server in
      server.setGate { method, isRequest in
        if method == "initialize" {
          initialized.value = true
          return nil
        }
        return initialized.value || !isRequest ? nil : .serverNotInitialized(method)
      }
      server.onRequest("initialize") { _ in ["capabilities": [:]] }
      server.onUnhandledRequest { request in
        request.respond(error: ResponseError(-32010, "unknown list \(request.method)"))
      }
    }
    defer { server.close() }
    peer.send(#"{"jsonrpc":"2.0","id":1,"method":"list/get"}"#)
    peer.send(#"{"jsonrpc":"2.0","id":2,"method":"initialize"}"#)
    peer.send(#"{"jsonrpc":"2.0","id":3,"method":"list/get"}"#)
    let answers = peer.readJSON(3)
    XCTAssertEqual(answers.count, 3)
    let byID = Dictionary(uniqueKeysWithValues: answers.map { ($0["id"]!.intValue!, $0) })
    XCTAssertEqual(byID[1]?["error"]?["code"], -32002)
    XCTAssertEqual(byID[1]?["error"]?["message"], #"server not initialized: "list/get" before "initialize""#)
    XCTAssertEqual(byID[2]?["result"], ["capabilities": [:]])
    XCTAssertEqual(byID[3]?["error"]?["code"], -32010)
  }

  func testDuplicateIdsDroppedRequestsAndFailingHandlers() throws {
    let release = DispatchSemaphore(value: 0)
    let (server, peer) = try RawPeer.withServer(options()) { server in
      server.onRequest("block") { _ in
        release.wait()
        return "released"
      }
      server.onRequestDeferred("forget") { _ in }
      server.onRequest("fail") { _ in throw CocoaError(.fileNoSuchFile) }
    }
    defer { server.close() }
    peer.send(#"{"jsonrpc":"2.0","id":1,"method":"block"}"#)
    usleep(50_000)
    peer.send(#"{"jsonrpc":"2.0","id":1,"method":"block"}"#)
    peer.send(#"{"jsonrpc":"2.0","id":2,"method":"forget"}"#)
    peer.send(#"{"jsonrpc":"2.0","id":3,"method":"fail"}"#)
    var answers = peer.readJSON(3)
    release.signal()
    answers += peer.readJSON(1)
    let messages = answers.map {
      "\($0["id"]!.jsonString()): \($0["error"]?["message"]?.stringValue ?? $0["result"]!.jsonString())"
    }
    XCTAssertTrue(
      messages.contains(
        #"1: invalid request: duplicate request id 1: a request with this id is in progress"#), "\(messages)")
    XCTAssertTrue(
      messages.contains { $0.hasPrefix("2: internal error: handler for \"forget\" released request 2") },
      "\(messages)")
    XCTAssertTrue(messages.contains { $0.hasPrefix("3: internal error: ") }, "\(messages)")
    XCTAssertTrue(messages.contains(#"1: "released""#), "\(messages)")
  }

  func testCloseFailsPendingRequestsAndRunsCloseHandlers() async throws {
    let (server, client) = try pair { server in
      server.onRequestDeferred("hang") { request in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) { request.respond("late") }
      }
    }
    let serverClosed = Box<CloseReason?>(nil)
    server.onClose { serverClosed.value = $0 }
    async let result = client.sendRequest("hang")
    usleep(50_000)
    client.close()
    do {
      _ = try await result
      XCTFail("expected closed")
    } catch let error as ConnectionError {
      XCTAssertEqual(error, .closed)
    }
    let reason = await client.closed()
    XCTAssertEqual(reason, .closedLocally)
    // The server saw end of input; it closes once the request in progress has been answered.
    waitUntil { serverClosed.value != nil }
  }

  func testHostileInputGetsErrorsAndServiceContinues() throws {
    var serverOptions = options()
    serverOptions.maxFrameSize = 4096
    let (server, peer) = try RawPeer.withServer(serverOptions) { server in
      server.onRequest("ping") { _ in "pong" }
    }
    defer { server.close() }
    peer.send(String(repeating: "[", count: 4000))  // deeper than the nesting limit
    peer.write("Content-Length: 10000\r\n\r\n" + String(repeating: " ", count: 10_000))  // over the limit
    peer.send(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
    let answers = peer.readJSON(3)
    XCTAssertEqual(answers.count, 3)
    XCTAssertEqual(answers[0]["error"]?["code"], -32700)
    XCTAssertEqual(
      answers[0]["error"]?["message"]?.stringValue?.hasPrefix(
        "parse error: arrays and objects nested deeper than 512"), true)
    XCTAssertEqual(
      answers[1]["error"]?["message"],
      "parse error: frame of 10000 bytes exceeds the limit of 4096 bytes (frame at byte offset 4024)")
    XCTAssertEqual(answers[2]["result"], "pong")
  }
}
