// listctl preview and diff end to end: what a change would do, and the diff of two files.
import Foundation
import XCTest

final class ListctlPreviewTests: XCTestCase {
  func testPreviewPrintsTheLineTheEditWouldAndCommitsNothing() throws {
    let daemon = try ListctlDaemon(["--demo"])
    defer { daemon.stop() }
    let preview = try daemon.run("preview", "contacts", "--update", "ada=Ada King")
    XCTAssertEqual(preview.status, 0, preview.stderr)
    XCTAssertEqual(preview.stdout, "would make v1  ~ 'Ada King'\n")
    XCTAssertTrue(try daemon.run("show", "contacts").stdout.contains(" v0 "))
    let json = try daemon.run("preview", "contacts", "--delete", "ada", "--json")
    XCTAssertTrue(json.stdout.contains(#""version": 1"#), json.stdout)
    let bad = try daemon.run("preview", "contacts", "--delete", "nope")
    XCTAssertEqual(bad.status, 1)
    XCTAssertTrue(bad.stderr.contains("-32012"), bad.stderr)
    let real = try daemon.run("edit", "contacts", "--update", "ada=Ada King")
    XCTAssertEqual(real.stdout, "v1  ~ 'Ada King'\n")
  }

  func testPreviewOfAContentFile() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let path = daemon.directory + "/c.json"
    try #"{"sections":[{"id":"s","items":[{"id":"a","text":"A"}]}]}"#.write(
      toFile: path, atomically: true, encoding: .utf8)
    XCTAssertEqual(try daemon.run("create", "l").status, 0)
    let preview = try daemon.run("preview", "l", "--content", path)
    XCTAssertEqual(preview.status, 0, preview.stderr)
    XCTAssertTrue(preview.stdout.hasPrefix("would make v1"), preview.stdout)
    XCTAssertEqual(try daemon.run("lists").stdout.contains("v0"), true)
  }

  func testDiffOfTwoContentFiles() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let old = daemon.directory + "/old.json"
    let new = daemon.directory + "/new.json"
    try #"{"sections":[{"id":"s","items":[{"id":"a"},{"id":"b"}]}]}"#.write(
      toFile: old, atomically: true, encoding: .utf8)
    try #"{"sections":[{"id":"s","items":[{"id":"b"},{"id":"a","text":"x"}]}]}"#.write(
      toFile: new, atomically: true, encoding: .utf8)
    let run = try daemon.run("--json", "diff", old, new)
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("itemMoves"), run.stdout)
    XCTAssertTrue(run.stdout.contains("itemReconfigures"), run.stdout)
  }
}
