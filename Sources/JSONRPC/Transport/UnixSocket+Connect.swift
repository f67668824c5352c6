// The client side of the Unix socket: connect only to a socket, and a daemon, of this user.

extension UnixSocket {
  /// Connects to the daemon's socket at `path` and returns the connected descriptor, after
  /// checking it is this user's: another local user must not receive our requests by listening
  /// first at a path we trust.
  ///
  /// - At ``defaultPath``, its directory must exist as a directory of this user's that nobody
  ///   else can enter (the daemon creates it so).
  /// - The socket file must be a socket owned by this user.
  /// - The process that accepted must run as this user (its peer credentials, read from the kernel).
  ///
  /// Throws a ``UnixSocketError`` whose message names `path` and the problem; its kind is
  /// ``UnixSocketError/Kind/noDaemon`` when nothing exists or listens at `path`.
  public static func connect(to path: String = defaultPath) throws -> Int32 {
    try connect(to: path, privateDirectory: path == defaultPath)
  }

  /// ``connect(to:)``, checking the directory when `privateDirectory` (at any path: for tests).
  static func connect(to path: String, privateDirectory: Bool) throws -> Int32 {
    try checkLength(path)
    func failure(_ kind: UnixSocketError.Kind, _ problem: String) -> UnixSocketError {
      UnixSocketError(kind, path: path, "cannot connect to \(path): \(problem)")
    }
    if privateDirectory {
      let directory = Self.directory(of: path)
      var info = stat()
      if stat(directory, &info) == 0 {
        if let problem = privacyProblem(of: directory, info) { throw failure(.untrusted, problem) }
      } else if errno != ENOENT {
        throw failure(.other, "cannot inspect \(directory): \(lastError)")
      }  // a missing directory: connecting says "No such file or directory"
    }
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw failure(errno == ENOENT ? .noDaemon : .other, lastError)
    }
    switch info.st_mode & S_IFMT {
    case S_IFSOCK: break
    case S_IFDIR: throw failure(.other, "it is a directory, not a socket")
    default: throw failure(.other, "it is not a socket")
    }
    guard info.st_uid == getuid() else {
      throw failure(
        .untrusted, "the socket belongs to uid \(info.st_uid), not to this user (uid \(getuid()))")
    }

    let fd = socket(AF_UNIX, Platform.streamSocket, 0)
    guard fd >= 0 else { throw failure(.other, "socket(): \(lastError)") }
    Platform.suppressSIGPIPE(fd)
    guard try withAddress(path, { Platform.connect(fd, $0, $1) }) == 0 else {
      let code = errno
      Platform.close(fd)
      throw failure(
        code == ENOENT || code == ECONNREFUSED ? .noDaemon : .other, String(cString: strerror(code)))
    }
    if let problem = peerProblem(uid: peerUID(fd)) {
      Platform.close(fd)
      throw failure(.untrusted, problem)
    }
    return fd
  }
}
