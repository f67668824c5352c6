// The in-memory transport itself: a server attached to an in-process pair serves sessions as over stdio.
import JSON
import XCTest

final class InProcessTransportTests: XCTestCase {
  private let content: JSONValue = ["sections": [["id": "s", "items": [["id": "a"]]]]]

  /// The session is gated as any other, answers, and is the server's until its client closes.
  func testASessionOverThePairIsGatedAndAnswers() throws {
    let client = try TestClient.inProcess()
    defer { client.close() }
    XCTAssertEqual(client.error("list/info", ["list": "l"]).code.rawValue, -32002, "before initialize")
    try client.initialize()
    try client.request("list/create", ["list": "l", "content": content])
    XCTAssertEqual(try client.version(of: "l"), 0)
    XCTAssertEqual(client.error("initialize", [:]).code.rawValue, -32600, "initialize twice on one session")
  }

  /// Two clients of one server are two sessions: one sees the list the other created, and the
  /// list loses its owner when its creator's connection closes.
  func testTwoClientsOfOneServerAreTwoSessions() throws {
    let server = TestClient.server()
    let first = try TestClient.inProcess(of: server, primary: true, name: "first")
    let second = try TestClient.inProcess(of: server, name: "second")
    defer { second.close() }
    try first.initialize()
    try second.initialize()
    try first.request("list/create", ["list": "l", "content": content])
    XCTAssertEqual(try second.version(of: "l"), 0)
    try second.request("list/subscribe", ["list": "l"])
    first.close()
    XCTAssertNotNil(
      second.next("window/logMessage") { $0["message"]?.stringValue?.contains("lost its owner") == true })
  }
}
