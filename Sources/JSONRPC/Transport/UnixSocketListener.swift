// Serves a Unix domain socket: private directory, 0600 socket, stale-socket replacement, peer uid check.
import Foundation

/// Listens on a Unix domain socket and hands each accepted connection of the same user to a
/// callback.
///
/// - The socket is bound under a 0177 umask, so it is 0600 from the start, to a temporary name
///   beside `path`; it listens, then is renamed into place: once the file exists it accepts.
///   (When the temporary name is too long or taken, it is bound at `path` itself.) The length of
///   every name bound is checked first: none is ever truncated to fit `sun_path`.
/// - A stale socket (one nobody listens on, left by a daemon that died) is replaced. A socket
///   some daemon still answers on is never replaced, and a file that is not a socket is never
///   removed: both are errors.
/// - The directory must be one only the user can enter: created 0700 if missing, refused if
///   another user owns it or others can enter it.
/// - A peer whose uid (from its peer credentials) is not ours is refused and logged.
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

    let fd = socket(AF_UNIX, Platform.streamSocket, 0)
    guard fd >= 0 else { throw UnixSocketError(.other, path: path, "socket(): \(UnixSocket.lastError)") }
    var info = stat()
    do {
      if try !Self.listenAndRename(fd, path) {
        try Self.listenInPlace(fd, path, replacingStale: stale)
      }
      guard lstat(path, &info) == 0 else {
        throw UnixSocketError(.other, path: path, "cannot inspect \(path): \(UnixSocket.lastError)")
      }
    } catch {
      Platform.close(fd)
      throw error
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
          Platform.close(client)
          continue
        }
        Platform.suppressSIGPIPE(client)
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
    Platform.close(fd)
  }

  // MARK: - Helpers

  /// Binds `fd` to the temporary name `PATH.<pid>.tmp`, listens, then renames it over `path`: the
  /// socket file appears ready (whoever finds it can connect) and replaces a stale socket
  /// atomically. Returns false, with nothing bound, when the temporary name does not fit in
  /// `sun_path` or is taken: whatever has that name is left alone (bind never replaces a file).
  private static func listenAndRename(_ fd: Int32, _ path: String) throws -> Bool {
    let temporary = path + ".\(getpid()).tmp"
    guard temporary.utf8.count <= UnixSocket.maximumPathBytes, fileType(temporary) == nil else {
      return false
    }
    guard try bindPrivately(fd, temporary) else {
      if errno == EADDRINUSE { return false }  // it appeared since: leave it be
      throw UnixSocketError(.other, path: path, "cannot bind \(temporary): \(UnixSocket.lastError)")
    }
    guard listen(fd, 64) == 0, rename(temporary, path) == 0 else {
      let message = UnixSocket.lastError
      unlink(temporary)  // the socket bound just now
      throw UnixSocketError(.other, path: path, "cannot listen on \(path): \(message)")
    }
    return true
  }

  /// Binds `fd` at `path` itself, after removing the stale socket there if any, and listens. A
  /// client finding the file between bind and listen is refused: only names too long for a
  /// temporary name beside them, or whose temporary name is taken, come this way.
  private static func listenInPlace(_ fd: Int32, _ path: String, replacingStale stale: Bool) throws {
    // Check again just before: a file that is not a socket is never removed.
    if stale, fileType(path) == S_IFSOCK { unlink(path) }
    guard try bindPrivately(fd, path) else {
      throw UnixSocketError(.other, path: path, "cannot bind \(path): \(UnixSocket.lastError)")
    }
    guard listen(fd, 64) == 0 else {
      let message = UnixSocket.lastError
      unlink(path)  // the socket bound just now
      throw UnixSocketError(.other, path: path, "cannot listen on \(path): \(message)")
    }
  }

  /// Binds `fd` to `name` under a 0177 umask, so the socket file is 0600 from the start. False,
  /// with `errno` set, if bind fails.
  private static func bindPrivately(_ fd: Int32, _ name: String) throws -> Bool {
    let oldMask = umask(0o177)
    defer { umask(oldMask) }
    return try UnixSocket.withAddress(name) { bind(fd, $0, $1) } == 0
  }

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
    let probe = socket(AF_UNIX, Platform.streamSocket, 0)
    defer { Platform.close(probe) }
    if try UnixSocket.withAddress(path, { Platform.connect(probe, $0, $1) }) == 0 {
      throw UnixSocketError(.other, path: path, "another listd is listening on \(path)")
    }
    guard errno == ECONNREFUSED else {
      throw UnixSocketError(
        .other, path: path, "cannot tell whether a daemon listens on \(path): \(UnixSocket.lastError)")
    }
    return true
  }
}
