// One description of a command-line tool: what --help, the man page and the completions are made from.
import Foundation

/// A tool's command line: its options, its commands and its text. `--help`, the man page and the
/// bash, zsh and fish completion scripts are all rendered from it, so they cannot disagree.
public struct ToolDescription: Sendable {
  /// The program's name, as typed.
  public var name: String
  /// What it is, in a few words: the man page's NAME line and the first line of `--help`.
  public var summary: String
  /// The usage lines, without `usage: ` (`listd [options]`).
  public var usage: [String]
  /// Paragraphs between the usage and the options (the man page's DESCRIPTION).
  public var about: [String]
  /// The options, in help order; ``standardOptions`` are added at the end.
  public var options: [Option]
  /// The commands (`listctl lists`, …), if the tool has any.
  public var commands: [Subcommand]
  /// Text under the command list in `--help` and the man page (how to get a command's help).
  public var commandsNote: String?
  /// Further sections (EXIT STATUS, ENVIRONMENT, FILES, …).
  public var sections: [Section]
  /// Other manual pages and documents (`listctl(1)`), for SEE ALSO.
  public var seeAlso: [String]
  /// The option naming the daemon's socket, which completing a list id passes on to
  /// `listctl lists --ids`.
  public var socketOption: String?
  /// Texts that `--help` shows as they are on this machine and the man page as the rule that gives
  /// them: every `{key}` in a text is replaced.
  public var variables: [String: Variable]

  public init(
    name: String, summary: String, usage: [String], about: [String] = [], options: [Option],
    commands: [Subcommand] = [], commandsNote: String? = nil, sections: [Section] = [],
    seeAlso: [String] = [],
    socketOption: String? = nil, variables: [String: Variable] = [:]
  ) {
    self.name = name
    self.summary = summary
    self.usage = usage
    self.about = about
    self.options = options
    self.commands = commands
    self.commandsNote = commandsNote
    self.sections = sections
    self.seeAlso = seeAlso
    self.socketOption = socketOption
    self.variables = variables
  }

  /// The options every tool has: help, version, and printing its own man page and completions.
  public static let standardOptions: [Option] = [
    Option("--version", help: "print the version and the commit it was built from, and exit"),
    Option(["-h", "--help"], help: "print the help: usage and options; then exit"),
    Option("--generate-man", help: "print the manual page (roff, for man -l or share/man/man1) and exit"),
    Option(
      "--generate-completion", .required("SHELL", .choices(Shell.allCases.map(\.rawValue))),
      help: "print the completion script for bash, zsh or fish and exit"),
  ]

  /// ``options`` followed by ``standardOptions``.
  public var allOptions: [Option] { options + Self.standardOptions }

  /// `text` with every `{key}` of ``variables`` replaced, for `--help` (`manual` false) or the
  /// man page (`manual` true).
  func expand(_ text: String, manual: Bool) -> String {
    var result = text
    for (key, variable) in variables {
      result = result.replacingOccurrences(of: "{\(key)}", with: manual ? variable.rule : variable.here)
    }
    return result
  }
}

/// A value that depends on the machine, such as the default socket path.
public struct Variable: Sendable {
  /// The value here, for `--help`.
  public var here: String
  /// How it is found, for the man page.
  public var rule: String

  public init(here: String, rule: String) {
    self.here = here
    self.rule = rule
  }
}

/// One option of a tool or a command.
public struct Option: Sendable {
  /// Its spellings, short ones first (`-h`, `--help`).
  public var names: [String]
  /// What follows it.
  public var argument: Argument
  /// One paragraph (help and man page wrap it); may use `{key}` variables.
  public var help: String

  public init(_ names: [String], _ argument: Argument = .none, help: String) {
    self.names = names
    self.argument = argument
    self.help = help
  }

  public init(_ name: String, _ argument: Argument = .none, help: String) {
    self.init([name], argument, help: help)
  }

  /// Its longest spelling (`--help`).
  public var name: String { names.last ?? "" }

  /// What an option takes after it.
  public enum Argument: Sendable, Equatable {
    /// Nothing: a switch.
    case none
    /// One value, named for the help (`PATH`), and how to complete it.
    case required(String, Completion)
    /// A value if the next word is not an option.
    case optional(String, Completion)
    /// Every word up to `--` (named for the help: `LISTD ARGS…`).
    case untilDoubleDash(String)

    /// How its value completes, if it takes one word.
    public var completion: Completion? {
      switch self {
      case .required(_, let completion), .optional(_, let completion): return completion
      case .none, .untilDoubleDash: return nil
      }
    }
  }

  /// `--listen [PATH]`, `-h, --help`: the names and the value as help shows them.
  public var synopsis: String {
    let names = self.names.joined(separator: ", ")
    switch argument {
    case .none: return names
    case .required(let value, _): return "\(names) \(value)"
    case .optional(let value, _): return "\(names) [\(value)]"
    case .untilDoubleDash(let value): return "\(names) [\(value)] --"
    }
  }
}

/// What a shell may offer for a value.
public enum Completion: Sendable, Equatable {
  /// Free text: nothing to offer.
  case none
  /// File names.
  case files
  /// Directory names.
  case directories
  /// One of these words.
  case choices([String])
  /// The ids of the running daemon's lists (asked with `listctl lists --ids`).
  case lists
}

/// One command of a tool with commands (`listctl show`).
public struct Subcommand: Sendable {
  public var name: String
  /// What follows the command's name in its usage line.
  public var usage: String
  /// One line.
  public var summary: String
  /// Preformatted text (its layout is kept): flags, formats, examples.
  public var details: String
  /// The options it takes (names and values; their help is in ``details``).
  public var options: [Option]
  /// How each positional argument completes, in order.
  public var positionals: [Completion]
  /// Whether the last positional repeats (`ID…`).
  public var repeatsLast: Bool

  public init(
    name: String, usage: String, summary: String, details: String = "", options: [Option] = [],
    positionals: [Completion] = [], repeatsLast: Bool = false
  ) {
    self.name = name
    self.usage = usage
    self.summary = summary
    self.details = details
    self.options = options
    self.positionals = positionals
    self.repeatsLast = repeatsLast
  }

  /// How the positional at `index` completes.
  public func positional(_ index: Int) -> Completion {
    if index < positionals.count { return positionals[index] }
    return repeatsLast ? positionals.last ?? .none : .none
  }
}

/// A titled section of the man page; `--help` shows its text after the options when ``inHelp``.
/// Consecutive sections with one title make one section of the man page.
public struct Section: Sendable {
  /// The man page's section title (`EXIT STATUS`).
  public var title: String
  /// Paragraphs (or lines, when ``preformatted``); may use `{key}` variables.
  public var paragraphs: [String]
  /// Whether `--help` shows it too.
  public var inHelp: Bool
  /// Whether its lines keep their layout (a table) instead of being filled as paragraphs.
  public var preformatted: Bool

  public init(_ title: String, _ paragraphs: [String], inHelp: Bool = false, preformatted: Bool = false) {
    self.title = title
    self.paragraphs = paragraphs
    self.inHelp = inHelp
    self.preformatted = preformatted
  }
}

/// The shells whose completion scripts a tool prints.
public enum Shell: String, CaseIterable, Sendable {
  case bash, zsh, fish
}
