// The raw end of an in-process session: bytes below JSON-RPC to a ListServer in the test process.
import Foundation
import JSONRPC
import ListServer
import ListdTestSupport

extension RawClient {
  /// A raw client of a new session of `server` over a Unix socket pair inside the process:
  /// `primary` as the stdio client, otherwise as a socket client. The server end is served
  /// exactly as `ListServer.attachInProcess` serves it; this end is bytes, for malformed frames
  /// and for reading messages in the order they arrive.
  static func inProcess(of server: ListServer, primary: Bool = true) throws -> RawClient {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
      throw TestFailure("socketpair: \(String(cString: strerror(errno)))")
    }
    var options = server.connectionOptions(name: primary ? "stdio" : "socket")
    options.closesDescriptors = true
    server.attach(try Connection(input: fds[0], output: fds[0], options: options), primary: primary)
    return RawClient(reading: fds[1], writing: fds[1], owns: true)
  }
}
