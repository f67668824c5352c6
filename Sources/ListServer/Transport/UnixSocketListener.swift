// Serves a Unix domain socket: private directory, 0600 socket, stale-socket replacement, peer uid check.
import Foundation
import JSONRPC

#if canImport(Glibc)
  import Glibc
#endif

/// Listens on a Unix domain socket and hands each accepted connection of the same user to a
/// callback.
///
/// - The socket is created with mode 0600 (under a 0177 umask, so it is never wider) and
///   atomically renamed into place, which also replaces a stale socket left by a daemon that
///   died. A socket some daemon still answers on is never replaced: that is an error.
/// - The default path lives in a directory only the user can enter: `$XDG_RUNTIME_DIR/listd/`,
///   else `/tmp/listd-$UID/`, created 0700 and refused if another user owns it or others can
///   enter it.
/// - A peer whose uid (SO_PEERCRED) is not ours is refused and logged.
public final class UnixSocketListener: @unchecked Sendable {
  // `@unchecked Sendable`: `fd` and `path` are immutable; `stopped` is behind `lock`.
  public let path: String
  private let fd: Int32
  private let logger: Logger
  private let lock = NSLock()
  private var stopped = false

  /// The default socket path: `$XDG_RUNTIME_DIR/listd/listd.sock`, else `/tmp/listd-$UID/listd.sock`.
  public static var defaultPath: String {
    let environment = ProcessInfo.processInfo.environment
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      return runtime + "/listd/listd.sock"
    }
    return "/tmp/listd-\(getuid())/listd.sock"
  }

  /// Binds and listens on `path`, preparing its directory. Throws a message naming the problem.
  public init(path: String, logger: Logger) throws {
    self.path = path
    self.logger = logger
    let directory = (path as NSString).deletingLastPathComponent
    try Self.preparePrivateDirectory(directory.isEmpty ? "." : directory, logger: logger)
    guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
      throw ListenerError("socket path is too long (\(path.utf8.count) bytes): \(path)")
    }
    try Self.refuseLiveSocket(at: path)

    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ListenerError("socket(): \(String(cString: strerror(errno)))") }
    // Bind to a private temporary name, then rename over `path`: atomic, and it replaces a
    // stale socket without a window where `path` is missing or wider than 0600.
    let temporary = path + ".\(getpid()).tmp"
    unlink(temporary)
    let oldMask = umask(0o177)
    let bound = Self.withAddress(temporary) { bind(fd, $0, $1) }
    umask(oldMask)
    guard bound == 0 else {
      let message = String(cString: strerror(errno))
      Glibc.close(fd)
      throw ListenerError("cannot bind \(path): \(message)")
    }
    chmod(temporary, 0o600)
    guard rename(temporary, path) == 0, listen(fd, 64) == 0 else {
      let message = String(cString: strerror(errno))
      unlink(temporary)
      Glibc.close(fd)
      throw ListenerError("cannot listen on \(path): \(message)")
    }
    self.fd = fd
  }

  /// Accepts connections on a background thread until ``stop()``; each accepted descriptor of
  /// a peer with our uid goes to `handler`, which owns it from then on.
  public func start(_ handler: @escaping @Sendable (Int32) -> Void) {
    let thread = Thread { [self] in
      while true {
        let client = accept(fd, nil, nil)
        if client < 0 {
          if errno == EINTR { continue }
          if isStopped { return }
          logger.error("accept on \(path): \(String(cString: strerror(errno)))")
          if errno == EBADF || errno == EINVAL { return }
          usleep(10_000)  // EMFILE and friends: do not spin
          continue
        }
        if let uid = Self.peerUID(client), uid != getuid() {
          logger.warning(
            "refused a connection on \(path) from uid \(uid) (this daemon runs as uid \(getuid()))")
          Glibc.close(client)
          continue
        }
        handler(client)
      }
    }
    thread.name = "listd.accept"
    thread.start()
  }

  private var isStopped: Bool { lock.withLock { stopped } }

  /// Stops accepting and removes the socket file. Safe to call more than once.
  public func stop() {
    let first = lock.withLock { () -> Bool in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    unlink(path)
    shutdown(fd, Int32(SHUT_RDWR))
    Glibc.close(fd)
  }

  // MARK: - Helpers

  /// Creates `directory` 0700 if missing; refuses one another user owns or others can enter.
  static func preparePrivateDirectory(_ directory: String, logger: Logger) throws {
    var info = stat()
    if stat(directory, &info) != 0 {
      guard errno == ENOENT else {
        throw ListenerError("cannot inspect \(directory): \(String(cString: strerror(errno)))")
      }
      guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
        throw ListenerError("cannot create \(directory): \(String(cString: strerror(errno)))")
      }
      guard stat(directory, &info) == 0 else { throw ListenerError("cannot inspect \(directory)") }
    }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw ListenerError("\(directory) is not a directory") }
    guard info.st_uid == getuid() else {
      throw ListenerError("\(directory) belongs to uid \(info.st_uid), not to this user (uid \(getuid()))")
    }
    if info.st_mode & 0o077 != 0 {
      throw ListenerError(
        "\(directory) can be entered by other users (mode \(String(info.st_mode & 0o777, radix: 8))); "
          + "use a directory only you can enter (chmod 700)")
    }
  }

  /// Throws if a daemon answers on `path`; anything else there that is not a socket is refused.
  private static func refuseLiveSocket(at path: String) throws {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw ListenerError("\(path) exists and is not a socket") }
    let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { Glibc.close(probe) }
    if withAddress(path, { Glibc.connect(probe, $0, $1) }) == 0 {
      throw ListenerError("another listd is listening on \(path)")
    }
  }

  /// The uid of the peer of a connected Unix socket.
  static func peerUID(_ fd: Int32) -> uid_t? {
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
  }

  /// Calls `body` with a `sockaddr_un` for `path`.
  static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      let bytes = Array(path.utf8.prefix(raw.count - 1))
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }

  /// Connects to the socket at `path`; returns the descriptor. For clients and tests.
  public static func connect(to path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ListenerError("socket(): \(String(cString: strerror(errno)))") }
    guard withAddress(path, { Glibc.connect(fd, $0, $1) }) == 0 else {
      let message = String(cString: strerror(errno))
      Glibc.close(fd)
      throw ListenerError("cannot connect to \(path): \(message)")
    }
    return fd
  }
}

/// A listener failure, with a message naming the path and the cause.
public struct ListenerError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
