// The version of this build of the clients, and the protocol version they speak.

extension ListClient {
  /// The package version, as `listctl --version` and `listd-tui --version` print it: the same as
  /// `listd --version` (ServerInfo in ListServer, which clients do not link; a test compares them).
  public static let version = "0.1.0"
  /// The version of the protocol (Protocol/README.md) this client speaks.
  public static let protocolVersion = 1
}
