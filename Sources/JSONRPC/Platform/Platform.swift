// The one place JSONRPC meets the C library: its import, and the calls that differ between Linux and Darwin.
#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Darwin)
  @_exported import Darwin
#endif

/// The C library's calls under names no method shadows (a connection has a `close()` of its
/// own), and the few that differ between platforms. Public, so that every module above JSONRPC
/// extends this one type with its own platform calls rather than wrapping the C library again.
public enum Platform {
  /// `close(2)`.
  @inline(__always) @discardableResult
  public static func close(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.close(fd)
    #else
      Darwin.close(fd)
    #endif
  }

  /// `read(2)`.
  @inline(__always)
  public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(fd, buffer, count)
    #else
      Darwin.read(fd, buffer, count)
    #endif
  }

  /// `write(2)`.
  @inline(__always)
  public static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(fd, buffer, count)
    #else
      Darwin.write(fd, buffer, count)
    #endif
  }

  /// `connect(2)`.
  @inline(__always)
  static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
      Glibc.connect(fd, address, length)
    #else
      Darwin.connect(fd, address, length)
    #endif
  }

  /// `SOCK_STREAM` as `socket(2)` takes it (an enum in Glibc's import, an `Int32` in Darwin's).
  static var streamSocket: Int32 {
    #if canImport(Glibc)
      Int32(SOCK_STREAM.rawValue)
    #else
      SOCK_STREAM
    #endif
  }

  /// Makes writing to `socket` after its peer left fail with EPIPE rather than raise SIGPIPE.
  ///
  /// Linux: nothing to do per socket — ``Connection/start()`` ignores SIGPIPE for the process
  /// (writes use write(2), which takes no `MSG_NOSIGNAL`). Darwin: also `SO_NOSIGPIPE` on the
  /// socket (setsockopt(2)), so a socket handed to code that restores SIGPIPE stays safe.
  @inline(__always)
  static func suppressSIGPIPE(_ socket: Int32) {
    #if canImport(Darwin)
      var on: Int32 = 1
      _ = setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  /// The uid of the process at the other end of a connected Unix socket; nil if it cannot be read.
  ///
  /// Linux: `getsockopt(SO_PEERCRED)`. Darwin: `getpeereid(3)` (the effective uid the peer had
  /// when it connected or listened; built on `LOCAL_PEERCRED`).
  static func peerUID(_ fd: Int32) -> uid_t? {
    #if canImport(Glibc)
      // Linux's `struct ucred`, which Glibc's module map leaves out (it needs _GNU_SOURCE).
      struct PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
      }
      var credentials = PeerCredentials()
      var length = socklen_t(MemoryLayout<PeerCredentials>.size)
      guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
      return credentials.uid
    #else
      var uid: uid_t = 0
      var gid: gid_t = 0
      guard getpeereid(fd, &uid, &gid) == 0 else { return nil }
      return uid
    #endif
  }

  /// How the peer's uid is read, for messages.
  static let peerCredentialsCall: String = {
    #if canImport(Glibc)
      "SO_PEERCRED"
    #else
      "getpeereid"
    #endif
  }()

  /// The directory the default socket's `listd/listd.sock` goes in, trailing slashes removed
  /// (`""` for `/`); nil for the fallback, `/tmp/listd-$UID`.
  ///
  /// Linux: `$XDG_RUNTIME_DIR`. Darwin: the per-user temporary directory — `$TMPDIR`, or
  /// `confstr(_CS_DARWIN_USER_TEMP_DIR)` when it is unset (a GUI app may lack it), so an editor
  /// started from the Dock and a shell find the same daemon; `XDG_RUNTIME_DIR` is not read there.
  /// A value that is not an absolute path counts as unset: the XDG Base Directory spec says a
  /// relative path must be ignored, and a relative socket would move with the working directory.
  static func defaultSocketBase(_ environment: [String: String]) -> String? {
    #if canImport(Darwin)
      if let temporary = absolute(environment["TMPDIR"]) { return temporary }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
      let needed = confstr(_CS_DARWIN_USER_TEMP_DIR, &buffer, buffer.count)
      guard needed > 0, needed <= buffer.count else { return nil }
      return absolute(String(cString: buffer))
    #else
      return absolute(environment["XDG_RUNTIME_DIR"])
    #endif
  }

  /// The environment variable naming the default socket's directory (for --help and man pages).
  static let defaultSocketVariable: String = {
    #if canImport(Darwin)
      "TMPDIR"
    #else
      "XDG_RUNTIME_DIR"
    #endif
  }()

  /// Where the default socket's directory is without ``defaultSocketVariable`` (for --help and man pages).
  static let defaultSocketOtherwise: String = {
    #if canImport(Darwin)
      "confstr(_CS_DARWIN_USER_TEMP_DIR), else /tmp/listd-$UID"
    #else
      "/tmp/listd-$UID"
    #endif
  }()

  /// `path` without its trailing slashes, or nil unless it is absolute.
  private static func absolute(_ path: String?) -> String? {
    guard let path, path.hasPrefix("/") else { return nil }
    var trimmed = Substring(path)
    while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    return String(trimmed)
  }
}
