// The daemon's name, version and protocol version, as `initialize` and `--version` report them.

/// Identification of this build of listd.
public enum ServerInfo {
  public static let name = "listd"
  public static let version = "0.1.0"
  /// The protocol version of Protocol/README.md.
  public static let protocolVersion = 1
}
