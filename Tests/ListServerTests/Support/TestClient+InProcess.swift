// A test client of a fresh ListServer in the test process, for tests that need their own server options.
import JSONRPC
import ListServer
import ListdTestSupport

extension TestClient {
  /// A client of a new in-process server with `options` (logs off), not initialized: what
  /// `TestClient(DaemonProcess(arguments))` is end to end, with no binary started.
  static func inProcess(_ options: ServerOptions = ServerOptions(), name: String = "memory") throws
    -> TestClient
  {
    var options = options
    options.logger = .disabled
    let server = ListServer(options: options)
    // The session's handlers hold the server for as long as the connection is open.
    return TestClient(connection: try server.attachInProcess(client: connectionOptions(name: name)))
  }
}
