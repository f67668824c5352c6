// Runs the built listctl binary and a listening listd for end-to-end tests.
import Foundation
import XCTest

/// The build directory holding the test bundle, `listd` and `listctl`.
let buildDirectory: URL = {
  // Linux: the bundle is the build directory itself; macOS: `…/debug/X.xctest`.
  let bundle = Bundle(for: ListctlDaemon.self).bundleURL
  return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
}()

/// What one `listctl` run produced.
struct Run {
  let status: Int32
  let stdout: String
  let stderr: String
}

/// A `listd --listen DIR/s --stay` in a fresh private (0700) directory, stopped by ``stop()``.
final class ListctlDaemon: @unchecked Sendable {
  // `@unchecked Sendable`: immutable after init; used from one test thread.
  let directory: String
  let socket: String
  private let process = Process()
  private let stdin = Pipe()

  init(_ arguments: [String] = []) throws {
    var template = Array("/tmp/listctl-e2e-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw NSError(domain: "mkdtemp", code: Int(errno))
    }
    directory = String(cString: made)
    socket = directory + "/s"
    process.executableURL = buildDirectory.appendingPathComponent("listd")
    process.arguments = ["--listen", socket, "--stay", "--log-level", "warning"] + arguments
    process.standardInput = stdin
    process.standardOutput = FileHandle.nullDevice  // its stdio session's last word, daemon/stopping
    try process.run()
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(5_000) }
  }

  /// Runs `listctl --socket S arguments…`.
  func run(_ arguments: String..., input: String? = nil) throws -> Run {
    try runListctl(["--socket", socket] + arguments, input: input)
  }

  /// Stops the daemon and removes the directory.
  func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: directory)
  }

  deinit { stop() }
}

/// Starts `listctl arguments…` without waiting; its stdout and stderr go to files in /tmp.
final class RunningListctl: @unchecked Sendable {
  // `@unchecked Sendable`: used from one test thread.
  let process = Process()
  private let out = Pipe()
  private let err = Pipe()

  init(_ arguments: [String], environment: [String: String] = [:]) throws {
    process.executableURL = buildDirectory.appendingPathComponent("listctl")
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }

  /// Reads one line of its stdout (nil at its end), byte by byte: what follows stays in the pipe.
  func readLine() -> String? {
    var bytes: [UInt8] = []
    while true {
      let byte = out.fileHandleForReading.readData(ofLength: 1)
      guard let first = byte.first else {
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
      }
      if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(first)
    }
  }

  /// Reads the rest of its stdout, to its end (for ``finish(timeout:)`` to return with stderr).
  func readToEnd() -> String {
    outputClosed = true
    return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  /// Closes the reading end of its stdout, as `head` does when it has read enough.
  func closeOutput() {
    try? out.fileHandleForReading.close()
    outputClosed = true
  }
  private var outputClosed = false

  /// Waits for it to exit (killing it after `timeout` seconds) and returns what it printed.
  func finish(timeout: TimeInterval = 20) -> Run {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    if process.isRunning { process.terminate() }
    let stdout = outputClosed ? Data() : out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }
}

/// Runs `listctl arguments…` to completion, feeding `input` to its stdin; `environment` is added
/// to the test's own.
func runListctl(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws
  -> Run
{
  try runListctl(arguments, input: input.map { Data($0.utf8) }, environment: environment)
}

/// Runs `listctl arguments…` to completion, feeding `input` bytes to its stdin; `environment` is
/// added to the test's own.
func runListctl(_ arguments: [String], input: Data?, environment: [String: String] = [:]) throws -> Run {
  let process = Process()
  process.executableURL = buildDirectory.appendingPathComponent("listctl")
  process.arguments = arguments
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  let out = Pipe()
  let err = Pipe()
  let stdin = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = stdin
  try process.run()
  if let input { stdin.fileHandleForWriting.write(input) }
  try stdin.fileHandleForWriting.close()
  // Read both pipes fully before waiting, so a large output cannot block the child.
  let errData = ReadBox()
  let thread = Thread { errData.data = err.fileHandleForReading.readDataToEndOfFile() }
  thread.start()
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  while !errData.done { usleep(1_000) }
  return Run(
    status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
    stderr: String(decoding: errData.data ?? Data(), as: UTF8.self))
}

/// Data handed from a reader thread to the test thread.
private final class ReadBox: @unchecked Sendable {
  // `@unchecked Sendable`: guarded by `lock`.
  private let lock = NSLock()
  private var _data: Data?
  var data: Data? {
    get { lock.withLock { _data } }
    set { lock.withLock { _data = newValue } }
  }
  var done: Bool { data != nil }
}
