// What kind of descriptor a connection reads or writes, and making pipes and sockets non-blocking.

/// How a descriptor can be served.
enum DescriptorKind: Equatable {
  /// A pipe or a socket: made non-blocking and watched by the event loop.
  case stream
  /// A terminal: watched by the event loop (unless its backend cannot) but left blocking (its
  /// open file description is shared with the shell, which must not find it non-blocking).
  case terminal
  /// A regular file, /dev/null, anything the event loop cannot watch: read and written blocking (they never
  /// wait for long).
  case other

  init(_ fd: Int32) {
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      self = .other
      return
    }
    let type = info.st_mode & S_IFMT
    if type == S_IFIFO || type == S_IFSOCK {
      self = .stream
    } else if type == S_IFCHR && isatty(fd) == 1 {
      self = .terminal
    } else {
      self = .other
    }
  }

  var isPollable: Bool { self == .stream || (self == .terminal && EventLoopKind.current.watchesTerminals) }

  /// Whether `fd` is a socket.
  static func isSocket(_ fd: Int32) -> Bool {
    var info = stat()
    return fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
  }
}

enum DescriptorIO {
  /// Makes reads and writes of `fd` return EAGAIN instead of blocking.
  static func makeNonBlocking(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  }
}
