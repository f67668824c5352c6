// End-to-end: `listctl run` on the protocol examples and Tests/Scripts, and `listctl demo`.
import Foundation
import XCTest

final class ListctlScriptTests: XCTestCase {
  /// The repository root (this file is Tests/ListctlTests/ListctlScriptTests.swift).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func scripts(in folder: String) -> [String] {
    let directory = root.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { directory.appendingPathComponent($0).path }
  }

  static var tasksScript: String { root.appendingPathComponent("Tests/Scripts/tasks.jsonl").path }

  /// A copy of `path` in a fresh temporary file (removed at the end of the test).
  private func copy(_ path: String, editing edit: (String) -> String = { $0 }) throws -> String {
    let target = NSTemporaryDirectory() + "listctl-script-\(UUID().uuidString).jsonl"
    try edit(try String(contentsOfFile: path, encoding: .utf8)).write(
      toFile: target, atomically: true, encoding: .utf8)
    addTeardownBlock { try? FileManager.default.removeItem(atPath: target) }
    return target
  }

  func testEveryExampleAndScriptPassesOnAFreshDaemon() throws {
    let scripts = Self.scripts(in: "Protocol/examples") + Self.scripts(in: "Tests/Scripts")
    XCTAssertGreaterThanOrEqual(scripts.count, 6)
    for script in scripts {
      let run = try runListctl(["--spawn", "--", "run", script])
      XCTAssertEqual(run.status, 0, "\(script): \(run.stderr)")
      XCTAssertEqual(run.stdout, "", script)
    }
  }

  func testRunOverASocket() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let run = try daemon.run("run", Self.tasksScript)
    XCTAssertEqual(run.status, 0, run.stderr)
  }

  func testAWrongExpectationStopsThereNamingTheLine() throws {
    let script = try copy(Self.tasksScript) { text in
      var lines = text.components(separatedBy: "\n")
      let index = lines.firstIndex { $0.hasPrefix("{\"expect\"") && $0.contains("\"itemMoves\"") }!
      lines[index] = lines[index].replacingOccurrences(of: "[[0,0,1,0,1]]", with: "[[0,0,1,0,2]]")
      return lines.joined(separator: "\n")
    }
    let lines = try String(contentsOfFile: script, encoding: .utf8).components(separatedBy: "\n")
    let line = lines.firstIndex { $0.contains("[[0,0,1,0,2]]") }! + 1
    let run = try runListctl(["--spawn", "--", "run", script])
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("\(script):\(line):"), run.stderr)
    XCTAssertTrue(run.stderr.contains("expected:") && run.stderr.contains("actual:"), run.stderr)
    XCTAssertTrue(run.stderr.contains("[[0,0,1,0,1]]"), "the actual answer: \(run.stderr)")
  }

  func testUpdateRewritesTheExpectationsAndKeepsWildcards() throws {
    let original = try String(contentsOfFile: Self.tasksScript, encoding: .utf8)
    let script = try copy(Self.tasksScript) {
      $0.replacingOccurrences(of: "Write the spec (draft 2)\",\"level\"", with: "stale\",\"level\"")
    }
    XCTAssertEqual(try runListctl(["--spawn", "--", "run", script]).status, 1)
    let update = try runListctl(["--spawn", "--", "run", "--update", script])
    XCTAssertEqual(update.status, 0, update.stderr)
    XCTAssertEqual(try String(contentsOfFile: script, encoding: .utf8), original)
    XCTAssertEqual(try runListctl(["--spawn", "--", "run", script]).status, 0)
  }

  func testRunUsageAndConnectionFailures() throws {
    XCTAssertEqual(try runListctl(["run"]).status, 2)
    XCTAssertEqual(try runListctl(["--spawn", "--", "run", "/nonexistent/script.jsonl"]).status, 2)
    let bad = try copy(Self.tasksScript) { "{\"nonsense\":1}\n" + $0 }
    XCTAssertEqual(try runListctl(["--spawn", "--", "run", bad]).status, 2)
    let run = try runListctl(["--socket", "/nonexistent/listd.sock", "run", Self.tasksScript])
    XCTAssertEqual(run.status, 3, run.stderr)
  }

  func testDemoRunsTheScenario() throws {
    let run = try runListctl(["demo"])
    XCTAssertEqual(run.status, 0, run.stderr)
    // The private daemon's own stdio session stays out of the demo's output.
    XCTAssertFalse(run.stdout.contains("Content-Length"), run.stdout)
    for step in [
      "demo lists: contacts", "owner creates", "viewer subscribes", "owner edits",
      "moves 'spec' across sections",
      "expands", "selects", "asked to refresh", "refresh answered", "disposes", "done",
    ] {
      XCTAssertTrue(run.stdout.contains(step), "\(step) in:\n\(run.stdout)")
    }
    XCTAssertTrue(run.stdout.contains("viewer sees  v2  ↕ 'Write the spec (draft 2)' 0:0→1:1"), run.stdout)
    XCTAssertTrue(run.stdout.contains("+2 'Release notes', 'Tag the build' at 0:1"), run.stdout)
    XCTAssertTrue(run.stdout.contains("✓ notes code"), run.stdout)
    // The inspector's three questions: a preview explained, why a row last changed, a check.
    for line in [
      "would make  v5  −1 'Release notes' at 0:1 · ✗ notes", "− notes  removed (edit 0 deleteItems)",
      "✗ notes  deselected: removed (edit 0 deleteItems)",
      "↕ spec  moved from section todo, now between idea and (end) (edit 0 moveItem)",
      "attempt to insert item 3 into section 0, but there are only 3 items in section 0 after the update",
    ] {
      XCTAssertTrue(run.stdout.contains(line), "\(line) in:\n\(run.stdout)")
    }
    XCTAssertEqual(try runListctl(["--socket", "/tmp/x", "demo"]).status, 2)
  }
}
