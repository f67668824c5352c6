// Serving a session over the in-memory transport: a connection pair inside the process.
import JSONRPC

extension ListServer {
  /// Serves a new session on one end of an in-process connection pair
  /// (``JSONRPC/Connection/socketPair(_:_:)``) and returns the other end, not started: register
  /// its handlers, then start it. The session is served exactly as one over stdio (`primary`:
  /// its `exit` calls the server's `onExit`) or a socket is, framing and parsing included, with
  /// no process or file system involved: what protocol-rule tests need.
  public func attachInProcess(primary: Bool = true, client: Connection.Options = Connection.Options())
    throws(ConnectionError) -> Connection
  {
    let (serverEnd, clientEnd) = try Connection.socketPair(
      connectionOptions(name: primary ? "stdio" : "socket"), client)
    attach(serverEnd, primary: primary)
    return clientEnd
  }
}
