// The Unix socket basics shared by the listener and clients: the default path, addresses, directory and peer checks.
import Foundation

/// Unix domain socket helpers for the daemon's socket: where it lives, how a name becomes a
/// `sockaddr_un`, and what makes a directory, socket file or peer this user's.
public enum UnixSocket {
  /// The default socket path: `$XDG_RUNTIME_DIR/listd/listd.sock` on Linux, `$TMPDIR/listd/listd.sock`
  /// (the per-user temporary directory, else `confstr(_CS_DARWIN_USER_TEMP_DIR)`) on macOS; else
  /// `/tmp/listd-$UID/listd.sock`. A relative directory counts as unset; trailing slashes are dropped.
  public static var defaultPath: String { defaultPath(environment: ProcessInfo.processInfo.environment) }

  /// The default socket path under `environment` (see ``defaultPath``).
  public static func defaultPath(environment: [String: String]) -> String {
    if let base = Platform.defaultSocketBase(environment) {
      return base + "/listd/listd.sock"
    }
    return "/tmp/listd-\(getuid())/listd.sock"
  }

  /// The environment variable whose directory holds the default socket: `XDG_RUNTIME_DIR` on
  /// Linux, `TMPDIR` on macOS.
  public static var defaultDirectoryVariable: String { Platform.defaultSocketVariable }

  /// The ENVIRONMENT line on the default socket's directory, for --help and man pages.
  public static var environmentHelp: String {
    "\(defaultDirectoryVariable): the directory of the default socket, listd/listd.sock in it; "
      + "unset, empty or not an absolute path: \(Platform.defaultSocketOtherwise)."
  }

  /// The default socket path as a rule, for documentation: `$XDG_RUNTIME_DIR/listd/listd.sock` on
  /// Linux, `$TMPDIR/listd/listd.sock` on macOS.
  public static var defaultPathRule: String { "$\(defaultDirectoryVariable)/listd/listd.sock" }

  /// The longest path a socket can have, in bytes: `sun_path` (108 bytes on Linux, 104 on
  /// Darwin) less its NUL.
  public static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// The directory holding `path` (`.` for a bare name).
  static func directory(of path: String) -> String {
    let directory = (path as NSString).deletingLastPathComponent
    return directory.isEmpty ? "." : directory
  }

  /// Throws unless `path` fits in `sun_path` whole: a name is never truncated.
  static func checkLength(_ path: String) throws {
    guard !path.utf8.contains(0) else {
      throw UnixSocketError(.other, path: path, "socket path contains a NUL byte: \(path)")
    }
    guard !path.isEmpty else { throw UnixSocketError(.other, path: path, "socket path is empty") }
    let bytes = path.utf8.count
    guard bytes <= maximumPathBytes else {
      throw UnixSocketError(
        .other, path: path,
        "socket path is too long: \(path) is \(bytes) bytes; the limit is \(maximumPathBytes) bytes")
    }
  }

  /// Calls `body` with a `sockaddr_un` for `path`; throws (see ``checkLength(_:)``) rather than
  /// truncate a name that does not fit.
  static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws -> T {
    try checkLength(path)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      let bytes = Array(path.utf8)
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }

  /// Why the existing `directory` (whose `stat` is `info`) is not private to this user: another
  /// user owns it, or others can enter it. Nil when it is private.
  static func privacyProblem(of directory: String, _ info: stat) -> String? {
    guard info.st_mode & S_IFMT == S_IFDIR else { return "\(directory) is not a directory" }
    guard info.st_uid == getuid() else {
      return "\(directory) belongs to uid \(info.st_uid), not to this user (uid \(getuid()))"
    }
    guard info.st_mode & 0o077 == 0 else {
      return "\(directory) can be entered by other users (mode \(String(info.st_mode & 0o777, radix: 8))); "
        + "use a directory only you can enter (chmod 700)"
    }
    return nil
  }

  /// The uid of the peer of a connected Unix socket (from the kernel: see ``Platform/peerUID(_:)``);
  /// nil if it cannot be read.
  public static func peerUID(_ fd: Int32) -> uid_t? { Platform.peerUID(fd) }

  /// Why a daemon whose peer uid is `uid` (from ``peerUID(_:)``) is not to be trusted by a
  /// process running as `expected`: it runs as another user, or its uid is unknown. Nil if trusted.
  public static func peerProblem(uid: uid_t?, expected: uid_t = getuid()) -> String? {
    guard let uid else { return "cannot read the peer's credentials (\(Platform.peerCredentialsCall))" }
    guard uid == expected else {
      return "the daemon there runs as uid \(uid), not as this user (uid \(expected))"
    }
    return nil
  }

  /// The message of the last failed system call.
  static var lastError: String { String(cString: strerror(errno)) }
}
