// Runs one headless-Neovim spec of clients/nvim/test/spec against the built listd, with a private daemon socket.
import Foundation
import ListdTestSupport
import XCTest

/// What a spec run needs: the plugin, the built daemon, `nvim`, and a private directory.
enum SpecRunner {
  /// `clients/nvim`, found from this file's path (…/clients/nvim/test/NeovimPluginTests/SpecRunner.swift).
  static let pluginRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The `listd` executable next to the test bundle (SwiftPM builds it first: the target depends on it).
  static var daemonBinary: URL { BuiltTools.product("listd", besideBundleOf: NeovimPluginTests.self) }

  /// `nvim` on PATH, or nil.
  static var neovim: String? { BuiltTools.onPath("nvim") }

  /// Runs `spec/NAME_spec.lua`; with `socket`, against a fresh `listd --listen … --stay --demo`.
  /// Fails with nvim's whole output unless every case passed; with `echo`, prints the output anyway
  /// (a spec that reports figures).
  static func run(
    _ name: String, socket: Bool, timeout: TimeInterval = 120, echo: Bool = false, file: StaticString,
    line: UInt
  ) throws {
    guard let nvim = neovim else {
      // script/test names the tools it could not install (macOS without Homebrew): a skip, said.
      if (ProcessInfo.processInfo.environment["LISTD_MISSING_TOOLS"] ?? "").split(separator: " ").contains(
        "nvim")
      {
        throw XCTSkip(
          "nvim is not installed and script/test could not install it: the Neovim plugin's specs are skipped")
      }
      XCTFail(
        "nvim is not installed: run script/test (the README's test command), which installs Neovim from Debian",
        file: file, line: line)
      return
    }
    let directory = try privateDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var environment = ProcessInfo.processInfo.environment
    environment["LISTD_BIN"] = daemonBinary.path
    environment["LISTD_NVIM_ROOT"] = pluginRoot.path
    // Keep Neovim away from the user's configuration and state.
    for variable in ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"] {
      environment[variable] = directory
    }
    var daemon: Process?
    if socket {
      let path = directory + "/s"
      daemon = try startDaemon(listeningOn: path, log: directory + "/listd.log")
      environment["LISTD_SOCKET"] = path
    }
    defer {
      if let daemon, daemon.isRunning {
        daemon.terminate()
        daemon.waitUntilExit()
      }
    }

    let spec = pluginRoot.appendingPathComponent("test/spec/\(name)_spec.lua").path
    let outputPath = directory + "/nvim.out"
    guard FileManager.default.createFile(atPath: outputPath, contents: nil) else {
      throw SpecFailure("cannot create \(outputPath)")
    }
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: nvim)
    // A Lua error outside the cases (a typo in the spec) quits with status 2 instead of leaving nvim waiting.
    process.arguments = [
      "--headless", "-u", "NONE", "-i", "NONE", "-n", "--cmd", "set rtp^=\(pluginRoot.path)", "-c",
      "lua local ok, err = pcall(dofile, '\(spec)') if not ok then io.stderr:write(tostring(err)) vim.cmd('cquit 2') end",
    ]
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = output
    let started = Date()
    try process.run()
    while process.isRunning && Date().timeIntervalSince(started) < timeout { usleep(20_000) }
    let timedOut = process.isRunning
    if timedOut {
      process.terminate()
      process.waitUntilExit()
    }
    try output.close()
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    let summary =
      text.split(separator: "\n").last { $0.contains(" cases, ") }.map(String.init) ?? "no summary"
    if echo { print(text) }
    if timedOut {
      XCTFail("\(name)_spec timed out after \(Int(timeout)) s:\n\(text)", file: file, line: line)
    } else if process.terminationStatus != 0 || !summary.contains(" cases, 0 failed") {
      var message = "\(name)_spec exited with status \(process.terminationStatus) (\(summary)):\n\(text)"
      if socket, let log = try? String(contentsOfFile: directory + "/listd.log", encoding: .utf8) {
        message += "\n--- listd log ---\n\(log)"
      }
      XCTFail(message, file: file, line: line)
    }
  }

  /// A fresh directory only this user can enter (mkdtemp: mode 0700), as the daemon's socket requires.
  private static func privateDirectory() throws -> String {
    var template = Array("/tmp/listd-nvim-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw SpecFailure("mkdtemp: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
  }

  /// Starts `listd --listen path --stay --demo` and waits until the socket exists.
  private static func startDaemon(listeningOn path: String, log: String) throws -> Process {
    guard FileManager.default.createFile(atPath: log, contents: nil) else {
      throw SpecFailure("cannot create \(log)")
    }
    let process = Process()
    process.executableURL = daemonBinary
    process.arguments = ["--listen", path, "--stay", "--demo", "--log-file", log]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      var info = stat()
      if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { return process }
      guard process.isRunning else { break }
      usleep(5_000)
    }
    if process.isRunning { process.terminate() }
    throw SpecFailure("listd did not create its socket \(path)")
  }
}

/// A failure to set a spec run up.
struct SpecFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
