// The command table: each command's name, usage, help, flags and implementation.
import JSON

/// One `listctl` command.
struct Command: Sendable {
  let name: String
  /// The arguments after the command name, for usage lines.
  let usage: String
  let summary: String
  /// Further help text (flags, formats).
  let details: String
  let valueFlags: Set<String>
  let switchFlags: Set<String>
  /// Positional count range.
  let positionals: ClosedRange<Int>
  /// Reads and checks the command's input (a file, stdin, inline JSON) before connecting, so
  /// that bad input is a usage error that reaches no daemon; `run` finds it in `Context.input`.
  let input: @Sendable (Arguments) throws -> JSONValue?
  /// Whether the driver connects and initializes before `run` (false: the command does it itself).
  let connects: Bool
  let run: @Sendable (Context) async throws -> Void

  init(
    _ name: String, _ usage: String, _ summary: String, details: String = "", values: Set<String> = [],
    switches: Set<String> = [], positionals: ClosedRange<Int>,
    input: @escaping @Sendable (Arguments) throws -> JSONValue? = { _ in nil }, connects: Bool = true,
    run: @escaping @Sendable (Context) async throws -> Void
  ) {
    self.name = name
    self.usage = usage
    self.summary = summary
    self.details = details
    valueFlags = values
    switchFlags = switches
    self.positionals = positionals
    self.input = input
    self.connects = connects
    self.run = run
  }

  /// `listctl COMMAND --help`.
  var help: String {
    var text = "usage: listctl [--socket PATH | --spawn [LISTD ARGS…] --] \(name) \(usage)\n\n\(summary)"
    if !details.isEmpty { text += "\n\n" + details }
    return text + """


        --json              print the data as JSON
        --timeout SECONDS   the longest wait for each answer of the daemon (default \(seconds(Listctl.defaultTimeout)))
        --help              this help
      """
  }

  /// Checks the number of positionals and the integer flags, so usage errors come before
  /// connecting.
  func validate(_ arguments: Arguments) throws {
    guard positionals.contains(arguments.positionals.count) else {
      let count = arguments.positionals.count
      let why =
        count > positionals.upperBound
        ? "unexpected argument '\(arguments.positionals[positionals.upperBound])'"
        : "missing \(positionals.lowerBound - count == 1 ? "an argument" : "arguments")"
      throw UsageError("\(why)\nusage: listctl \(name) \(usage)")
    }
    for flag in ["--if-version", "--count", "--offset", "--limit"] where valueFlags.contains(flag) {
      _ = try arguments.int(flag)
    }
    for flag in ["--at", "--from", "--to"] where valueFlags.contains(flag) {
      _ = try arguments.version(flag)
    }
  }

  static func named(_ name: String) -> Command? { all.first { $0.name == name } }

  /// Every command, in help order.
  static let all: [Command] = [
    lists, create, dispose, claim, show, preview, diff, explain, check, apply, edit, select, deselect, expand,
    collapse,
    query, watch, call, view,
    run, record, replay,
    demo,
  ]
}
