// The error of the Unix socket transport: a message naming the path and the problem, and its kind.
/// A Unix socket failure: listening, connecting, or a socket, directory or peer not trusted.
public struct UnixSocketError: Error, CustomStringConvertible, Sendable {
  /// What kind of failure, for callers that advise differently (say, how to start a daemon).
  public enum Kind: Sendable, Equatable {
    /// Nothing answers at the path: it does not exist, or nobody listens on the socket.
    case noDaemon
    /// The socket, its directory or the process behind it is not this user's.
    case untrusted
    /// Anything else: a path too long, not a socket, a system call failing.
    case other
  }

  /// The socket path concerned.
  public let path: String
  public let kind: Kind
  /// The whole message, naming `path`.
  public let description: String

  init(_ kind: Kind, path: String, _ description: String) {
    self.kind = kind
    self.path = path
    self.description = description
  }
}
