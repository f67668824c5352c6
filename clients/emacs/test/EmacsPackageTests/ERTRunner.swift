// Runs the Emacs package's ERT tests and lint checks in `emacs -Q --batch` against the built listd.
import Foundation
import ListdTestSupport
import XCTest

/// What an ERT run needs: the package, the built daemon, `emacs`, and the package byte-compiled once.
enum ERTRunner {
  /// `clients/emacs`, found from this file's path (…/clients/emacs/test/EmacsPackageTests/ERTRunner.swift).
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The `listd` executable next to the test bundle (SwiftPM builds it first: the target depends on it).
  static var daemonBinary: URL { BuiltTools.product("listd", besideBundleOf: EmacsPackageTests.self) }

  /// `emacs` on PATH, or nil.
  static var emacs: String? { BuiltTools.onPath("emacs") }

  /// The package's files, byte-compiled into a directory of their own (the tests load compiled code, as
  /// users run it); made once per test process (a static let is initialized once, thread-safely).
  private static let compiled: Result<String, Error> = Result {
    guard let emacs else { throw ERTFailure("emacs is not installed") }
    return try compile(emacs: emacs)
  }

  /// `emacs` or a skip/failure saying it is missing.
  static func requireEmacs(file: StaticString, line: UInt) throws -> String? {
    if let emacs { return emacs }
    if (ProcessInfo.processInfo.environment["LISTD_MISSING_TOOLS"] ?? "").split(separator: " ").contains(
      "emacs")
    {
      throw XCTSkip(
        "emacs is not installed and script/test could not install it: the Emacs tests are skipped")
    }
    XCTFail(
      "emacs is not installed: run script/test (the README's test command), which installs emacs-nox from Debian",
      file: file, line: line)
    return nil
  }

  /// Runs the ERT tests NAMES (exact test names) in one Emacs; fails with Emacs's output unless every one
  /// passed. With `echo`, prints the output anyway (a test that reports figures).
  static func run(
    _ names: String..., timeout: TimeInterval = 120, echo: Bool = false, file: StaticString, line: UInt
  ) throws {
    guard try requireEmacs(file: file, line: line) != nil, let emacs else { return }
    let directory = try compiled.get()
    let selector = "^\\\\(" + names.joined(separator: "\\\\|") + "\\\\)$"
    let result = try runEmacs(
      emacs,
      arguments: [
        "-Q", "--batch", "-L", directory, "-L", packageRoot.appendingPathComponent("test").path, "-l",
        "listd-test", "--eval", "(ert-run-tests-batch-and-exit \"\(selector)\")",
      ], timeout: timeout)
    if echo { print(result.output) }
    let ran = "Ran \(names.count) tests, \(names.count) results as expected"
    if result.timedOut {
      XCTFail("\(names) timed out after \(Int(timeout)) s:\n\(result.output)", file: file, line: line)
    } else if result.status != 0 || !result.output.contains(ran) {
      XCTFail("\(names) exited with status \(result.status):\n\(result.output)", file: file, line: line)
    }
  }

  /// Runs the checks of test/listd-lint.el (compile, checkdoc, package-lint) in one Emacs; fails naming every
  /// problem.
  static func lint(_ checks: [String], file: StaticString, line: UInt) throws {
    guard let emacs = try requireEmacs(file: file, line: line) else { return }
    // script/test names package-lint when it could not install it (macOS: not a Homebrew formula).
    var checks = checks
    if (ProcessInfo.processInfo.environment["LISTD_MISSING_TOOLS"] ?? "").split(separator: " ").contains(
      "package-lint")
    {
      print("package-lint is not installed and script/test could not install it: that check is skipped")
      checks.removeAll { $0 == "package-lint" }
    }
    let result = try runEmacs(
      emacs,
      arguments: [
        "-Q", "--batch", "-l", packageRoot.appendingPathComponent("test/listd-lint.el").path, "-f",
        "listd-lint-batch",
      ] + checks, timeout: 120)
    if result.timedOut || result.status != 0 {
      XCTFail(
        "\(checks.joined(separator: ", ")) of clients/emacs found problems:\n\(result.output)", file: file,
        line: line)
    }
  }

  private static func compile(emacs: String) throws -> String {
    let directory = NSTemporaryDirectory() + "listd-emacs-\(getpid())"
    try? FileManager.default.removeItem(atPath: directory)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var files: [String] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: packageRoot.path)
    where name.hasSuffix(".el") {
      try FileManager.default.copyItem(
        atPath: packageRoot.appendingPathComponent(name).path, toPath: directory + "/" + name)
      files.append(directory + "/" + name)
    }
    let result = try runEmacs(
      emacs, arguments: ["-Q", "--batch", "-L", directory, "-f", "batch-byte-compile"] + files.sorted(),
      timeout: 120)
    guard result.status == 0 else {
      throw ERTFailure("byte-compiling clients/emacs failed:\n\(result.output)")
    }
    return directory
  }

  private static func runEmacs(_ emacs: String, arguments: [String], timeout: TimeInterval) throws -> (
    status: Int32, output: String, timedOut: Bool
  ) {
    let outputPath = NSTemporaryDirectory() + "listd-emacs-\(getpid())-\(UUID().uuidString).out"
    guard FileManager.default.createFile(atPath: outputPath, contents: nil) else {
      throw ERTFailure("cannot create \(outputPath)")
    }
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    var environment = ProcessInfo.processInfo.environment
    environment["LISTD_BIN"] = daemonBinary.path
    // Keep Emacs away from the user's files; UTF-8 whatever the locale.
    environment["HOME"] = NSTemporaryDirectory()
    environment["LANG"] = "C.UTF-8"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: emacs)
    process.arguments = arguments
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
    return (timedOut ? -1 : process.terminationStatus, text, timedOut)
  }
}

/// A failure to set an ERT run up.
struct ERTFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
