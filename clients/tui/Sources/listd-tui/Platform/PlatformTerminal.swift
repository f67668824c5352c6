// listd-tui's platform calls, added to JSONRPC's `Platform`: waiting for the terminal, raw modes, its size.
import JSONRPC

/// The terminal calls that differ between Linux and Darwin.
extension Platform {
  /// Waits until the terminal on `fd` has input, or `milliseconds` pass (nil: no limit).
  /// Returns what poll(2) and select(2) do: 1 ready, 0 timed out, -1 with `errno`.
  ///
  /// Linux: poll(2). Darwin: select(2), since Apple's poll(2) man page lists devices (a
  /// terminal is one) as unsupported.
  static func waitForInput(_ fd: Int32, milliseconds: Int32?) -> Int32 {
    #if canImport(Darwin)
      precondition(fd >= 0 && fd < 32, "waitForInput watches a low descriptor (stdin)")
      var readable = fd_set()
      // FD_SET, which Swift does not import: bit `fd` of the first word.
      readable.fds_bits.0 = Int32(1) << fd
      guard let milliseconds else { return select(fd + 1, &readable, nil, nil, nil) }
      var timeout = timeval(tv_sec: Int(milliseconds / 1000), tv_usec: Int32(milliseconds % 1000) * 1000)
      return select(fd + 1, &readable, nil, nil, &timeout)
    #else
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      return poll(&descriptor, 1, milliseconds ?? -1)
    #endif
  }

  /// `modes` made raw for the UI: no echo, no line editing, no Ctrl-V/O, no flow control or CR
  /// translation; ISIG kept so Ctrl-C and Ctrl-Z reach the handlers. (termios(4) is the same on
  /// Linux and Darwin but for the width of `tcflag_t`, which the conversions absorb.)
  static func rawMode(_ modes: termios) -> termios {
    var raw = modes
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    return raw
  }

  /// The size of the terminal on `fd` in cells, from `TIOCGWINSZ`; nil when unknown.
  static func terminalSize(_ fd: Int32) -> (width: Int, height: Int)? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }
}
