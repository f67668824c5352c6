// End-to-end: what listctl says about bad input and misplaced options, --version, watch --ready.
import Foundation
import JSON
import XCTest

final class ListctlInputTests: XCTestCase {
  /// A fresh private directory, removed after the test.
  private func directory() throws -> String {
    let path = NSTemporaryDirectory() + "listctl-input-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
  }

  /// Latin-1 `é` (0xE9) is not UTF-8: refused like the daemon refuses it, naming the byte offset,
  /// from a file and from stdin; nothing is created.
  func testInvalidUTF8ContentIsRefusedNamingTheOffset() throws {
    let daemon = try ListctlDaemon()
    defer { daemon.stop() }
    let bytes =
      Data(#"{"sections":[{"id":"s","items":[{"id":"a","text":"caf"#.utf8) + Data([0xE9])
      + Data(#""}]}]}"#.utf8)
    let path = try directory() + "/latin1.json"
    try bytes.write(to: URL(fileURLWithPath: path))
    let offset = bytes.firstIndex(of: 0xE9)!
    let fromFile = try daemon.run("create", "x", "--content", path)
    XCTAssertEqual(fromFile.status, 2, fromFile.stderr)
    XCTAssertTrue(
      fromFile.stderr.contains(
        "\(path) is not valid JSON: invalid UTF-8 at line 1, column \(offset + 1) (byte offset \(offset))"),
      fromFile.stderr)
    let fromStdin = try runListctl(["--socket", daemon.socket, "apply", "x", "-"], input: bytes)
    XCTAssertEqual(fromStdin.status, 2, fromStdin.stderr)
    XCTAssertTrue(
      fromStdin.stderr.contains(
        "stdin is not valid JSON: invalid UTF-8 at line 1, column \(offset + 1) (byte offset \(offset))"),
      fromStdin.stderr)
    XCTAssertEqual(try daemon.run("lists").stdout, "")
  }

  /// An edit given on the command line that is not JSON is "the edit argument", with its place.
  func testAnEditArgumentThatIsNotJSONIsNamedSo() throws {
    let run = try runListctl([
      "--socket", "/nonexistent/s", "edit", "todo", #"{"op": "appendItems", items: []}"#,
    ])
    XCTAssertEqual(run.status, 2, run.stderr)
    XCTAssertTrue(run.stderr.contains("the edit argument is not valid JSON: "), run.stderr)
    XCTAssertTrue(run.stderr.contains("line 1, column 23"), run.stderr)
  }

  func testAFileThatCannotBeReadSaysWhy() throws {
    let run = try runListctl(["--socket", "/nonexistent/s", "create", "x", "--content", "nope.json"])
    XCTAssertEqual(run.status, 2)
    XCTAssertTrue(
      run.stderr.hasPrefix("listctl: cannot read nope.json: No such file or directory\n"), run.stderr)
    let script = try runListctl(["--spawn", "--", "run", "/nonexistent/script.jsonl"])
    XCTAssertTrue(script.stderr.contains("No such file or directory"), script.stderr)
  }

  func testVersion() throws {
    let run = try runListctl(["--version"])
    XCTAssertEqual(run.status, 0)
    let daemonVersion = try listdOutput(["--version"])
    // `listd 0.1.0 (protocol 1)` and `listctl 0.1.0 (protocol 1)`: the same build, the same protocol.
    XCTAssertTrue(daemonVersion.hasPrefix("listd "), daemonVersion)
    XCTAssertEqual(run.stdout, "listctl " + daemonVersion.dropFirst("listd ".count))
  }

  /// A listd option given where listctl's options go says where it belongs.
  func testADaemonOptionInTheWrongPlaceSaysWhereItGoes() throws {
    for arguments in [["--spawn", "--demo", "lists"], ["--demo", "lists"], ["--spawn", "lists", "--demo"]] {
      let run = try runListctl(arguments)
      XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
      XCTAssertTrue(
        run.stderr.contains(
          "--demo is a listd option: put daemon options between --spawn and --, as in `listctl --spawn --demo -- lists`"
        ),
        "\(arguments): \(run.stderr)")
    }
    let value = try runListctl(["--spawn", "show", "x", "--max-frame-bytes", "9"])
    XCTAssertTrue(value.stderr.contains("`listctl --spawn --max-frame-bytes N -- show`"), value.stderr)
  }

  /// Every option `listd --help` prints is one listctl recognizes as listd's (it asks the listd it
  /// would spawn, `listd --list-options`: no second table to keep in step).
  func testEveryListdOptionIsRecognizedAsListds() throws {
    let help = try listdOutput(["--help"])
    var flags: [String] = []
    for line in help.split(separator: "\n") {
      let words = line.split(separator: " ")
      guard let first = words.first, first.hasPrefix("--"), line.hasPrefix("  --") else { continue }
      flags.append(String(first))
    }
    let own = ["--version", "--help", "--generate-man", "--generate-completion"]
    XCTAssertGreaterThanOrEqual(flags.filter { !own.contains($0) }.count, 10, help)
    for flag in flags where !own.contains(flag) {
      XCTAssertTrue(try runListctl([flag, "lists"]).stderr.contains("\(flag) is a listd option"), flag)
    }
    // Without a listd to ask, an unknown option is only that.
    let alone = try runListctl(
      ["--demo", "lists"], environment: ["LISTD": "/nonexistent/listd", "PATH": "/nonexistent"])
    XCTAssertTrue(alone.stderr.hasPrefix("listctl: unknown option '--demo'"), alone.stderr)
  }

  /// A usage error of a command points at that command's help.
  func testCommandUsageErrorsPointAtTheCommandsHelp() throws {
    for (arguments, command) in [
      (["show"], "show"), (["edit", "l", "--update", "x"], "edit"),
      (["watch", "l", "--count", "x"], "watch"),
      (["lists", "--nope"], "lists"),
    ] {
      let run = try runListctl(["--socket", "/nonexistent/s"] + arguments)
      XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
      XCTAssertTrue(
        run.stderr.hasSuffix("\nTry 'listctl \(command) --help'.\n"), "\(arguments): \(run.stderr)")
    }
    XCTAssertTrue(try runListctl(["bogus"]).stderr.hasSuffix("\nTry 'listctl --help'.\n"))
  }

  /// `watch --ready` prints its first line once subscribed: a change made after reading it is
  /// always seen, with no sleep.
  func testWatchSaysWhenItIsSubscribed() throws {
    let daemon = try ListctlDaemon(["--demo"])
    defer { daemon.stop() }
    for json in [false, true] {
      let watch = Process()
      watch.executableURL = buildDirectory.appendingPathComponent("listctl")
      watch.arguments =
        ["--socket", daemon.socket, "watch", "contacts", "--count", "1", "--ready"] + (json ? ["--json"] : [])
      let output = Pipe()
      watch.standardOutput = output
      try watch.run()
      let reader = output.fileHandleForReading
      var first = Data()
      while !first.contains(UInt8(ascii: "\n")) {
        let chunk = reader.availableData
        if chunk.isEmpty { break }
        first += chunk
      }
      let version = json ? 2 : 0  // the readable round selects and deselects first
      let expected =
        json ? #"{"watching":{"list":"contacts","version":\#(version)}}"# : "watching contacts at version 0"
      XCTAssertEqual(String(decoding: first, as: UTF8.self), expected + "\n")
      XCTAssertEqual(try daemon.run("select", "contacts", "ada").status, 0)
      let rest = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
      watch.waitUntilExit()
      XCTAssertEqual(watch.terminationStatus, 0)
      if json {
        XCTAssertEqual(try JSONValue(parsing: rest)["version"], .int(Int64(version + 1)))
      } else {
        XCTAssertEqual(rest, "v1  ✓ ada\n")
      }
      XCTAssertEqual(try daemon.run("deselect", "contacts", "ada").status, 0)
    }
  }

  /// What the built `listd` prints on stdout with `arguments`.
  func listdOutput(_ arguments: [String]) throws -> String {
    let listd = Process()
    listd.executableURL = buildDirectory.appendingPathComponent("listd")
    listd.arguments = arguments
    let output = Pipe()
    listd.standardOutput = output
    try listd.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    listd.waitUntilExit()
    return text
  }
}
