// The daemon under LISTD_EVENT_LOOP: poll serves a socket end to end (always run, so the portable path is exercised); an unknown name stops it at startup.
import Foundation
import JSON
import XCTest

final class EventLoopChoiceTests: XCTestCase {
  private var directory: PrivateDirectory!
  private var socketPath: String { directory.file("listd.sock") }

  override func setUpWithError() throws {
    directory = try PrivateDirectory()
  }

  override func tearDown() {
    directory.remove()
  }

  func testUnderPollTheDaemonServesASocketAndItsSubscriptions() throws {
    let daemon = try DaemonProcess.listening(on: socketPath, environment: ["LISTD_EVENT_LOOP": "poll"])
    defer { daemon.stop() }
    let stdio = try TestClient(daemon, name: "stdio")
    let socket = try TestClient.connect(socketPath, name: "socket")
    for client in [stdio, socket] { _ = try client.initialize() }
    #if os(Linux)
      // The daemon does run on poll, not on the default: no epoll instance among its descriptors.
      let descriptors = daemon.descriptorTargets()
      XCTAssertFalse(descriptors.isEmpty)
      XCTAssertFalse(descriptors.contains { $0.contains("eventpoll") }, "descriptors: \(descriptors)")
    #endif
    try socket.request(
      "list/create", ["list": "p", "content": ["sections": [["id": "s", "items": [["id": "a"]]]]]])
    try socket.request("list/subscribe", ["list": "p", "snapshot": "none"])
    try stdio.request("list/edit", ["list": "p", "edits": [["op": "appendItems", "items": [["id": "b"]]]]])
    XCTAssertEqual(socket.next("list/didChange") { $0["list"] == "p" }?["version"], 1)
    // Large frames both ways cross many reads and writes through the loop.
    let items: [JSONValue] = (0..<8_000).map { ["id": .string("i\($0)")] }
    try stdio.request("list/edit", ["list": "p", "edits": [["op": "appendItems", "items": .array(items)]]])
    XCTAssertNotNil(socket.next("list/didChange") { $0["version"] == 2 })
    XCTAssertEqual(try socket.request("list/info", ["list": "p"])["version"], 2)
  }

  func testAnUnknownEventLoopStopsTheDaemonAtStartupNamingTheValue() throws {
    let daemon = try DaemonProcess([], environment: ["LISTD_EVENT_LOOP": "select"])
    XCTAssertEqual(daemon.waitForExit(), 2)
    let message = daemon.standardError()
    XCTAssertTrue(message.contains("LISTD_EVENT_LOOP=select: unknown event loop"), message)
    XCTAssertTrue(message.contains("poll"), "the choices are named: \(message)")
  }
}

extension DaemonProcess {
  /// What the daemon's descriptors refer to (Linux: the links of /proc/PID/fd).
  func descriptorTargets() -> [String] {
    let folder = "/proc/\(pid)/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }
  }
}
