// Two connections joined inside the process: the in-memory transport for tests and in-process clients.
import Foundation

extension Connection {
  /// Two connections joined by a Unix socket pair inside the process, each owning its end: the
  /// in-memory transport (as lsp-server's `Connection::memory()`), for tests and in-process
  /// clients. Neither is started: register handlers on each, then ``start()`` it. The bytes
  /// still go through framing and parsing, so either end behaves as over stdio or a socket.
  public static func socketPair(_ first: Options = Options(), _ second: Options = Options())
    throws(ConnectionError)
    -> (Connection, Connection)
  {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Platform.streamSocket, 0, &fds) == 0 else { throw .system("socketpair", errno) }
    for fd in fds { Platform.suppressSIGPIPE(fd) }
    var firstOptions = first
    var secondOptions = second
    firstOptions.closesDescriptors = true
    secondOptions.closesDescriptors = true
    return (
      try Connection(input: fds[0], output: fds[0], options: firstOptions),
      try Connection(input: fds[1], output: fds[1], options: secondOptions)
    )
  }
}
