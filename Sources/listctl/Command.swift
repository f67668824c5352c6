// The command table: each command's name, usage, help, flags and implementation.
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
  /// Index of a positional that is inline JSON (or `-`), checked before connecting.
  let jsonPositional: Int?
  /// Whether the driver connects and initializes before `run` (false: the command does it itself).
  let connects: Bool
  let run: @Sendable (Context) async throws -> Void

  init(
    _ name: String, _ usage: String, _ summary: String, details: String = "", values: Set<String> = [],
    switches: Set<String> = [], positionals: ClosedRange<Int>, jsonPositional: Int? = nil,
    connects: Bool = true, run: @escaping @Sendable (Context) async throws -> Void
  ) {
    self.name = name
    self.usage = usage
    self.summary = summary
    self.details = details
    valueFlags = values
    switchFlags = switches
    self.positionals = positionals
    self.jsonPositional = jsonPositional
    self.connects = connects
    self.run = run
  }

  /// `listctl COMMAND --help`.
  var help: String {
    var text = "usage: listctl [--socket PATH | --spawn [LISTD ARGS…] --] \(name) \(usage)\n\n\(summary)"
    if !details.isEmpty { text += "\n\n" + details }
    return text + "\n\n  --json    print the data as JSON\n  --help    this help"
  }

  /// Checks the number of positionals and inline JSON, so usage errors come before connecting.
  func validate(_ arguments: Arguments) throws {
    guard positionals.contains(arguments.positionals.count) else {
      throw UsageError("usage: listctl \(name) \(usage)")
    }
    if let index = jsonPositional, index < arguments.positionals.count, arguments.positionals[index] != "-" {
      _ = try parseJSON(arguments.positionals[index], what: "\(name): the JSON argument")
    }
  }

  static func named(_ name: String) -> Command? { all.first { $0.name == name } }

  /// Every command, in help order.
  static let all: [Command] = [
    lists, create, dispose, show, apply, edit, select, deselect, expand, collapse, query, watch, call, run,
    demo,
  ]
}
