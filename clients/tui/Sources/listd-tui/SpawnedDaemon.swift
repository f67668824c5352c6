// A private listd for --spawn / --demo: listening in a fresh 0700 directory, gone when we are.
import Foundation
import ListClient

/// A daemon this process started. It listens on a socket in a private directory; its stdin is
/// a pipe we hold, so it ends when we do, even if we are killed.
final class SpawnedDaemon {
  let socket: String
  private let directory: String
  private let process = Process()
  private let stdin = Pipe()

  /// Starts `listd --listen DIR/s` plus `arguments` and waits (up to 10 s) for its socket.
  init(arguments: [String], log: String?) throws {
    var template = Array("/tmp/listd-tui-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw Options.UsageError(description: "mkdtemp failed: \(String(cString: strerror(errno)))")
    }
    directory = String(cString: made)
    socket = directory + "/listd.sock"
    process.executableURL = URL(fileURLWithPath: try Self.listdPath())
    let quiet = arguments.contains("--log-level") ? [] : ["--log-level", "warning"]
    process.arguments = ["--listen", socket] + quiet + arguments
    process.standardInput = stdin
    // The terminal is the UI's: the daemon's output goes to the log or nowhere.
    let output = log.flatMap { FileHandle(forWritingAtPath: $0) } ?? FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: socket) && Date() < deadline && process.isRunning {
      usleep(10_000)
    }
    guard FileManager.default.fileExists(atPath: socket) else {
      stop()
      throw Options.UsageError(
        description: "the spawned listd did not start (\(process.executableURL!.path))")
    }
  }

  /// Stops the daemon and removes its directory.
  func stop() {
    try? stdin.fileHandleForWriting.close()
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// The daemon to spawn (`ListClient.locateDaemon`), or a failure saying how to provide one.
  static func listdPath() throws -> String {
    guard let path = ListClient.locateDaemon() else {
      throw Options.UsageError(
        description: "cannot find listd (set LISTD, or put it next to listd-tui or on PATH)")
    }
    return path
  }
}
