// Inline handlers and direct writes: faster small answers without giving up arrival order.
import Foundation
import JSONRPC
import Synchronization
import XCTest

final class InlineDispatchTests: XCTestCase {
  /// Serial dispatch: an inline handler must not overtake a queued one that arrived first, and
  /// answers to pipelined requests come back complete and in order of completion.
  func testInlineHandlersKeepArrivalOrderBehindQueuedWork() async throws {
    let options = Connection.Options(dispatch: .serial, logger: .disabled)
    let (server, client) = try Connection.socketPair(options, Connection.Options(logger: .disabled))
    let order = Mutex<[String]>([])
    server.onRequestDeferred("slow") { request in
      usleep(50_000)  // long enough that "fast" arrives while this is still queued or running
      order.withLock { $0.append("slow") }
      request.respond(.null)
    }
    server.onRequestDeferred("fast", inline: true) { request in
      order.withLock { $0.append("fast-\(request.id)") }
      request.respond(.string("\(request.id)"))
    }
    server.start()
    client.start()
    defer {
      client.close()
      server.close()
    }
    async let slow = client.sendRequest("slow")
    try await Task.sleep(for: .milliseconds(5))
    async let fast = client.sendRequest("fast")
    _ = try await (slow, fast)
    XCTAssertEqual(order.withLock { $0 }.first, "slow", "the inline handler overtook queued work")

    // With nothing queued, inline answers are written directly; many in a row stay intact.
    var answers: [JSONValue] = []
    for _ in 0..<200 { answers.append(try await client.sendRequest("fast")) }
    XCTAssertEqual(answers.count, 200)
    XCTAssertEqual(Set(answers.compactMap(\.stringValue)).count, 200)
  }

  /// Pipelined requests: every answer arrives exactly once, whether written directly or batched.
  func testPipelinedInlineAnswersAllArrive() async throws {
    let options = Connection.Options(dispatch: .serial, logger: .disabled)
    let (server, client) = try Connection.socketPair(options, Connection.Options(logger: .disabled))
    server.onRequestDeferred("echo", inline: true) { request in request.respond(request.rawParams ?? .null) }
    server.start()
    client.start()
    defer {
      client.close()
      server.close()
    }
    let results = try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
      for index in 0..<2_000 {
        group.addTask { (index, try await client.sendRequest("echo", ["n": .int(Int64(index))])) }
      }
      var results: [Int: JSONValue] = [:]
      for try await (index, value) in group { results[index] = value }
      return results
    }
    XCTAssertEqual(results.count, 2_000)
    for (index, value) in results { XCTAssertEqual(value["n"], .int(Int64(index))) }
  }

  /// Serial dispatch on the side that sent a request: its answer's completion runs after the
  /// handlers of the notifications the peer sent before the answer, and before those sent after
  /// it (a listd-tui window answered after the changes that follow it put the view back a version).
  func testAnAnswersCompletionKeepsItsPlaceAmongNotifications() throws {
    let (server, client) = try Connection.socketPair(
      Connection.Options(logger: .disabled), Connection.Options(dispatch: .serial, logger: .disabled))
    server.onRequestDeferred("window") { request in
      request.connection.notify("change", ["n": 1])
      request.respond(.string("answer"))
      request.connection.notify("change", ["n": 2])
    }
    let order = Mutex<[String]>([])
    client.onNotification("change") { notification in
      usleep(20_000)  // slow enough that an answer handled out of turn would overtake it
      order.withLock { $0.append("change \(notification.rawParams?["n"]?.intValue ?? 0)") }
    }
    server.start()
    client.start()
    defer {
      client.close()
      server.close()
    }
    for round in 0..<5 {
      order.withLock { $0 = [] }
      let done = DispatchSemaphore(value: 0)
      client.sendRequest("window") { result in
        order.withLock { $0.append((try? result.get())?.stringValue ?? "failed") }
        done.signal()
      }
      XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
      let deadline = Date().addingTimeInterval(30)
      while order.withLock({ $0.count }) < 3 && Date() < deadline { usleep(1_000) }
      XCTAssertEqual(order.withLock { $0 }, ["change 1", "answer", "change 2"], "round \(round)")
    }
  }
}
