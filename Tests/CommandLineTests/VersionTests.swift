// --version names the version, the protocol and the commit the binary was built from; script/build-info finds that commit.
import Foundation
import XCTest

final class VersionTests: XCTestCase {
  /// The commit of the repository the tests run in, or nil when it is not a git checkout.
  static func head() throws -> String? {
    guard installed("git") != nil else { return nil }
    let run = try runProcess(
      "/usr/bin/env", ["git", "-C", repositoryRoot.path, "rev-parse", "--verify", "HEAD"])
    return run.status == 0 ? run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
  }

  /// `listd 0.1.0 (protocol 1)`, then `commit HEAD` (the tests build the binaries from this
  /// checkout before they run), the same for the three programs.
  func testVersionNamesTheCommitTheBinaryWasBuiltFrom() throws {
    let head = try Self.head()
    for name in tools {
      let run = try runTool(name, ["--version"])
      XCTAssertEqual(run.status, 0)
      let lines = run.stdout.split(separator: "\n").map(String.init)
      XCTAssertEqual(lines.count, 2, run.stdout)
      XCTAssertEqual(lines.first, "\(name) 0.1.0 (protocol 1)")
      if let head {
        XCTAssertTrue(
          lines.last == "commit \(head)" || lines.last == "commit \(head) (with uncommitted changes)",
          run.stdout)
      } else {
        XCTAssertEqual(lines.last, "commit unknown (not built from a git checkout)")
      }
    }
  }

  /// Runs script/build-info for the package at `package` with `paths`; returns what it wrote.
  func buildInfo(_ package: String, _ paths: [String] = [], scratch: Scratch) throws -> String {
    let output = scratch("out/BuildCommit.swift")
    let run = try runProcess(
      "/bin/sh", [repositoryRoot.appendingPathComponent("script/build-info").path, package, output] + paths)
    XCTAssertEqual(run.status, 0, run.stderr)
    return try String(contentsOfFile: output, encoding: .utf8)
  }

  /// `git …` in `directory`, which must succeed; its output.
  @discardableResult
  func git(_ directory: String, _ arguments: String...) throws -> String {
    let run = try runProcess(
      "/usr/bin/env",
      ["git", "-C", directory, "-c", "user.name=test", "-c", "user.email=test@example.com"] + arguments)
    XCTAssertEqual(run.status, 0, "git \(arguments): \(run.stderr)")
    return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The commit of a checkout; with uncommitted changes in the paths the build reads (and only
  /// those); unknown, with the reason, outside a checkout, in a checkout's subdirectory (someone
  /// else's repository), before the first commit and when git cannot read the checkout.
  func testBuildInfoFindsTheCommitOrSaysWhyNot() throws {
    guard installed("git") != nil else { throw XCTSkip("git is not installed") }
    let scratch = try Scratch(self)
    let package = scratch("package")
    try FileManager.default.createDirectory(atPath: package + "/Sources", withIntermediateDirectories: true)
    try "let a = 1\n".write(toFile: package + "/Sources/a.swift", atomically: true, encoding: .utf8)
    try "# read me\n".write(toFile: package + "/README.md", atomically: true, encoding: .utf8)

    XCTAssertTrue(
      try buildInfo(package, scratch: scratch).contains(
        "let generatedCommit: String? = nil\nlet generatedHasUncommittedChanges = false\n"
          + "let generatedUnknownCommitReason = \"not built from a git checkout\""))

    try git(package, "init", "-q")
    XCTAssertTrue(try buildInfo(package, scratch: scratch).contains("\"the checkout has no commit yet\""))

    try git(package, "add", "-A")
    try git(package, "commit", "-q", "-m", "first")
    let head = try git(package, "rev-parse", "HEAD")
    let clean = try buildInfo(package, ["Sources"], scratch: scratch)
    XCTAssertTrue(
      clean.contains(
        "let generatedCommit: String? = \"\(head)\"\nlet generatedHasUncommittedChanges = false\n"), clean)

    // Unchanged: not rewritten (an unchanged file rebuilds nothing).
    let inode = try FileManager.default.attributesOfItem(atPath: scratch("out/BuildCommit.swift"))[
      .systemFileNumber]
    _ = try buildInfo(package, ["Sources"], scratch: scratch)
    let again = try FileManager.default.attributesOfItem(atPath: scratch("out/BuildCommit.swift"))[
      .systemFileNumber]
    XCTAssertEqual(inode as? Int, again as? Int)

    try "# read me again\n".write(toFile: package + "/README.md", atomically: true, encoding: .utf8)
    XCTAssertTrue(
      try buildInfo(package, ["Sources"], scratch: scratch).contains("HasUncommittedChanges = false"))
    try "let a = 2\n".write(toFile: package + "/Sources/a.swift", atomically: true, encoding: .utf8)
    XCTAssertTrue(
      try buildInfo(package, ["Sources"], scratch: scratch).contains("HasUncommittedChanges = true"))
    try "let b = 1\n".write(toFile: package + "/Sources/b.swift", atomically: true, encoding: .utf8)
    try git(package, "checkout", "-q", "--", "Sources/a.swift")
    XCTAssertTrue(
      try buildInfo(package, ["Sources"], scratch: scratch).contains("HasUncommittedChanges = true"),
      "a new source file is a change")

    XCTAssertTrue(
      try buildInfo(package + "/Sources", scratch: scratch).contains("\"not built from a git checkout\""),
      "a package inside another repository is not that repository's commit")

    // A checkout git cannot read (here a broken `.git`) is not mistaken for no checkout.
    let broken = scratch("broken")
    try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: false)
    try "gitdir: /nonexistent\n".write(toFile: broken + "/.git", atomically: true, encoding: .utf8)
    XCTAssertTrue(
      try buildInfo(broken, scratch: scratch).contains(
        "\"git could not read the checkout: git status there says why\""))
  }
}
