// A logger sink appending timestamped lines to a file (the daemon's --log-file).
import Foundation
import JSONRPC

/// Appends log lines to a file, one write per line, from any thread.
final class LogFile: Sendable {
  private let handle: FileHandle

  /// Opens `path` for appending, creating it (0600) if needed.
  init(path: String) throws {
    if !FileManager.default.fileExists(atPath: path) {
      guard
        FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
      else {
        throw UsageError("cannot create log file \(path)")
      }
    }
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw UsageError("cannot open log file \(path)")
    }
    handle.seekToEndOfFile()
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
