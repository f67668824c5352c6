// A logger sink appending timestamped lines to a file (the daemon's --log-file).
import Foundation
import JSONRPC

/// Appends log lines to a file, one write per line, from any thread.
final class LogFile: Sendable {
  private let handle: FileHandle

  /// Opens `path` for appending, creating it (0600) if needed.
  init(path: String) throws {
    // open(2) rather than FileManager, so a failure can say why (a missing folder, a permission).
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw UsageError("cannot open log file \(path): \(String(cString: strerror(errno)))")
    }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    self.handle = handle
  }

  /// A logger writing here.
  func logger(minimumLevel: Logger.Level) -> Logger {
    Logger(minimumLevel: minimumLevel) { [handle] level, message in
      let line = "\(Date()) listd[\(getpid())] \(level): \(message)\n"
      handle.write(Data(line.utf8))
    }
  }
}
