// Starts the built `listd` binary as a child process with its stdin and stdout on pipes.
import Foundation
import JSONRPC
import XCTest

/// A running `listd`, started the way an editor starts it: stdin and stdout are pipes, stderr
/// is captured for the test to inspect.
final class DaemonProcess: @unchecked Sendable {
  // `@unchecked Sendable`: the members are immutable after init; Process and FileHandle are
  // used from one test thread at a time.
  let process = Process()
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = Pipe()

  /// The `listd` executable next to the test bundle (SwiftPM builds it first: the test target
  /// depends on it).
  static var binary: URL {
    // Linux: the bundle is the build directory itself; macOS: `…/debug/X.xctest`.
    let bundle = Bundle(for: DaemonProcess.self).bundleURL
    let directory = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    return directory.appendingPathComponent("listd")
  }

  /// Starts `listd arguments`; with `descriptorLimit`, under `ulimit -n descriptorLimit` (through
  /// `/bin/sh`, which then execs the daemon, so the process is still the daemon itself).
  init(_ arguments: [String] = [], environment: [String: String]? = nil, descriptorLimit: Int? = nil) throws {
    if let descriptorLimit {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments =
        ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", Self.binary.path] + arguments
    } else {
      process.executableURL = Self.binary
      process.arguments = arguments
    }
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    if let environment {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    try process.run()
  }

  /// The descriptor a client writes requests to.
  var input: Int32 { stdin.fileHandleForWriting.fileDescriptor }
  /// The descriptor a client reads answers from.
  var output: Int32 { stdout.fileHandleForReading.fileDescriptor }

  /// Closes the daemon's stdin (as an editor that quits does).
  func closeInput() {
    try? stdin.fileHandleForWriting.close()
  }

  /// Waits up to `timeout` seconds for the process to exit; returns its status, or nil if it is
  /// still running (then it is killed).
  @discardableResult
  func waitForExit(timeout: TimeInterval = 10) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      return nil
    }
    return process.terminationStatus
  }

  /// Everything the daemon wrote to stderr so far (after it exited: everything).
  func standardError() -> String {
    String(decoding: stderr.fileHandleForReading.availableData, as: UTF8.self)
  }

  /// Stops the daemon if a test left it running.
  func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
  }

  deinit { stop() }
}

extension TestClient {
  /// A client of a daemon's stdio.
  convenience init(
    _ daemon: DaemonProcess, name: String = "stdio", configure: (Connection) -> Void = { _ in }
  ) throws {
    try self.init(reading: daemon.output, writing: daemon.input, name: name, configure: configure)
  }
}
