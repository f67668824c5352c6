// A test case with a fresh ListServer in the test process and an initialized client for every test.
import ListdTestSupport
import XCTest

/// Base of the protocol-rule tests: a new server and `client` for each test method. The client
/// talks to the server over an in-memory connection pair (``TestClient/inProcess(_:name:)``), as
/// an editor talks to `listd` over stdio, and validates every server message against
/// Protocol/protocol.json; no binary is started.
class InProcessServerTestCase: XCTestCase {
  var client: TestClient!

  override func setUpWithError() throws {
    client = try TestClient.inProcess()
    try client.initialize()
  }

  override func tearDown() {
    client.close()
    client = nil
  }
}
