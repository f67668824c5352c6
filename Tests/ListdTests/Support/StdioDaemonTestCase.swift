// A test case with a fresh `listd` on stdio and an initialized client for every test.
import XCTest

/// Base of the end-to-end rule tests: `daemon` and `client` are new for each test method.
class StdioDaemonTestCase: XCTestCase {
  var daemon: DaemonProcess!
  var client: TestClient!

  override func setUpWithError() throws {
    daemon = try DaemonProcess()
    client = try TestClient(daemon)
    try client.initialize()
  }

  override func tearDown() {
    client.close()
    daemon.stop()
  }
}
