// A pluggable logger; the default writes to standard error, never to standard output.

/// Where the connection reports what it cannot answer on the wire (framing errors, peers that
/// stop reading, responses to unknown ids). Standard output carries the protocol, so the default
/// sink is standard error.
public struct Logger: Sendable {
  public enum Level: Int, Comparable, Sendable, CustomStringConvertible {
    case debug, info, warning, error

    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
      switch self {
      case .debug: return "debug"
      case .info: return "info"
      case .warning: return "warning"
      case .error: return "error"
      }
    }
  }

  /// Messages below this level are not formatted or written.
  public var minimumLevel: Level
  private let sink: @Sendable (Level, String) -> Void

  /// A logger handing every message at or above `minimumLevel` to `sink`.
  public init(minimumLevel: Level = .info, sink: @escaping @Sendable (Level, String) -> Void) {
    self.minimumLevel = minimumLevel
    self.sink = sink
  }

  /// Writes `label: level: message` lines to file descriptor 2, one `write` per line.
  public static func standardError(label: String = "listd", minimumLevel: Level = .info) -> Logger {
    Logger(minimumLevel: minimumLevel) { level, message in
      var line = Array("\(label): \(level): \(message)".utf8.prefix(maxLineBytes - 1))
      line.append(UInt8(ascii: "\n"))
      // Never block on a stderr nobody reads (a pipe from a parent that does not drain it): a
      // line that does not fit now is dropped. Lines are at most PIPE_BUF, and POLLOUT on a
      // pipe means that much room, so a write that starts also finishes.
      var descriptor = pollfd(fd: 2, events: Int16(POLLOUT), revents: 0)
      guard poll(&descriptor, 1, 0) == 1, descriptor.revents & Int16(POLLOUT) != 0 else { return }
      line.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
          if written <= 0 {
            if written < 0 && errno == EINTR { continue }
            return
          }
          offset += written
        }
      }
    }
  }

  /// The longest line written to standard error (PIPE_BUF): longer messages are cut.
  static let maxLineBytes = 4_096

  /// Discards everything.
  public static let disabled = Logger(minimumLevel: .error) { _, _ in }

  public func log(_ level: Level, _ message: @autoclosure () -> String) {
    guard level >= minimumLevel else { return }
    sink(level, message())
  }

  public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
  public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
  public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
