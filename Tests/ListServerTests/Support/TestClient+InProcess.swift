// Test clients of a ListServer in the test process: each one a session over an in-memory connection pair.
import JSONRPC
import ListServer
import ListdTestSupport
import XCTest

extension TestClient {
  /// A new in-process server with `options`, logs off (what `listd` with those options is).
  static func server(_ options: ServerOptions = ServerOptions()) -> ListServer {
    var options = options
    options.logger = .disabled
    return ListServer(options: options)
  }

  /// A client of a new in-process server with `options`, not initialized: what
  /// `TestClient(DaemonProcess(arguments))` is end to end, with no binary started.
  static func inProcess(_ options: ServerOptions = ServerOptions(), name: String = "memory") throws
    -> TestClient
  {
    try inProcess(of: server(options), primary: true, name: name)
  }

  /// A new session of `server`, not initialized: `primary` as the stdio client, otherwise as a
  /// socket client. `configure` registers handlers before the connection starts. The session's
  /// handlers hold the server for as long as the connection is open.
  static func inProcess(
    of server: ListServer, primary: Bool = false, name: String = "memory",
    configure: (Connection) -> Void = { _ in }
  ) throws -> TestClient {
    TestClient(
      connection: try server.attachInProcess(primary: primary, client: connectionOptions(name: name)),
      configure: configure)
  }

  /// Drops the connection the way a vanishing client does (the server reads end of file),
  /// without `shutdown`/`exit`; checks conformance first.
  func disconnect(file: StaticString = #filePath, line: UInt = #line) {
    assertConformance(file: file, line: line)
    connection.close()
    connection.waitUntilClosed()
  }
}
