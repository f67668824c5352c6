// Runs the built binaries and shells for the command-line tests: processes, scratch directories, a daemon.
import Foundation
import XCTest

/// The build directory holding the test bundle and the three binaries.
let buildDirectory: URL = {
  // Linux: the bundle is the build directory itself; macOS: `…/debug/X.xctest`.
  let bundle = Bundle(for: Scratch.self).bundleURL
  return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
}()

/// The repository's root.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// The three programs whose command lines these tests check.
let tools = ["listd", "listctl", "listd-tui"]

/// What a finished process printed.
struct Run {
  let status: Int32
  let stdout: String
  let stderr: String
}

/// Runs `executable arguments…` to its end (killed after `timeout` seconds), stdin empty unless
/// `input` is given, `environment` added to the test's own (a nil value removes a variable).
func runProcess(
  _ executable: String, _ arguments: [String] = [], input: String? = nil,
  environment: [String: String?] = [:],
  directory: String? = nil, timeout: TimeInterval = 60
) throws -> Run {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  var merged = ProcessInfo.processInfo.environment
  for (key, value) in environment { merged[key] = value }
  process.environment = merged
  if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
  let out = Pipe()
  let err = Pipe()
  let stdin = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = stdin
  try process.run()
  if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
  try stdin.fileHandleForWriting.close()
  let stdout = PipeReader(out)
  let stderr = PipeReader(err)
  let deadline = Date().addingTimeInterval(timeout)
  while process.isRunning && Date() < deadline { usleep(10_000) }
  if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
  if process.isRunning { process.terminate() }
  process.waitUntilExit()
  return Run(
    status: process.terminationStatus, stdout: String(decoding: stdout.wait(), as: UTF8.self),
    stderr: String(decoding: stderr.wait(), as: UTF8.self))
}

/// Runs one of the built binaries.
func runTool(_ name: String, _ arguments: [String] = [], environment: [String: String?] = [:]) throws -> Run {
  try runProcess(buildDirectory.appendingPathComponent(name).path, arguments, environment: environment)
}

/// Runs `script` with bash (`set -euo pipefail`).
func bash(
  _ script: String, environment: [String: String?] = [:], directory: String? = nil, timeout: TimeInterval = 60
)
  throws -> Run
{
  try runProcess(
    "/bin/bash", ["-c", "set -euo pipefail\n" + script], environment: environment, directory: directory,
    timeout: timeout)
}

/// The path of `program` on the PATH, if it is installed.
func installed(_ program: String) -> String? {
  for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
    let path = "\(directory)/\(program)"
    if FileManager.default.isExecutableFile(atPath: path) { return path }
  }
  return nil
}

/// A fresh private (0700) directory, removed when the test ends.
final class Scratch: @unchecked Sendable {
  // `@unchecked Sendable`: immutable.
  let path: String

  init(_ test: XCTestCase) throws {
    var template = Array((NSTemporaryDirectory() + "cli-XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw NSError(domain: "mkdtemp", code: Int(errno))
    }
    path = String(cString: made)
    let path = self.path
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
  }

  /// `name` inside the directory.
  func callAsFunction(_ name: String) -> String { path + "/" + name }
}

/// A `listd --listen SOCKET --stay --demo` (lists contacts, settings, files, live, processes, inbox), stopped when
/// the test ends.
final class Daemon: @unchecked Sendable {
  // `@unchecked Sendable`: used from one test thread.
  let socket: String
  private let process = Process()

  init(
    _ test: XCTestCase, in scratch: Scratch,
    listd: String = buildDirectory.appendingPathComponent("listd").path
  )
    throws
  {
    socket = scratch("s")
    process.executableURL = URL(fileURLWithPath: listd)
    process.arguments = ["--listen", socket, "--stay", "--demo", "--log-level", "error"]
    process.standardInput = Pipe()
    process.standardOutput = FileHandle.nullDevice  // its stdio session's last word, daemon/stopping
    try process.run()
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(5_000) }
    let process = self.process
    test.addTeardownBlock {
      process.terminate()
      process.waitUntilExit()
    }
  }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {
  // `@unchecked Sendable`: `data` is guarded by `condition`.
  private let condition = NSCondition()
  private var data: Data?

  init(_ pipe: Pipe) {
    Thread.detachNewThread { [self] in
      let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
      condition.lock()
      data = bytes
      condition.broadcast()
      condition.unlock()
    }
  }

  /// What was read, once the pipe's writers have all closed it.
  func wait() -> Data {
    condition.lock()
    defer { condition.unlock() }
    while data == nil { condition.wait() }
    return data!
  }
}
