// Runs every command the README tells a user to run (its ```sh blocks, and those its prose names),
// and those in the comments of the scripted sessions, as written, against the built binaries.
import Foundation
import XCTest

final class ReadmeCommandsTests: XCTestCase {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// How a command named in the README's prose (an inline code span) is run.
  enum Prose {
    /// Run here as written (stdin empty), expecting exit status 0.
    case run
    /// Run by the README's blocks (which this test runs), or a program's name, not a command.
    case elsewhere(String)
    /// Not run, and why.
    case skipped(String)
  }

  /// Every command-like code span of the README's prose. A span the README gains fails the test
  /// until it is listed here.
  static let prose: [String: Prose] = [
    "listctl demo": .run,
    "listd --demo": .run,  // with stdin at end of file it loads the demo lists and exits 0
    "listctl --help": .run,
    "listd --help": .run,
    "listctl --spawn -- run Tests/Scripts/tasks.jsonl": .run,
    "listd --listen --stay": .elsewhere("the tour's block runs it in the background"),
    "listctl": .elsewhere("the program's name"),
    "listd": .elsewhere("the name of the daemon and of the Python package (clients/python)"),
    "listctl preview": .elsewhere("the tour's block runs `listctl preview todo --delete code`"),
    "listctl diff OLD.json NEW.json": .elsewhere(
      "placeholders: ListctlPreviewTests.testDiffOfTwoContentFiles runs it"),
    "listctl check UPDATE.json": .elsewhere(
      "placeholders: ListctlCheckTests.testCheckOfAValidUpdateFile runs it"),
    "listctl show LIST --at VERSION": .elsewhere(
      "placeholders: ListctlTimeTravelTests.testQueriesAndShowAtAVersion runs it"),
    "listctl diff LIST FROM TO --edits": .elsewhere(
      "placeholders: ListctlTimeTravelTests.testDiffBetweenVersionsAndRevertingWithItsEdits runs it"),
    "listctl record LIST": .elsewhere(
      "placeholders: RecordReplayTests.testRecordedHistoriesReplayExactly runs it"),
    "listctl replay FILE": .elsewhere(
      "placeholders: RecordReplayTests.testRecordedHistoriesReplayExactly runs it"),
    "listctl explain LIST VERSION": .elsewhere(
      "placeholders: ListctlExplainTests.testExplainAVersionAndTheLastChangeOfAnItem runs it"),
    "swift run listd-tui --demo": .elsewhere(
      "interactive: ListTUITests.EndToEndTests runs listd-tui --demo in tmux"),
    "listd-tui": .elsewhere("interactive: ListTUITests.EndToEndTests runs listd-tui in tmux"),
    "listd-tui --socket PATH": .elsewhere(
      "interactive: ListTUITests.EndToEndTests attaches listd-tui to a socket"),
    // `script/test` is `swift test`, which runs this test: running it here would recurse.
    "script/test": .skipped("it runs this test"),
    "script/test --filter ListModelTests.SelectionTests": .skipped(
      "it builds the package this test runs from; `swift test --filter`, which it ends in, is how every test here runs"
    ),
    "script/test --long": .skipped("it runs this test (CI runs it: .ci/run)"),
    "swift test": .skipped("it runs this test"),
    "script/install": .elsewhere(
      "CommandLineTests.InstallTests.testTheDefaultInstallFromACleanClone runs it (a release build into ~/.local)"
    ),
    "man listctl": .elsewhere(
      "CommandLineTests.InstallTests checks that man finds the installed pages through PATH"),
    "listctl show <Tab>": .elsewhere(
      "a key press: CommandLineTests.InstallTests completes it in bash and fish"),
    "listd-tui --list <Tab>": .elsewhere(
      "a key press: CommandLineTests.InstallTests completes it in bash and fish"),
    "listctl --generate-man | man -l -": .run,
    "listd --generate-completion zsh": .run,
    "listd --version": .run,
  ]

  /// The ```sh blocks of `markdown`, in order.
  static func shellBlocks(_ markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```sh" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current!.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// The inline code spans of `markdown` outside its fenced blocks that start like a command.
  static func proseCommands(_ markdown: String) -> Set<String> {
    var spans = Set<String>()
    var fenced = false
    for line in markdown.split(separator: "\n") {
      if line.hasPrefix("```") {
        fenced.toggle()
        continue
      }
      guard !fenced else { continue }
      for (index, part) in line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      where index % 2 == 1 {
        let first = part.split(separator: " ").first.map(String.init) ?? ""
        if ["swift", "listctl", "listd", "listd-tui", "script/test", "script/install", "man"].contains(first)
        {
          spans.insert(String(part))
        }
      }
    }
    return spans
  }

  /// One line of a block as the test runs it. Two kinds of lines are not run as written:
  /// - `swift build` / `swift run` would start a second SwiftPM, which waits for the build-directory
  ///   lock that `swift test` holds; `swift test` has just built every product into the build
  ///   directory, so `swift build` becomes a check that its products are there and `swift run X`
  ///   runs `.build/debug/X`.
  /// - `script/test` (it runs this test: it would recurse), the benchmarks (minutes of timing
  ///   runs, not tests) and `script/install` (a release build into `~/.local`:
  ///   `CommandLineTests.InstallTests.testTheDefaultInstallFromACleanClone` runs it as written, with
  ///   a scratch HOME) are skipped.
  static func translate(_ line: String) -> String {
    let command = line.trimmingCharacters(in: .whitespaces)
    if command.hasPrefix("script/test") || command.hasPrefix("swift run -c release listd-bench")
      || command.hasPrefix("script/install")
    {
      return "# skipped: " + line
    }
    if command.hasPrefix("swift build") {
      let words = command.split(separator: "#")[0].split(separator: " ").map(String.init)
      let products =
        words.firstIndex(of: "--product").map { [words[$0 + 1]] } ?? ["listd", "listctl", "listd-tui"]
      // A release build is not what `swift test` made: the check fails, as the README should not ask for one.
      let configuration = words.contains("release") ? "release" : "debug"
      return products.map { "test -x .build/\(configuration)/\($0)" }.joined(separator: " && ")
    }
    return line.replacingOccurrences(of: "swift run ", with: ".build/debug/")
  }

  /// A scratch copy of what the commands read and write, a private runtime directory for the
  /// default socket, and `.build/debug` pointing at the binaries under test.
  private func sandbox() throws -> (directory: String, environment: [String: String]) {
    let directory = NSTemporaryDirectory() + "readme-\(UUID().uuidString)"
    let manager = FileManager.default
    try manager.createDirectory(atPath: directory + "/.build", withIntermediateDirectories: true)
    addTeardownBlock { try? manager.removeItem(atPath: directory) }
    try manager.createSymbolicLink(
      atPath: directory + "/.build/debug", withDestinationPath: buildDirectory.path)
    for item in ["Protocol", "Sources", "Tests", "clients", "Plugins", ".swift-format", "Package.swift"] {
      try manager.copyItem(
        atPath: Self.root.appendingPathComponent(item).path, toPath: directory + "/" + item)
    }
    let runtime = directory + "/runtime"
    try manager.createDirectory(
      atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    return (
      directory,
      [
        "XDG_RUNTIME_DIR": runtime,
        "PATH": buildDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
      ]
    )
  }

  /// Runs `script` with bash in `directory`: background jobs it leaves are stopped at its end,
  /// and its process group (Process gives the child one of its own) is killed after 5 minutes.
  private func bash(
    _ script: String, in directory: String, environment: [String: String], pathFirst: Bool = false
  )
    throws -> Run
  {
    let file = directory + "/script-\(UUID().uuidString).sh"
    let prologue = """
      set -euo pipefail
      trap 'echo "failed: $BASH_COMMAND" >&2' ERR
      trap 'kill $(jobs -p) 2>/dev/null || true' EXIT

      """
    try (prologue + script + "\n")
      .write(toFile: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [file]
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment where key != "PATH" || pathFirst { merged[key] = value }
    process.environment = merged
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stdout = PipeReader(out)
    let stderr = PipeReader(err)
    let deadline = Date().addingTimeInterval(300)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: stdout.wait(), as: UTF8.self),
      stderr: String(decoding: stderr.wait(), as: UTF8.self))
  }

  /// The README's blocks, in order and in one shell (the tour's `export PATH` serves what
  /// follows), as a user would paste them.
  func testEveryShellBlockOfTheReadmeRuns() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let blocks = Self.shellBlocks(readme)
    XCTAssertGreaterThanOrEqual(blocks.count, 5)
    let (directory, environment) = try sandbox()
    let script = blocks.enumerated().map { index, block in
      "echo '--- README block \(index + 1)' >&2\n"
        + block.split(separator: "\n", omittingEmptySubsequences: false).map { Self.translate(String($0)) }
        .joined(separator: "\n")
    }.joined(separator: "\n")
    let run = try bash(script, in: directory, environment: environment)
    XCTAssertEqual(run.status, 0, "the README's commands failed:\n\(run.stderr)\n\(run.stdout)")

    // What the README says the commands print, they print.
    let answer =
      #"{"list":"todo","version":1,"changeset":{"itemInserts":[{"at":[0,1],"rows":[{"id":"b","text":"Write code","level":0}]}]}}"#
    XCTAssertTrue(readme.contains("`\(answer)`"))
    XCTAssertTrue(run.stdout.contains(#""id":3,"result":\#(answer)"#), run.stdout)
    XCTAssertTrue(run.stdout.contains("Write the spec (draft 2) · due Monday  [badge 2]"), run.stdout)
    XCTAssertTrue(
      run.stdout.contains("watching todo at version 0\nv1  ~ 'Write the spec (draft 2)'\n"), run.stdout)
    XCTAssertTrue(run.stdout.contains("v2  disposed"), run.stdout)
    // The one test of the Python client the README runs with pytest ran, and passed.
    XCTAssertTrue(run.stdout.contains("\n1 passed in "), run.stdout)
    // The Python client, pip-installed into a virtual environment, read the same daemon; the
    // comments under its `print` are every line it printed (rows print as `[s, r] id text`).
    let printed = run.stdout.split(separator: "\n").filter { $0.hasPrefix("[") && $0.contains("] ") }
    let commented = readme.split(separator: "\n").filter { $0.hasPrefix("# [") }.map { $0.dropFirst(2) }
    XCTAssertEqual(printed, Array(commented), run.stdout)
    XCTAssertTrue(run.stdout.contains("[1, 0] code Write the code\n"), run.stdout)
    XCTAssertTrue(
      run.stdout.contains(
        "\n  ↕ code  moved from section today, now between (start) and (end) (edit 0 moveItem)\n"),
      run.stdout)
    XCTAssertTrue(
      run.stdout.contains("\n~ code  text \"Write the code\" → \"Write the tests\"\n"), run.stdout)
    XCTAssertTrue(
      run.stdout.contains("groceries 'groceries' v1 · plain · selection single\n§ s\n    Milk\n    Bread\n"),
      run.stdout)
    // The development block formatted the copies and rewrote the transcripts: the repository is
    // formatted and its transcripts are current.
    for folder in ["Sources", "Tests", "clients", "Plugins", "Protocol/examples"] {
      let original = Self.root.appendingPathComponent(folder).path
      let enumerator = FileManager.default.enumerator(atPath: original)
      while let file = enumerator?.nextObject() as? String {
        guard file.hasSuffix(".swift") || file.hasSuffix(".jsonl") else { continue }
        XCTAssertEqual(
          FileManager.default.contents(atPath: directory + "/" + folder + "/" + file),
          FileManager.default.contents(atPath: original + "/" + file),
          "\(folder)/\(file) changed: run the README's development commands")
      }
    }
  }

  /// The commands the README's prose names are listed above, and those to run, run.
  func testEveryCommandTheReadmeNamesIsListedAndRuns() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let named = Self.proseCommands(readme)
    XCTAssertEqual(
      named.subtracting(Self.prose.keys).sorted(), [],
      "the README names commands this test does not know: list them in ReadmeCommandsTests.prose")
    let (directory, environment) = try sandbox()
    for (command, kind) in Self.prose.sorted(by: { $0.key < $1.key }) where named.contains(command) {
      guard case .run = kind else { continue }
      let run = try bash(command, in: directory, environment: environment, pathFirst: true)
      XCTAssertEqual(run.status, 0, "\(command): \(run.stderr)")
    }
  }

  /// Commands that comments of the scripted sessions give (`listctl --spawn -- run FILE`) run.
  func testCommandsInScriptCommentsRun() throws {
    let (directory, environment) = try sandbox()
    var commands: [String] = []
    for folder in ["Tests/Scripts", "Protocol/examples"] {
      for script in ListctlScriptTests.scripts(in: folder) {
        let text = try String(contentsOfFile: script, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"listctl [^:"]*?\.jsonl"#)
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
          commands.append(String(text[Range(match.range, in: text)!]))
        }
      }
    }
    XCTAssertTrue(commands.contains("listctl --spawn -- run Tests/Scripts/tasks.jsonl"), "\(commands)")
    for command in commands {
      let run = try bash(command, in: directory, environment: environment, pathFirst: true)
      XCTAssertEqual(run.status, 0, "\(command): \(run.stderr)")
    }
  }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
  // `@unchecked Sendable`: `data` is guarded by `condition`.
  private let condition = NSCondition()
  private var data: Data?

  init(_ pipe: Pipe) {
    Thread.detachNewThread { [self] in
      let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
      condition.lock()
      data = bytes
      condition.broadcast()
      condition.unlock()
    }
  }

  /// What was read, once the pipe's writers have all closed it.
  func wait() -> Data {
    condition.lock()
    defer { condition.unlock() }
    while data == nil { condition.wait() }
    return data!
  }
}
