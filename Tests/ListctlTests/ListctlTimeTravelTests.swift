// End-to-end: listctl's time travel — --at on query and show, query content, diff LIST FROM TO, record errors.
import Foundation
import JSON
import ListClient
import XCTest

final class ListctlTimeTravelTests: XCTestCase {
  private var daemon: ListctlDaemon!

  override func setUpWithError() throws {
    daemon = try ListctlDaemon()
    // v0 created; v1 spec's text; v2 code moves to later; v3 spec selected; v4 code expanded.
    try ok(
      "create", "todo", "--content", "-",
      input: """
        {"sections": [
          {"id": "today", "header": "Today", "items": [
            {"id": "spec", "text": "Write the spec"},
            {"id": "code", "text": "Write the code", "children": [{"id": "tests", "text": "Tests"}]}]},
          {"id": "later", "header": "Later", "items": []}]}
        """)
    try ok("edit", "todo", "--update", "spec=Draft 2")
    try ok("edit", "todo", #"{"op": "moveItem", "item": "code", "section": "later"}"#)
    try ok("select", "todo", "spec")
    try ok("expand", "todo", "code")
  }

  override func tearDown() { daemon.stop() }

  @discardableResult
  private func ok(
    _ arguments: String..., input: String? = nil, file: StaticString = #filePath, line: UInt = #line
  )
    throws -> String
  {
    let run = try runListctl(["--socket", daemon.socket] + arguments, input: input)
    XCTAssertEqual(run.status, 0, "listctl \(arguments): \(run.stderr)", file: file, line: line)
    return run.stdout
  }

  private func fails(
    _ status: Int32, _ arguments: String..., file: StaticString = #filePath, line: UInt = #line
  )
    throws -> String
  {
    let run = try runListctl(["--socket", daemon.socket] + arguments)
    XCTAssertEqual(run.status, status, "listctl \(arguments): \(run.stdout)", file: file, line: line)
    return run.stderr
  }

  func testQueriesAndShowAtAVersion() throws {
    XCTAssertEqual(
      try ok("query", "item", "todo", "spec", "--at", "0"), "spec 'Write the spec' · at 0:0 · level 0\n")
    XCTAssertEqual(try ok("query", "item", "todo", "spec"), "spec 'Draft 2' · at 0:0 · level 0 · selected\n")
    XCTAssertEqual(
      try ok("query", "window", "todo", "--at", "1"),
      "0:0  Draft 2\n0:1  Write the code\n(2 of 2 rows, v1)\n")
    XCTAssertEqual(try ok("query", "search", "todo", "Tests", "--at", "2"), "tests  hidden\n")
    XCTAssertEqual(
      try ok("show", "todo", "--at", "2"),
      """
      todo 'todo' v2 · plain · selection single
      § today — Today
          Draft 2
      § later — Later
        ▸ Write the code

      """)
    let json = try JSONValue(parsing: try ok("show", "todo", "--at", "3", "--json"))
    XCTAssertEqual(json["version"], 3)
    XCTAssertEqual(json["snapshot"]?["selection"], ["spec"])
  }

  /// `query content` prints what `create --content` reads: the copy shows as the original did.
  func testQueryContentMakesAnEqualList() throws {
    let content = try ok("query", "content", "todo", "--at", "2")
    try ok("create", "copy", "--content", "-", input: content)
    XCTAssertEqual(
      try ok("show", "copy").replacingOccurrences(of: "copy 'copy' v0", with: "todo 'todo' v2"),
      try ok("show", "todo", "--at", "2"))
    let json = try JSONValue(parsing: try ok("query", "content", "todo", "--json"))
    XCTAssertEqual(json["selection"], ["spec"])
    XCTAssertEqual(json["selectionMode"], "single")
    XCTAssertEqual(json["version"], 4)
  }

  /// `diff LIST FROM TO` prints the changes between two versions, either way, naming the rows
  /// of FROM; --explain the causes; --json the answer; --edits the batch that makes them, which
  /// `edit LIST -` applies: the list is back at the old content, as a new version.
  func testDiffBetweenVersionsAndRevertingWithItsEdits() throws {
    XCTAssertEqual(
      try ok("diff", "todo", "4", "1"),
      """
      −1 'Tests' at 1:1
      ↕ 'Write the code' 1:0→0:1
      ~ 'Write the code'
      ✗ spec
      ▸ code

      """)
    XCTAssertEqual(try ok("diff", "todo", "0", "1"), "~ 'Draft 2'\n")
    XCTAssertEqual(try ok("diff", "todo", "3", "3"), "(no change)\n")
    XCTAssertEqual(
      try ok("diff", "todo", "1", "0", "--explain"), "~ spec  text \"Draft 2\" → \"Write the spec\"\n")
    let answer = try JSONValue(parsing: try ok("diff", "todo", "2", "1", "--json"))
    XCTAssertEqual(answer["from"], 2)
    XCTAssertEqual(answer["to"], 1)
    XCTAssertEqual(answer["changeset"], ["itemMoves": [[1, 0, 0, 1, 1]]])
    let edits = try ok("diff", "todo", "4", "0", "--edits")
    XCTAssertEqual(
      try JSONValue(parsing: edits),
      [
        ["op": "moveItem", "item": "code", "after": "spec"],
        ["op": "updateItems", "items": [["id": "spec", "text": "Write the spec"]]],
        ["op": "collapse", "item": "code"],
        ["op": "deselect", "items": ["spec"]],
      ])
    XCTAssertEqual(
      try ok("edit", "todo", "-", "--if-version", "4", input: edits),
      "v5  −1 'Tests' at 1:1 · ↕ 'Write the code' 1:0→0:1 · ~ 'Write the spec' · ~ 'Write the code' · ✗ spec · ▸ code\n"
    )
    XCTAssertEqual(try ok("query", "content", "todo"), try ok("query", "content", "todo", "--at", "0"))
  }

  /// Bad versions are usage errors naming the flag or argument and the value (exit 2); versions
  /// the list does not have are the daemon's errors (exit 1) naming the field.
  func testBadVersionsAreNamed() throws {
    XCTAssertEqual(
      try fails(2, "query", "item", "todo", "spec", "--at", "-1"),
      "listctl: --at needs a version (an integer, 0 or more), got '-1'\nTry 'listctl query --help'.\n")
    XCTAssertTrue(try fails(2, "show", "todo", "--at", "x").hasPrefix("listctl: --at needs a version"))
    XCTAssertEqual(
      try fails(2, "diff", "todo", "one", "2"),
      "listctl: FROM needs a version (an integer, 0 or more), got 'one'\nTry 'listctl diff --help'.\n")
    XCTAssertTrue(
      try fails(2, "diff", "a.json", "b.json", "--edits").hasPrefix(
        "listctl: --edits is for the versions of a list"))
    XCTAssertEqual(
      try fails(1, "query", "window", "todo", "--at", "9"),
      "listctl: error -32602: invalid params: \"atVersion\" 9 is newer than the version of list 'todo', 4\n"
    )
    XCTAssertTrue(
      try fails(1, "diff", "todo", "0", "7").contains("\"to\" 7 is newer than the version of list 'todo', 4"))
    XCTAssertEqual(
      try fails(1, "record", "todo", "--from", "9"),
      "listctl: --from 9 is newer than the version of list 'todo', 4\n")
    XCTAssertTrue(
      try fails(2, "record", "todo", "--from", "3", "--to", "2").hasPrefix(
        "listctl: --from 3 is after --to 2"))
    XCTAssertTrue(try fails(2, "record", "todo", "--to", "-2").hasPrefix("listctl: --to needs a version"))
  }

  /// With a short history, record starts at the oldest version kept, and names it when --from
  /// asks for an older one.
  func testRecordStartsAtTheOldestVersionKept() throws {
    let short = try ListctlDaemon(["--explain-history", "2"])
    defer { short.stop() }
    func run(_ arguments: String..., input: String? = nil) throws -> Run {
      try runListctl(["--socket", short.socket] + arguments, input: input)
    }
    XCTAssertEqual(try run("create", "l", "--content", "-", input: #"{"sections": [{"id": "s"}]}"#).status, 0)
    for id in ["a", "b", "c", "d"] {
      XCTAssertEqual(try run("edit", "l", "--append", "\(id)=\(id)").status, 0)
    }
    let recording = try run("record", "l")
    XCTAssertEqual(recording.status, 0, recording.stderr)
    XCTAssertTrue(
      recording.stdout.hasPrefix(#"{"comment":"listctl record: list 'l', versions 2 to 4. "#),
      recording.stdout)
    XCTAssertEqual(try RecordReplayTests.expectedChangesets(recording.stdout).keys.sorted(), [1, 2])
    let old = try run("record", "l", "--from", "1")
    XCTAssertEqual(old.status, 1)
    XCTAssertEqual(
      old.stderr, "listctl: --from 1: list 'l' keeps versions 2 to 4 only: record --from 2 or later\n")
  }
}
