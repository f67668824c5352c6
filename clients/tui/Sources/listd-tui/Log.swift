// Diagnostics to the --log file (the terminal belongs to the UI): requests, errors, connections.
import Foundation
import Synchronization

/// An append-only log file, or nothing.
final class Log: Sendable {
  private let handle: Mutex<FileHandle?>
  private let start = Date()

  /// Logs to `path`, or nowhere when nil.
  init(path: String?) {
    var handle: FileHandle?
    if let path {
      FileManager.default.createFile(atPath: path, contents: nil)
      handle = FileHandle(forWritingAtPath: path)
      handle?.seekToEndOfFile()
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
