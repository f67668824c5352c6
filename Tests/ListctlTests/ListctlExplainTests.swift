// listctl's explanations end to end: diff [--explain], edit/preview --explain, and explain LIST.
import Foundation
import JSON
import ListClient
import ListProtocol
import XCTest

final class ListctlExplainTests: XCTestCase {
  /// Before: a b c x y d(▸ d1 d2). After: c a(text A2) b n d(▾ d1 d2) — one of each kind of
  /// change: an insert, a delete of two rows, a move, reconfigures and a revealed run.
  static let old = #"""
    {"sections":[{"id":"s","items":[{"id":"a","text":"A"},{"id":"b","text":"B"},{"id":"c","text":"C"},
      {"id":"x","text":"X"},{"id":"y","text":"Y"},
      {"id":"d","text":"D","children":[{"id":"d1","text":"D1"},{"id":"d2","text":"D2"}]}]}]}
    """#
  static let new = #"""
    {"sections":[{"id":"s","items":[{"id":"c","text":"C"},{"id":"a","text":"A2"},{"id":"b","text":"B"},
      {"id":"n","text":"N"},
      {"id":"d","text":"D","expanded":true,"children":[{"id":"d1","text":"D1"},{"id":"d2","text":"D2"}]}]}]}
    """#

  private func files(_ daemon: ListctlDaemon, _ old: String = old, _ new: String = new) throws -> (
    String, String
  ) {
    let paths = (daemon.directory + "/old.json", daemon.directory + "/new.json")
    try old.write(toFile: paths.0, atomically: true, encoding: .utf8)
    try new.write(toFile: paths.1, atomically: true, encoding: .utf8)
    return paths
  }

  func testDiffPrintsOneReadableLinePerChangeNamingTheItems() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let (old, new) = try files(daemon)
    let run = try daemon.run("diff", old, new)
    XCTAssertEqual(run.status, 0, run.stderr)
    // Deleted and moved rows are named from OLD's rows.
    XCTAssertEqual(
      run.stdout,
      """
      +1 'N' at 0:3
      +2 'D1', 'D2' at 0:5
      −2 'X', 'Y' at 0:3
      ↕ 'C' 0:2→0:0
      ~ 'A2'
      ~ 'D'
      ▾ d

      """)
    let same = try daemon.run("diff", old, old)
    XCTAssertEqual(same.status, 0, same.stderr)
    XCTAssertEqual(same.stdout, "(no change)\n")
  }

  func testDiffExplainPrintsOneLinePerCauseWithItsReason() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let (old, new) = try files(daemon)
    let run = try daemon.run("diff", old, new, "--explain")
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(
      run.stdout,
      """
      − x, y  removed
      + n  added
      + d1, d2  revealed: d expanded
      ↕ c  reordered, now between (start) and a
      ~ a  text "A" → "A2"
      ~ d  expanded false → true
      ▾ d  requested

      """)
  }

  func testDiffExplainOfSectionsAndOfAHugeRevealedRun() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let children = (1...2_000).map { #"{"id":"e\#($0)"}"# }.joined(separator: ",")
    let old = #"""
      {"sections":[{"id":"s","header":"S","items":[{"id":"a"},{"id":"m"}]},{"id":"t","items":[{"id":"t1"}]},
        {"id":"u","items":[{"id":"u1"}]},{"id":"v","items":[{"id":"e","children":[\#(children)]}]}]}
      """#
    let new = #"""
      {"sections":[{"id":"v","items":[{"id":"e","expanded":true,"children":[\#(children)]}]},
        {"id":"s","header":"S2","items":[{"id":"a"}]},{"id":"w","items":[{"id":"m"}]}]}
      """#
    let (oldPath, newPath) = try files(daemon, old, new)
    let run = try daemon.run("diff", oldPath, newPath, "--explain")
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(
      run.stdout,
      """
      −§ t, u  removed
      +§ w  added
      ↕§ s  reordered, now between v and w
      ~§ s  header "S" → "S2"
      − m  moved to new section w
      + 2000 rows from e1  revealed: e expanded
      ~ e  expanded false → true
      ▾ e  requested

      """)
  }

  func testDiffJSONIsTheDaemonsAnswer() async throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let (old, new) = try files(daemon)
    let explained = try daemon.run("diff", old, new, "--explain", "--json")
    XCTAssertEqual(explained.status, 0, explained.stderr)
    let client = try ListClient.socket(path: daemon.socket)
    defer { client.close() }
    _ = try await client.initialize(name: "ListctlExplainTests")
    let params: JSONValue = [
      "old": try JSONValue(parsing: Self.old), "new": try JSONValue(parsing: Self.new), "explain": true,
    ]
    let answer = try await client.call("diff/contents", params)
    XCTAssertEqual(try JSONValue(parsing: explained.stdout), answer)
    let explanation = try XCTUnwrap(answer["explain"].flatMap(Explanation.init))
    XCTAssertEqual(explanation.source.method, "diff/contents")
    XCTAssertEqual(explanation.causes.count, 7)

    let plain = try daemon.run("--json", "diff", old, new)
    XCTAssertEqual(plain.status, 0, plain.stderr)
    XCTAssertEqual(try JSONValue(parsing: plain.stdout), ["changeset": answer["changeset"] ?? .null])
  }

  func testEditPreviewAndApplyExplainEachCauseUnderTheChangeLine() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let (old, new) = try files(daemon)
    XCTAssertEqual(try daemon.run("create", "l", "--content", old).status, 0)
    let preview = try daemon.run("preview", "l", "--delete", "x", "--explain")
    XCTAssertEqual(preview.status, 0, preview.stderr)
    XCTAssertEqual(preview.stdout, "would make v1  −1 'X' at 0:3\n  − x  removed (edit 0 deleteItems)\n")

    let edits = #"[{"op":"moveItem","item":"c","before":"a"},{"op":"expand","item":"d"}]"#
    let edit = try daemon.run(
      "edit", "l", edits, "--delete", "x", "--delete", "y", "--update", "a=A2", "--explain")
    XCTAssertEqual(edit.status, 0, edit.stderr)
    XCTAssertEqual(
      edit.stdout,
      """
      v1  +2 'D1', 'D2' at 0:4 · −2 'X', 'Y' at 0:3 · ↕ 'C' 0:2→0:0 · ~ 'A2' · ~ 'D' · ▾ d
        − x, y  removed (edit 3 deleteItems)
        + d1, d2  revealed: d expanded (edit 1 expand)
        ↕ c  reordered, now between (start) and a (edit 0 moveItem)
        ~ a  text "A" → "A2" (edit 2 patchItems)
        ~ d  expanded false → true (edit 1 expand)
        ▾ d  requested (edit 1 expand)

      """)

    let apply = try daemon.run("apply", "l", new, "--explain")
    XCTAssertEqual(apply.status, 0, apply.stderr)
    XCTAssertEqual(apply.stdout, "v2  +1 'N' at 0:3\n  + n  added\n")
    let json = try daemon.run("edit", "l", "--delete", "n", "--explain", "--json")
    XCTAssertEqual(json.status, 0, json.stderr)
    let answer = try JSONValue(parsing: json.stdout)
    XCTAssertEqual(Change(answer)?.explain?.causes.map(\.reason), ["removed"])
  }

  func testExplainAVersionAndTheLastChangeOfAnItem() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let (old, _) = try files(daemon)
    XCTAssertEqual(try daemon.run("create", "l", "--content", old).status, 0)
    XCTAssertEqual(
      try daemon.run("edit", "l", "--update", "a=A2", "--delete", "x", "--delete", "y").status, 0)
    XCTAssertEqual(try daemon.run("edit", "l", #"{"op":"moveItem","item":"c","before":"a"}"#).status, 0)

    let first = try daemon.run("explain", "l", "1")
    XCTAssertEqual(first.status, 0, first.stderr)
    let session = try XCTUnwrap(
      JSONValue(parsing: try daemon.run("explain", "l", "1", "--json").stdout)["explain"]?["source"]?["by"]?[
        "session"]?.intValue)
    // Without the rows before the change, a deleted run is named by its first id and length.
    XCTAssertEqual(
      first.stdout,
      """
      v1  list/edit by session \(session) (listctl)
        − 2 rows from x  removed (edit 1 deleteItems)
        ~ a  text "A" → "A2" (edit 0 patchItems)

      """)

    let last = try daemon.run("explain", "l", "--item", "a")
    XCTAssertEqual(last.status, 0, last.stderr)
    XCTAssertEqual(
      last.stdout,
      """
      v1  list/edit by session \(session) (listctl) — the last change of a
        ~ a  text "A" → "A2" (edit 0 patchItems)

      """)
    let moved = try daemon.run("explain", "l", "2", "--item", "c")
    XCTAssertTrue(
      moved.stdout.hasSuffix("\n  ↕ c  reordered, now between (start) and a (edit 0 moveItem)\n"),
      moved.stdout)

    let never = try daemon.run("explain", "l", "--item", "b")
    XCTAssertEqual(never.status, 0, never.stderr)
    XCTAssertEqual(never.stdout, "no change of b is kept (history starts at version 1)\n")
    XCTAssertEqual(try daemon.run("create", "fresh").status, 0)
    let fresh = try daemon.run("explain", "fresh", "--item", "b")
    XCTAssertEqual(
      fresh.stdout, "no change of b is kept (the list has no kept change); fresh has no item b now\n")
    // A typo does not read as "nothing happened to it".
    let typo = try daemon.run("explain", "l", "--item", "nosuch")
    XCTAssertEqual(
      typo.stdout, "no change of nosuch is kept (history starts at version 1); l has no item nosuch now\n")
    let other = try daemon.run("explain", "l", "1", "--item", "c")
    XCTAssertTrue(other.stdout.hasSuffix("\n  (nothing in v1 concerns c)\n"), other.stdout)
    let json = try daemon.run("explain", "l", "--item", "b", "--json")
    XCTAssertEqual(
      try JSONValue(parsing: json.stdout), ["list": "l", "version": .null, "item": "b", "oldestVersion": 1])
  }

  func testExplainErrors() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    XCTAssertEqual(try daemon.run("create", "l").status, 0)
    // The daemon's answer: exit 1, its message on stderr.
    let unknown = try daemon.run("explain", "l", "5")
    XCTAssertEqual(unknown.status, 1)
    XCTAssertEqual(unknown.stdout, "")
    XCTAssertTrue(
      unknown.stderr.contains(#"-32602: invalid params: "version" 5 is not a change of list 'l'"#),
      unknown.stderr)
    XCTAssertEqual(try daemon.run("explain", "nope", "1").status, 1)
    // Bad arguments: exit 2, naming the argument, before any request.
    let cases: [([String], String)] = [
      (["explain", "l", "two"], "listctl: VERSION needs an integer, got 'two'"),
      (["explain", "l"], "listctl: explain needs VERSION or --item ID"),
      (["explain", "l", "1", "--item"], "listctl: --item needs a value"),
      (["explain", "l", "1", "2"], "listctl: unexpected argument '2'"),
      (["diff", "a.json"], "listctl: missing an argument"),
      (
        ["diff", "/nonexistent/a.json", "/nonexistent/b.json", "--explain"],
        "listctl: cannot read /nonexistent/a.json"
      ),
      (["edit", "l", "--delete", "a", "--explain=yes"], "listctl: unknown option '--explain=yes'"),
    ]
    for (arguments, message) in cases {
      let run = try runListctl(["--socket", "/nonexistent/s"] + arguments)
      XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
      XCTAssertTrue(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
    }
  }

  func testHelpDescribesExplain() throws {
    let top = try runListctl(["--help"])
    XCTAssertTrue(top.stdout.contains("\n  explain   Explains a change of a list"), top.stdout)
    let explain = try runListctl(["explain", "--help"])
    XCTAssertEqual(explain.status, 0)
    XCTAssertTrue(explain.stdout.hasPrefix("usage: listctl "), explain.stdout)
    XCTAssertTrue(explain.stdout.contains(" explain LIST [VERSION] [--item ID]\n"), explain.stdout)
    let diff = try runListctl(["diff", "--help"])
    XCTAssertTrue(
      diff.stdout.contains(" diff OLD NEW [--explain] | LIST FROM TO [--explain] [--edits]\n"), diff.stdout)
    XCTAssertTrue(diff.stdout.contains("--explain   one line per cause"), diff.stdout)
    for command in ["edit", "preview", "apply"] {
      XCTAssertTrue(
        try runListctl([command, "--help"]).stdout.contains("--explain   after the change line"), command)
    }
  }
}

extension ListctlExplainTests {
  /// A row revealed because its parent moved out from under a collapsed item is not said to be
  /// revealed by an expansion: nothing was expanded.
  func testARowRevealedByAMoveIsNotSaidExpanded() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let content =
      #"{"sections": [{"id": "s", "items": [{"id": "p", "children": [{"id": "q", "expanded": true, "children": [{"id": "c"}]}]}]}]}"#
    XCTAssertEqual(try daemon.run("create", "t", "--content", "-", input: content).status, 0)
    let run = try daemon.run("edit", "t", #"{"op": "moveItem", "item": "q", "section": "s"}"#, "--explain")
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(
      run.stdout.contains("+ c  revealed: moved out from under collapsed p (edit 0 moveItem)"), run.stdout)
  }
}
