// Diagnostics to the --log file (the terminal belongs to the UI): requests, errors, connections.
import Foundation
import Synchronization

/// An append-only log file, or nothing.
final class Log: Sendable {
  private let handle: Mutex<FileHandle?>
  private let start = Date()

  /// Logs to `path` (appending; created if missing), or nowhere when nil.
  /// Throws when the file cannot be opened for writing, naming the path.
  init(path: String?) throws(LogError) {
    var handle: FileHandle?
    if let path {
      if !FileManager.default.fileExists(atPath: path) {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
          throw LogError(path: path, reason: String(cString: strerror(errno)))
        }
      }
      guard let opened = FileHandle(forWritingAtPath: path) else {
        throw LogError(path: path, reason: String(cString: strerror(errno)))
      }
      opened.seekToEndOfFile()
      handle = opened
    }
    self.handle = Mutex(handle)
  }

  /// Writes one line with the seconds since start.
  func write(_ line: String) {
    handle.withLock { handle in
      guard let handle else { return }
      let stamp = String(format: "%8.3f", Date().timeIntervalSince(start))
      handle.write(Data("\(stamp) \(line)\n".utf8))
    }
  }
}

/// The --log file cannot be opened.
struct LogError: Error, CustomStringConvertible {
  let path: String
  let reason: String
  var description: String { "--log: cannot open the log file '\(path)': \(reason)" }
}
