// A real listd listening in a private directory, and the paths of the built binaries.
import Foundation
import ListClient
import XCTest

/// The build directory holding the test bundle, `listd` and `listd-tui`.
let buildDirectory: URL = {
  let bundle = Bundle(for: Daemon.self).bundleURL
  return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
}()

/// `listd --listen DIR/s --stay` in a fresh private (0700) directory.
final class Daemon: @unchecked Sendable {
  // `@unchecked Sendable`: used from one test thread.
  let directory: String
  let socket: String
  private var process: Process?

  init(_ arguments: [String] = []) throws {
    var template = Array("/tmp/listd-tui-e2e-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw SetupFailure("mkdtemp: \(String(cString: strerror(errno)))")
    }
    directory = String(cString: made)
    socket = directory + "/s"
    try start(arguments)
  }

  /// Starts (or restarts) the daemon on ``socket`` and waits for the socket.
  func start(_ arguments: [String] = []) throws {
    let process = Process()
    process.executableURL = buildDirectory.appendingPathComponent("listd")
    process.arguments = ["--listen", socket, "--stay", "--log-level", "warning"] + arguments
    process.standardInput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    self.process = process
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(10_000) }
    guard FileManager.default.fileExists(atPath: socket) else { throw SetupFailure("listd did not listen") }
  }

  /// A client of the daemon, initialized.
  func client(_ name: String = "test") async throws -> ListClient {
    let client = try ListClient.socket(path: socket)
    try await client.initialize(name: name)
    return client
  }

  /// Stops the daemon: SIGTERM (which removes the socket), SIGKILL if it lingers.
  func stop() {
    guard let process, process.isRunning else { return }
    process.terminate()
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { crash() }
  }

  /// Kills the daemon with SIGKILL, as a crash would: its socket file stays behind.
  func crash() {
    guard let process, process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Stops the daemon and removes the directory.
  func remove() {
    stop()
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// The command line that runs listd-tui against this daemon in a tmux pane, logging to
  /// `log`, then reports its exit status and keeps the pane open.
  func tuiCommand(_ arguments: [String] = [], log: String) -> String {
    let tui = buildDirectory.appendingPathComponent("listd-tui").path
    let quoted = (["--socket", socket, "--log", log] + arguments).map { "'\($0)'" }.joined(separator: " ")
    return "'\(tui)' \(quoted); echo \"listd-tui exited $?\"; sleep 600"
  }
}
