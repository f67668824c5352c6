// Idle connections cost no thread each: 2,000 sessions, then all close, and the daemon is back where it started.
import Foundation
import JSON
import JSONRPC
import XCTest

final class IdleConnectionsTests: XCTestCase {
  /// 2,000 connected, initialized and idle socket sessions keep the daemon under 64 threads
  /// (each connection once had a reader and a writer thread: 4,004), every one of them is still
  /// served, and once they all close the daemon's threads, descriptors and memory are back where
  /// they were (measured after a first round, once the allocator has grown).
  func testTwoThousandIdleSessionsUseFewThreadsAndGiveEverythingBackWhenTheyClose() throws {
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let path = directory.file("listd.sock")
    let daemon = try DaemonProcess.listening(on: path, ["--stay", "--log-level", "warning"])
    defer { daemon.stop() }
    let sessions = 2_000

    /// Connects `sessions` clients, each initialized (its answer read) and then left idle.
    func connectAll() throws -> [RawClient] {
      var clients: [RawClient] = []
      for index in 0..<sessions {
        let client = try RawClient.socket(path)
        client.sendRequest(id: 1, "initialize", ["clientInfo": ["name": .string("idle-\(index)")]])
        guard client.response(id: 1) != nil else {
          throw TestFailure("session \(index) was not initialized: \(daemon.standardError())")
        }
        clients.append(client)
      }
      return clients
    }

    func closeAll(_ clients: [RawClient]) {
      for client in clients { client.close() }
    }

    /// A round: every session connects and idles, a few are asked something, all close.
    func round() throws {
      let clients = try connectAll()
      let busy = try XCTUnwrap(daemon.threadCount())
      XCTAssertLessThan(busy, 64, "threads with \(sessions) idle sessions")
      XCTAssertGreaterThanOrEqual(daemon.openDescriptors(), sessions)
      // Every idle session is still served, the first as the last.
      for client in [clients[0], clients[sessions / 2], clients[sessions - 1]] {
        let answer = client.request(id: 2, "list/all", ["limit": 1])
        XCTAssertEqual(answer?["result"]?["total"], 0, "\(answer.map { "\($0)" } ?? "no answer")")
      }
      closeAll(clients)
    }

    // First round: thread pools, caches and the allocator grow to their working size.
    try round()
    XCTAssertTrue(waitUntil(timeout: 20) { daemon.openDescriptors() <= 12 }, "descriptors never settled")
    XCTAssertTrue(waitUntil(timeout: 60) { daemon.threadCount() ?? .max <= 12 }, "threads never settled")
    let descriptors = daemon.openDescriptors()
    let threads = try XCTUnwrap(daemon.threadCount())
    let resident = try XCTUnwrap(daemon.residentKiB())

    try round()

    XCTAssertTrue(
      waitUntil(timeout: 20) { daemon.openDescriptors() <= descriptors },
      "descriptors \(daemon.openDescriptors()), \(descriptors) before: \(Self.describe(daemon))")
    XCTAssertTrue(
      // Idle dispatch workers retire one at a time, some seconds apart.
      waitUntil(timeout: 60) { daemon.threadCount() ?? .max <= threads },
      "threads \(daemon.threadCount() ?? -1), \(threads) before: \(Self.describe(daemon))")
    // A kilobyte kept per closed session would add 2,000 KiB.
    let grown = (daemon.residentKiB() ?? .max) - resident
    XCTAssertLessThan(grown, 1_024, "RSS grew by \(grown) KiB over a second round of \(sessions) sessions")
    XCTAssertTrue(daemon.process.isRunning)
  }

  /// The daemon's open descriptors and its threads' names, for a failure message.
  private static func describe(_ daemon: DaemonProcess) -> String {
    let fd = "/proc/\(daemon.pid)/fd"
    let links = ((try? FileManager.default.contentsOfDirectory(atPath: fd)) ?? []).sorted().map {
      "\($0)→" + ((try? FileManager.default.destinationOfSymbolicLink(atPath: fd + "/" + $0)) ?? "?")
    }
    let task = "/proc/\(daemon.pid)/task"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: task)) ?? []).map {
      ((try? String(contentsOfFile: task + "/" + $0 + "/comm", encoding: .utf8)) ?? "?")
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    return "descriptors \(links.joined(separator: " ")); threads \(names.sorted().joined(separator: ", "))"
  }
}
