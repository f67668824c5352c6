// End-to-end: every listctl command against a real listd over its socket.
import Foundation
import JSON
import XCTest

final class ListctlCommandTests: XCTestCase {
  private var daemon: ListctlDaemon!

  static let content = """
    {"sections":[
      {"id":"friends","header":"Friends","footer":"2 people","items":[
        {"id":"alice","text":"Alice","secondaryText":"a@x","accessories":[{"type":"disclosureIndicator"},{"type":"badge","text":"3"}]},
        {"id":"bob","text":"Bob"}]},
      {"id":"files","items":[
        {"id":"src","text":"src","expanded":true,"children":[
          {"id":"main","text":"main.swift"},
          {"id":"lib","text":"lib","children":[{"id":"x","text":"x.swift"}]}]}]}]}
    """

  override func setUpWithError() throws {
    daemon = try ListctlDaemon()
  }

  override func tearDown() {
    daemon.stop()
  }

  /// Runs a command that must succeed; returns its stdout.
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

  private func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

  private func createTodo() throws {
    try ok(
      "create", "todo", "--title", "To do", "--selection-mode", "multiple", "--content", "-",
      input: Self.content)
  }

  func testCreateListsDispose() throws {
    XCTAssertEqual(
      try ok("create", "todo", "--title", "To do", "--content", "-", input: Self.content),
      "v0  +§ 'friends' at 0 with 2 rows · +§ 'files' at 1 with 3 rows\n")
    XCTAssertEqual(try ok("lists"), "todo  v0  5 rows  plain  'To do'\n")
    let lists = try json(try ok("lists", "--json"))
    XCTAssertEqual(lists["lists"]?.arrayValue?.first?["title"], "To do")
    XCTAssertEqual(try ok("dispose", "todo"), "disposed todo at v0\n")
    XCTAssertEqual(try ok("lists"), "")
  }

  func testShowRendersTree() throws {
    try createTodo()
    try ok("select", "todo", "alice")
    XCTAssertEqual(
      try ok("show", "todo"),
      """
      todo 'To do' v1 · plain · selection multiple
      § friends — Friends
      ●   Alice · a@x  [badge 3] [›]
          Bob
        ⌊ 2 people
      § files
        ▾ src
            main.swift
          ▸ lib

      """)
    let shown = try json(try ok("show", "todo", "--json"))
    XCTAssertEqual(shown["version"], 1)
    XCTAssertEqual(shown["snapshot"]?["selection"], ["alice"])
  }

  func testApplyFromFileAndStdin() throws {
    try ok("create", "todo")
    let path = daemon.directory + "/content.json"
    try Self.content.write(toFile: path, atomically: true, encoding: .utf8)
    XCTAssertEqual(
      try ok("apply", "todo", path),
      "v1  +§ 'friends' at 0 with 'Alice', 'Bob' · +§ 'files' at 1 with 'src', 'main.swift', 'lib'\n")
    let answer = try json(
      try ok(
        "apply", "todo", "-", "--json",
        input: #"{"sections":[{"id":"friends","items":[{"id":"bob","text":"Bob"}]}]}"#))
    XCTAssertEqual(answer["version"], 2)
    XCTAssertEqual(answer["changeset"]?["sectionDeletes"], [[1, 1]])
  }

  func testEditWithJSONAndFlags() throws {
    try createTodo()
    XCTAssertEqual(
      try ok("edit", "todo", "--append", "carol=Carol", "--section", "friends", "--delete", "bob"),
      "v1  +1 'Carol' at 0:1 · −1 'Bob' at 0:1\n")
    XCTAssertEqual(
      try ok("edit", "todo", #"[{"op":"moveItem","item":"carol","before":"alice"}]"#),
      "v2  ↕ 'Carol' 0:1→0:0\n")
    XCTAssertEqual(try ok("edit", "todo", "--update", "alice=Alicia"), "v3  ~ 'Alicia'\n")
    XCTAssertEqual(
      try ok("edit", "todo", "-", input: #"{"op":"deleteItems","items":["alice"]}"#),
      "v4  −1 'Alicia' at 0:1\n")
  }

  /// Every change line names the items it is about: all inserted rows (up to three), deleted
  /// and moved rows, and an item that moves into a new section (a delete plus an insert on the
  /// wire) reads as a move.
  func testChangeLinesNameTheirItems() throws {
    try createTodo()
    XCTAssertEqual(try ok("expand", "todo", "lib"), "v1  +1 'x.swift' at 1:3 · ~ 'lib' · ▾ lib\n")
    XCTAssertEqual(
      try ok(
        "edit", "todo",
        #"[{"op":"appendItems","section":"friends","items":[{"id":"c","text":"C"},{"id":"d","text":"D"},{"id":"e","text":"E"},{"id":"f","text":"F"}]}]"#
      ),
      "v2  +4 'C', 'D', 'E', … at 0:2\n")
    // Into an outline: moved, and reconfigured (its level and parent changed).
    XCTAssertEqual(
      try ok("edit", "todo", #"{"op":"moveItem","item":"bob","after":"main"}"#),
      "v3  ↕ 'Bob' 0:1→1:2 · ~ 'Bob'\n")
    XCTAssertEqual(
      try ok(
        "edit", "todo",
        #"[{"op":"appendSections","sections":[{"id":"done","header":"Done"}]},{"op":"moveItem","item":"alice","section":"done"}]"#
      ),
      "v4  +§ 'done' at 2 · ↕ 'Alice' 0:0→2:0 (sent as − and +)\n")
    XCTAssertEqual(
      try ok("edit", "todo", #"{"op":"deleteSections","sections":["friends"]}"#),
      "v5  −§ 'friends' with 'C', 'D', 'E', …\n")
    XCTAssertEqual(
      try ok("collapse", "todo", "src"), "v6  −4 'main.swift', 'Bob', 'lib', … at 0:1 · ~ 'src' · ▸ src\n")
  }

  func testSelectExpandCollapse() throws {
    try createTodo()
    XCTAssertEqual(try ok("select", "todo", "alice", "bob"), "v1  ✓ alice bob\n")
    XCTAssertEqual(try ok("deselect", "todo", "bob"), "v2  ✗ bob\n")
    XCTAssertEqual(try ok("expand", "todo", "lib"), "v3  +1 'x.swift' at 1:3 · ~ 'lib' · ▾ lib\n")
    XCTAssertEqual(
      try ok("collapse", "todo", "src", "--recursive"),
      "v4  −3 'main.swift', 'lib', 'x.swift' at 1:1 · ~ 'src' · ▸ src lib\n")
    let change = try json(try ok("expand", "todo", "--json"))
    XCTAssertEqual(change["version"], 5)
    XCTAssertEqual(change["changeset"]?["expanded"], ["src", "lib"])
  }

  func testQueries() throws {
    try createTodo()
    XCTAssertEqual(try ok("query", "item", "todo", "x"), "x 'x.swift' · hidden · level 2 · parent lib\n")
    XCTAssertEqual(try json(try ok("query", "item", "todo", "main", "--json"))["indexPath"], [1, 1])
    XCTAssertEqual(
      try ok("query", "window", "todo", "--offset", "1", "--limit", "2"),
      "0:1  Bob\n1:0  src\n(2 of 5 rows, v0)\n")
    XCTAssertEqual(try json(try ok("query", "window", "todo", "--json"))["totalRows"], 5)
    XCTAssertEqual(try ok("query", "search", "todo", "swift"), "main  1:1\nx  hidden\n")
    XCTAssertEqual(
      try json(try ok("query", "search", "todo", "ALICE", "--json"))["matches"]?.arrayValue?.count, 1)
  }

  func testCall() throws {
    try createTodo()
    let info = try json(try ok("call", "list/info", #"{"list":"todo"}"#))
    XCTAssertEqual(info["rows"], 5)
    XCTAssertEqual(try json(try ok("call", "query/counts", "-", input: #"{"list":"todo"}"#))["items"], 6)
    XCTAssertEqual(try json(try ok("call", "list/all"))["lists"]?.arrayValue?.count, 1)
  }

  func testWatchStreamsReadableLinesAndJSON() throws {
    try createTodo()
    let readable = try RunningListctl(["--socket", daemon.socket, "watch", "todo", "--count", "2"])
    let lines = try RunningListctl(["--socket", daemon.socket, "watch", "todo", "--json"])
    XCTAssertTrue(waitForSubscribers(2))
    try ok("edit", "todo", "--append", "carol=Carol", "--section", "friends", "--delete", "bob")
    try ok("select", "todo", "alice")
    try ok("dispose", "todo")
    let first = readable.finish()
    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertEqual(
      first.stdout, "watching todo at version 0\nv1  +1 'Carol' at 0:1 · −1 'Bob' at 0:1\nv2  ✓ alice\n")
    let second = lines.finish()
    XCTAssertEqual(second.status, 0, second.stderr)
    let messages = try second.stdout.split(separator: "\n").map { try json(String($0)) }
    XCTAssertEqual(messages.count, 3)
    XCTAssertEqual(messages[0]["previousVersion"], 0)
    XCTAssertEqual(messages[1]["changeset"]?["selected"], ["alice"])
    XCTAssertEqual(messages[2]["disposed"]?["version"], 2)
  }

  private func waitForSubscribers(_ count: Int64) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if let text = try? ok("call", "list/info", #"{"list":"todo"}"#), let info = try? json(text),
        (info["subscribers"]?.intValue ?? 0) >= count
      {
        return true
      }
      usleep(20_000)
    }
    return false
  }
}
