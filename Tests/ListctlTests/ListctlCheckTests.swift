// listctl check end to end: exit codes and output for valid, invalid and bad updates and snapshots.
import Foundation
import XCTest

final class ListctlCheckTests: XCTestCase {
  /// The README's `listctl check UPDATE.json`, with a file: exit 0 and the counts after it.
  func testCheckOfAValidUpdateFile() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let path = daemon.directory + "/update.json"
    try #"{"before": [2, 0], "update": {"itemMoves": [[0, 1, 1, 0, 1]]}, "after": [1, 1]}"#.write(
      toFile: path, atomically: true, encoding: .utf8)
    let run = try daemon.run("check", path)
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stdout, "valid: section counts after the update [1, 1]\n")
    let json = try daemon.run("--json", "check", path)
    XCTAssertEqual(json.status, 0, json.stderr)
    XCTAssertTrue(json.stdout.contains(#""valid": true"#), json.stdout)
  }

  func testAnInvalidUpdateExitsOneWithEachMessageOnItsOwnLine() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let input =
      #"{"before": [4], "update": {"deleteItems": [[0, 4], [0, 1]], "moveItems": [[[0, 1], [0, 0]]]}}"#
    let run = try daemon.run("check", "-", input: input)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(
      run.stdout,
      """
      attempt to delete item 4 from section 0 which only contains 4 items before the update
      attempt to perform a delete and a move from the same index path (<NSIndexPath: 0x0> {length = 2, path = 0 - 1})

      """)
    XCTAssertEqual(run.stderr, "listctl: invalid: 2 problems\n")
    let json = try daemon.run("check", "-", "--json", input: input)
    XCTAssertEqual(json.status, 1)
    XCTAssertTrue(json.stdout.contains(#""rule": "deleteAndMoveItem""#), json.stdout)
    // A delete and a reload of one moved index path: the same UIKit message, told apart by rule.
    let twice = try daemon.run(
      "check", "-",
      input:
        #"{"before": [2], "update": {"deleteItems": [[0, 1]], "reloadItems": [[0, 1]], "moveItems": [[[0, 1], [0, 0]]]}}"#
    )
    XCTAssertEqual(twice.status, 1)
    let lines = twice.stdout.split(separator: "\n")
    XCTAssertEqual(Set(lines).count, lines.count, twice.stdout)
    XCTAssertTrue(lines.contains { $0.hasSuffix("  (deleteAndMoveItem)") }, twice.stdout)
  }

  func testBadInputIsAUsageErrorOrTheDaemonsError() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let notJSON = try daemon.run("check", "-", input: "{")
    XCTAssertEqual(notJSON.status, 2)
    XCTAssertTrue(notJSON.stderr.contains("stdin is not valid JSON"), notJSON.stderr)
    let notObject = try daemon.run("check", "-", input: "[1]")
    XCTAssertEqual(notObject.status, 2)
    XCTAssertTrue(notObject.stderr.contains("must hold a JSON object, got [1]"), notObject.stderr)
    let missing = try daemon.run("check")
    XCTAssertEqual(missing.status, 2)
    let badField = try daemon.run("check", "-", input: #"{"before": [-1], "update": {}}"#)
    XCTAssertEqual(badField.status, 1)
    XCTAssertTrue(
      badField.stderr.contains(#""before[0]" must be a non-negative integer of at most 2147483647, got -1"#),
      badField.stderr)
  }

  func testSnapshotChecks() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let duplicate = try daemon.run(
      "check", "--snapshot", "-", input: #"{"sections": [{"id": "s", "items": [{"id": "a"}, {"id": "a"}]}]}"#)
    XCTAssertEqual(duplicate.status, 1)
    XCTAssertEqual(
      duplicate.stdout, "Supplied item identifiers are not unique. Duplicate identifiers: {(a)}\n")
    let flat = try daemon.run(
      "check", "--snapshot", "-", input: #"{"flat": {"sections": [], "items": [{"id": "a"}]}}"#)
    XCTAssertEqual(flat.status, 1)
    XCTAssertEqual(
      flat.stdout, "There are currently no sections in the data source. Please add a section first.\n")
    let fine = try daemon.run(
      "check", "--snapshot", "-", input: #"{"sections": [{"id": "s", "items": [{"id": "a"}]}]}"#)
    XCTAssertEqual(fine.status, 0, fine.stderr)
    XCTAssertEqual(fine.stdout, "valid: identifiers unique, every item in a section\n")
  }
}
