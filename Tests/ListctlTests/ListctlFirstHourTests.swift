// What a newcomer met in listctl (issue 23): show page by page, readable errors with hints, "did you mean", one usage form, create's line, JSON positions, column names in any case.
import Foundation
import XCTest

final class ListctlFirstHourTests: XCTestCase {
  /// A fresh private directory, removed after the test.
  private func directory() throws -> String {
    let path = NSTemporaryDirectory() + "listctl-first-hour-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
  }

  /// Creates `list` with `count` rows over three sections (`Item N`).
  private func createBig(_ daemon: ListctlDaemon, _ list: String, count: Int) throws {
    let third = count / 3
    func items(_ range: Range<Int>) -> String {
      range.map { #"{"id": "i\#($0)", "text": "Item \#($0)"}"# }.joined(separator: ",")
    }
    let content = """
      {"sections": [{"id": "a", "header": "A", "items": [\(items(0..<third))]},
      {"id": "b", "footer": "end of b", "items": [\(items(third..<2 * third))]},
      {"id": "c", "items": [\(items(2 * third..<count))]}]}
      """
    let path = try directory() + "/big.json"
    try content.write(toFile: path, atomically: true, encoding: .utf8)
    let created = try daemon.run("create", list, "--content", path)
    XCTAssertEqual(created.status, 0, created.stderr)
  }

  /// `show` prints a page before it asks for the next: a list disposed while its first lines are
  /// being read ends the output early (before, every row came from one answer, fetched before
  /// the first line was printed). Its pages make the same text a whole answer made.
  func testShowPrintsPageByPage() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    try createBig(daemon, "small", count: 2_500)
    let whole = try daemon.run("show", "small")
    XCTAssertEqual(whole.status, 0, whole.stderr)
    let lines = whole.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(lines.count, 1 + 3 + 2_500 + 1 + 1, whole.stdout.prefix(300) + "")
    XCTAssertEqual(lines[0], "small 'small' v0 · plain · selection single")
    XCTAssertEqual(lines[1], "§ a — A")
    XCTAssertEqual(lines[2], "    Item 0")
    XCTAssertEqual(lines[1 + 1 + 833], "§ b")
    XCTAssertEqual(lines[1 + 1 + 833 + 1 + 833], "  ⌊ end of b")
    XCTAssertEqual(lines[lines.count - 2], "    Item 2499")

    try createBig(daemon, "big", count: 20_000)
    let show = try RunningListctl(["--socket", daemon.socket, "show", "big"])
    // The pipe fills long before 20,000 lines: listctl waits to write a later page.
    let first = show.readLine()
    XCTAssertEqual(first, "big 'big' v0 · plain · selection single")
    XCTAssertEqual(try daemon.run("dispose", "big").status, 0)
    let output = show.readToEnd()
    let rest = show.finish()
    XCTAssertFalse(output.contains("Item 19999"), "rows after the dispose were never fetched")
    XCTAssertTrue(output.contains("Item 1"), output.prefix(200) + "")
    XCTAssertTrue(rest.stderr.contains("error -32010: unknown list 'big'"), rest.stderr)
  }

  /// A reader that stops early (`| head -2`) ends `show` quietly.
  func testShowEndsQuietlyWhenItsReaderStops() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    try createBig(daemon, "big", count: 20_000)
    let show = try RunningListctl(["--socket", daemon.socket, "show", "big"])
    XCTAssertEqual(show.readLine(), "big 'big' v0 · plain · selection single")
    show.closeOutput()
    let run = show.finish()
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stderr, "")
  }

  /// An error answer reads as a sentence with a hint, not the message then raw JSON.
  func testErrorsAreReadableWithAHint() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let run = try daemon.run("show", "nope")
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.stderr,
      "listctl: error -32010: unknown list 'nope'\nhint: `listctl lists` shows the lists there are\n")
  }

  /// A mistyped command or option is answered with what was meant, in the one usage form listd
  /// uses too: `TOOL: MESSAGE`, then `Try 'TOOL [COMMAND] --help'.`
  func testTyposGetSuggestionsInTheUsageFormListdUses() throws {
    let command = try runListctl(["shwo", "x"])
    XCTAssertEqual(command.status, 2)
    XCTAssertEqual(
      command.stderr, "listctl: unknown command 'shwo' (did you mean 'show'?)\nTry 'listctl --help'.\n")
    let option = try runListctl(["--socket", "/nonexistent/s", "show", "x", "--att", "3"])
    XCTAssertEqual(option.status, 2)
    XCTAssertEqual(
      option.stderr, "listctl: unknown option '--att' (did you mean '--at'?)\nTry 'listctl show --help'.\n")
    let global = try runListctl(["--sokcet", "/x", "lists"])
    XCTAssertTrue(
      global.stderr.hasPrefix("listctl: unknown option '--sokcet' (did you mean '--socket'?)\n"),
      global.stderr)
    let far = try runListctl(["frobnicate"])
    XCTAssertEqual(far.stderr, "listctl: unknown command 'frobnicate'\nTry 'listctl --help'.\n")

    let listd = Process()
    listd.executableURL = buildDirectory.appendingPathComponent("listd")
    listd.arguments = ["--lsten"]
    let err = Pipe()
    listd.standardError = err
    listd.standardInput = FileHandle.nullDevice
    try listd.run()
    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    listd.waitUntilExit()
    XCTAssertEqual(listd.terminationStatus, 2)
    XCTAssertEqual(text, "listd: unknown option '--lsten' (did you mean '--listen'?)\nTry 'listd --help'.\n")
  }

  /// `create` without content says an empty list was created, not "(no change)"; `show` draws
  /// an outline's disclosure once, as ▸/▾, not again as `[outlineDisclosure]`.
  func testCreateSaysEmptyAndShowDrawsADisclosureOnce() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let empty = try daemon.run("create", "x")
    XCTAssertEqual(empty.stdout, "v0  created 'x', empty (no sections)\n", empty.stderr)
    let content = #"""
      {"sections": [{"id": "s", "items": [{"id": "p", "text": "Parent", "accessories": [{"type": "outlineDisclosure"}, {"type": "checkmark"}],
        "children": [{"id": "c", "text": "Child"}]}]}]}
      """#
    XCTAssertEqual(try daemon.run("create", "tree", "--content", "-", input: content).status, 0)
    XCTAssertEqual(try daemon.run("expand", "tree", "p").status, 0)
    let show = try daemon.run("show", "tree")
    XCTAssertTrue(show.stdout.contains("  ▾ Parent  [✓]\n"), show.stdout)
    XCTAssertFalse(show.stdout.contains("outlineDisclosure"), show.stdout)
  }

  /// An unknown list's hint helps: a near id of the daemon's lists (did you mean), and with
  /// --spawn that its daemon is private and starts empty (or holds only the demo lists).
  func testUnknownListHintsSuggestAndExplainSpawn() throws {
    let spawned = try runListctl(["--spawn", "--", "show", "big"])
    XCTAssertEqual(spawned.status, 1)
    XCTAssertTrue(spawned.stderr.contains("private and starts empty"), spawned.stderr)
    XCTAssertFalse(spawned.stderr.contains("`listctl lists`"), spawned.stderr)
    let demo = try runListctl(["--spawn", "--demo", "--", "show", "contactz"])
    XCTAssertTrue(demo.stderr.contains("hint: did you mean 'contacts'?"), demo.stderr)
    XCTAssertTrue(demo.stderr.contains("only the demo lists"), demo.stderr)
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    XCTAssertEqual(try daemon.run("create", "big").status, 0)
    let typo = try daemon.run("show", "bigg")
    XCTAssertEqual(typo.status, 1)
    XCTAssertTrue(typo.stderr.contains("hint: did you mean 'big'? `listctl lists`"), typo.stderr)
  }

  /// A JSON file's error says where as an editor does: line and column (and the byte offset).
  func testJSONErrorsGiveLineAndColumn() throws {
    let path = try directory() + "/bad.json"
    try "{\"sections\": [\n  {\"id\": \"s\",\n   \"items\": [],}\n]}\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    let run = try runListctl(["--socket", "/nonexistent/s", "create", "x", "--content", path])
    XCTAssertEqual(run.status, 2)
    XCTAssertTrue(
      run.stderr.contains("\(path) is not valid JSON: trailing comma at line 3, column 16 (byte offset 44)"),
      run.stderr)
    // The command line was fine: a bad input file is not a usage error, so no `--help` hint.
    XCTAssertFalse(run.stderr.contains("--help"), run.stderr)
    let script = try directory() + "/script.jsonl"
    try "{\"send\": 1}\n\n{\"send\": [1,]}\n".write(toFile: script, atomically: true, encoding: .utf8)
    let scripted = try runListctl(["--spawn", "--", "run", script])
    XCTAssertTrue(
      scripted.stderr.contains(
        "\(script) is not valid JSON: trailing comma at line 3, column 13 (byte offset 25)"),
      scripted.stderr)
    XCTAssertEqual(scripted.status, 2)
    XCTAssertFalse(scripted.stderr.contains("--help"), scripted.stderr)
  }

  /// Views sort, filter and group by a column named by its id or its title in any case.
  func testColumnNamesMatchIdsAndTitlesInAnyCase() throws {
    let daemon = try ListctlDaemon(["--demo"])
    defer { daemon.stop() }
    let created = try daemon.run(
      "view", "create", "by-pid", "processes", "--sort", "PID:desc", "--where", "Kind = app")
    XCTAssertEqual(created.status, 0, created.stderr)
    let shown = try daemon.run("view", "show", "by-pid")
    // The daemon names a column field `cells.ID`.
    XCTAssertTrue(shown.stdout.contains(#"sort [{"field":"cells.pid","descending":true}]"#), shown.stdout)
    XCTAssertTrue(shown.stdout.contains(#""field":"cells.kind""#), shown.stdout)
    let rows = shown.stdout.split(separator: "\n").filter { $0.contains("6110") || $0.contains("6002") }
    XCTAssertEqual(rows.count, 2, shown.stdout)
    XCTAssertTrue(rows.first?.contains("6110") ?? false, "PID descending:\n\(shown.stdout)")
    let updated = try daemon.run("view", "update", "by-pid", "--sort", "cpu %")
    XCTAssertEqual(updated.status, 0, updated.stderr)
    XCTAssertTrue(
      try daemon.run("view", "show", "by-pid").stdout.contains(
        #"sort [{"field":"cells.cpu","descending":false}]"#))
  }
}
