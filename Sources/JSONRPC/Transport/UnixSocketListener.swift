// Serves a Unix domain socket: private directory, 0600 socket, stale-socket replacement, peer uid check.
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Listens on a Unix domain socket and hands each accepted connection of the same user to a
/// callback.
///
/// - The socket is bound at `path` itself, under a 0177 umask, so it is 0600 from the start.
///   Only that one name is ever bound, and its length is checked first: `sun_path` silently
///   truncates nothing here.
/// - A stale socket (one nobody listens on, left by a daemon that died) is replaced. A socket
///   some daemon still answers on is never replaced, and a file that is not a socket is never
///   removed: both are errors.
/// - The directory must be one only the user can enter: created 0700 if missing, refused if
///   another user owns it or others can enter it.
/// - A peer whose uid (SO_PEERCRED) is not ours is refused and logged.
public final class UnixSocketListener: @unchecked Sendable {
  // `@unchecked Sendable`: `fd`, `path` and `identity` are immutable; `stopped` is behind `lock`.
  public let path: String
  private let fd: Int32
  /// The device and inode of the socket file bound, so ``stop()`` removes only that file.
  private let identity: (device: UInt64, inode: UInt64)
  private let logger: Logger
  private let lock = NSLock()
  private var stopped = false

  /// Binds and listens on `path`, preparing its directory. Throws a ``UnixSocketError`` naming
  /// the path and the problem.
  public init(path: String, logger: Logger) throws {
    self.path = path
    self.logger = logger
    try UnixSocket.checkLength(path)
    try Self.preparePrivateDirectory(UnixSocket.directory(of: path), for: path)
    let stale = try Self.isStaleSocket(path)

    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw UnixSocketError(.other, path: path, "socket(): \(UnixSocket.lastError)") }
    // Removing a stale socket leaves a moment with no file at `path`; nothing answered there.
    // Check again just before: a file that is not a socket is never removed.
    if stale, Self.fileType(path) == S_IFSOCK { unlink(path) }
    let oldMask = umask(0o177)
    let bound = try UnixSocket.withAddress(path) { bind(fd, $0, $1) }
    umask(oldMask)
    guard bound == 0 else {
      let message = UnixSocket.lastError
      Glibc.close(fd)
      throw UnixSocketError(.other, path: path, "cannot bind \(path): \(message)")
    }
    var info = stat()
    guard lstat(path, &info) == 0, listen(fd, 64) == 0 else {
      let message = UnixSocket.lastError
      unlink(path)
      Glibc.close(fd)
      throw UnixSocketError(.other, path: path, "cannot listen on \(path): \(message)")
    }
    self.fd = fd
    identity = (UInt64(info.st_dev), UInt64(info.st_ino))
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
          logger.error("accept on \(path): \(UnixSocket.lastError)")
          if errno == EBADF || errno == EINVAL { return }
          usleep(10_000)  // EMFILE and friends: do not spin
          continue
        }
        if let uid = UnixSocket.peerUID(client), uid != getuid() {
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

  /// Stops accepting and removes the socket file, if it is still the one bound. Safe to call
  /// more than once.
  public func stop() {
    let first = lock.withLock { () -> Bool in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    var info = stat()
    if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK,
      (UInt64(info.st_dev), UInt64(info.st_ino)) == identity
    {
      unlink(path)
    }
    shutdown(fd, Int32(SHUT_RDWR))
    Glibc.close(fd)
  }

  // MARK: - Helpers

  /// Creates `directory` 0700 if missing; refuses one another user owns or others can enter.
  private static func preparePrivateDirectory(_ directory: String, for path: String) throws {
    var info = stat()
    if stat(directory, &info) != 0 {
      guard errno == ENOENT else {
        throw UnixSocketError(.other, path: path, "cannot inspect \(directory): \(UnixSocket.lastError)")
      }
      guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
        throw UnixSocketError(.other, path: path, "cannot create \(directory): \(UnixSocket.lastError)")
      }
      guard stat(directory, &info) == 0 else {
        throw UnixSocketError(.other, path: path, "cannot inspect \(directory): \(UnixSocket.lastError)")
      }
    }
    if let problem = UnixSocket.privacyProblem(of: directory, info) {
      throw UnixSocketError(.untrusted, path: path, problem)
    }
  }

  /// The file type bits (`S_IFMT`) of `path` itself (symbolic links not followed); nil if absent.
  private static func fileType(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
  }

  /// Whether a socket nobody listens on is at `path` (false: nothing is there). Throws if a
  /// daemon answers there, or if something that is not a socket is there.
  private static func isStaleSocket(_ path: String) throws -> Bool {
    guard let type = fileType(path) else { return false }
    guard type == S_IFSOCK else {
      throw UnixSocketError(.other, path: path, "\(path) exists and is not a socket")
    }
    let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { Glibc.close(probe) }
    if try UnixSocket.withAddress(path, { Glibc.connect(probe, $0, $1) }) == 0 {
      throw UnixSocketError(.other, path: path, "another listd is listening on \(path)")
    }
    guard errno == ECONNREFUSED else {
      throw UnixSocketError(
        .other, path: path, "cannot tell whether a daemon listens on \(path): \(UnixSocket.lastError)")
    }
    return true
  }
}
