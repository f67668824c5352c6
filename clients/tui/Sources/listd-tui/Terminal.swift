// The terminal: raw mode, alternate screen, size, output; restored on every exit path.
import JSONRPC

/// The controlling terminal on stdin/stdout. ``restore()`` is idempotent and safe to call from
/// any exit path (quit, SIGINT/SIGTERM, a fatal error, `atexit`).
enum Terminal {
  private nonisolated(unsafe) static var original = termios()
  private nonisolated(unsafe) static var active = false

  /// Enters raw mode and the alternate screen, hides the cursor. Throws when stdin is not a terminal.
  static func enter() throws {
    guard isatty(0) == 1, isatty(1) == 1 else {
      throw Options.UsageError(description: "stdin and stdout must be a terminal")
    }
    guard tcgetattr(0, &original) == 0 else { throw Options.UsageError(description: "tcgetattr failed") }
    var raw = Platform.rawMode(original)
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    tcsetattr(0, TCSAFLUSH, &raw)
    active = true
    atexit { Terminal.restore() }
    // A crash must not leave the terminal raw: restore it (write and tcsetattr are
    // async-signal-safe), then die of the signal as before.
    for fatal in [SIGSEGV, SIGILL, SIGBUS, SIGABRT, SIGFPE, SIGTRAP] {
      signal(fatal) { number in
        Terminal.restoreFromSignal()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
    write("\u{1b}[?1049h\u{1b}[?25l\u{1b}[?7l\u{1b}[H\u{1b}[2J")
  }

  /// Leaves the alternate screen, shows the cursor and restores the original modes.
  static func restore() {
    guard active else { return }
    active = false
    write("\u{1b}[0m\u{1b}[?7h\u{1b}[?25h\u{1b}[?1049l")
    tcsetattr(0, TCSAFLUSH, &original)
  }

  /// ``restore()`` without allocation, for a signal handler.
  static func restoreFromSignal() {
    guard active else { return }
    active = false
    let reset: StaticString = "\u{1b}[0m\u{1b}[?7h\u{1b}[?25h\u{1b}[?1049l"
    _ = Platform.write(1, reset.utf8Start, reset.utf8CodeUnitCount)
    tcsetattr(0, TCSAFLUSH, &original)
  }

  /// Re-enters raw mode and the alternate screen after a suspend (SIGCONT).
  static func resume() {
    guard !active else { return }
    var raw = Platform.rawMode(original)
    tcsetattr(0, TCSAFLUSH, &raw)
    active = true
    write("\u{1b}[?1049h\u{1b}[?25l\u{1b}[?7l\u{1b}[H\u{1b}[2J")
  }

  /// The size in cells (80×24 when unknown).
  static func size() -> (width: Int, height: Int) {
    Platform.terminalSize(1) ?? (80, 24)
  }

  /// Writes all of `text` to stdout.
  static func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes {
        Platform.write(1, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return
      }
      offset += written
    }
  }
}
