// listctl's command line as --help, listctl(1) and the completions describe it: global options and the command table.
import CommandLineDescription
import JSONRPC

extension Listctl {
  /// The description `--help`, `--generate-man` and `--generate-completion` render; the commands
  /// come from ``Command/all``.
  static var commandLine: ToolDescription {
    ToolDescription(
      name: "listctl",
      summary: "the scripting client of listd: lists, edits, queries, watches and scripted sessions.",
      usage: [
        "listctl [--socket PATH | --spawn [LISTD ARGS…] --] [--timeout SECONDS] [--json] COMMAND [ARGS…]"
      ],
      about: [
        "Talks to a listd daemon: over its Unix socket (--socket PATH; default {socket}), or over the stdio "
          + "of a private daemon it starts (--spawn; listd's own options, such as --demo, go between --spawn "
          + "and `--`: `listctl --spawn --demo -- lists`)."
      ],
      options: options,
      commands: Command.all.map(\.subcommand),
      commandsNote:
        "`listctl COMMAND --help` describes a command. Data output is readable text, or JSON with "
        + "--json. Every command also takes --json, --timeout SECONDS and --help.",
      sections: [
        Section(
          "EXIT STATUS",
          [
            "exit codes: 0 ok, 1 the daemon answered with an error (printed to stderr, with a hint when one "
              + "helps), 2 usage error (then `Try 'listctl COMMAND --help'.`, as listd and listd-tui say it) or "
              + "an input file (or stdin) that cannot be read or is not valid JSON (no --help hint: it names the "
              + "file, line and column), "
              + "3 cannot connect, the connection was lost, or no answer within --timeout. A reader of stdout "
              + "that stops early (`| head`) ends a command quietly, with 0."
          ], inHelp: true),
        Section(
          "ENVIRONMENT",
          [
            UnixSocket.environmentHelp,
            "LISTD: the daemon --spawn (and demo) starts; else the listd next to listctl, else the first on PATH.",
            EventLoopKind.environmentHelp,
          ], inHelp: true),
        Section(
          "EXAMPLES",
          [
            "`listctl --spawn --demo -- show files` prints the demo's outline as a tree.",
            "`listd --listen --stay &` starts a shared daemon; then `listctl create todo --content todo.json`, "
              + "`listctl watch todo` (one line per change) and `listctl edit todo --append id=text` work on it.",
          ]),
      ],
      seeAlso: ["listd(1)", "listd-tui(1)"],
      socketOption: "--socket",
      variables: ["socket": Variable(here: UnixSocket.defaultPath, rule: UnixSocket.defaultPathRule)]
    )
  }

  /// The options before the command (``main(_:)`` reads them).
  static let options: [Option] = [
    Option("--socket", .required("PATH", .files), help: "the daemon's socket (default {socket})"),
    Option(
      "--spawn", .untilDoubleDash("LISTD ARGS…"),
      help:
        "start a private daemon for this command and talk to it over its stdio; listd's options go before `--`"
    ),
    Option(
      "--timeout", .required("SECONDS", .none),
      help:
        "the longest wait for each answer of the daemon (default \(seconds(defaultTimeout))); also accepted "
        + "after the command. `watch` waits for changes without a limit unless --timeout is given."),
    Option("--json", help: "print the data as JSON (also accepted after the command)"),
  ]
}

extension Command {
  /// This command as the help, the man page and the completions show it: its flags and how its
  /// positionals complete are read from its usage line and details.
  var subcommand: Subcommand {
    let flags = Self.flagsInOrder(usage + "\n" + details).filter {
      valueFlags.contains($0) || switchFlags.contains($0)
    }
    let unlisted = valueFlags.union(switchFlags).subtracting(flags).sorted()
    var options = (flags + unlisted).map { flag -> Option in
      guard valueFlags.contains(flag) else { return Option(flag, help: "") }
      let value = Self.placeholder(after: flag, in: usage + "\n" + details) ?? "VALUE"
      return Option(flag, .required(value, Self.completion(value)), help: "")
    }
    options += [
      Option("--json", help: "print the data as JSON"),
      Option(
        "--timeout", .required("SECONDS", .none), help: "the longest wait for each answer of the daemon"),
      Option(["-h", "--help"], help: "this command's help"),
    ].filter { !valueFlags.contains($0.name) && !switchFlags.contains($0.name) }
    let (positionals, repeats) = positionalCompletions
    return Subcommand(
      name: name, usage: usage, summary: summary, details: details, options: options,
      positionals: positionals,
      repeatsLast: repeats)
  }

  /// How each positional of the usage line completes, merged across its ` | ` alternatives
  /// (`item LIST ID | window LIST`), and whether the last one repeats (`ID…`).
  var positionalCompletions: ([Completion], Bool) {
    var merged: [Completion] = []
    var repeats = false
    for alternative in usage.components(separatedBy: " | ") {
      var words: [String] = []
      var skipValue = false
      for token in alternative.split(separator: " ") {
        let word = token.filter { !"[]()".contains($0) }
        guard !word.isEmpty else { continue }
        if skipValue {
          skipValue = false
          continue
        }
        if word.hasPrefix("--") {
          skipValue = valueFlags.contains(word)
          continue
        }
        words.append(word)
      }
      for (index, word) in words.enumerated() {
        let completion =
          word.allSatisfy(\.isLowercase)
          ? .choices([word]) : Self.completion(String(word.trimmingSuffix("…")))
        if index == merged.count {
          merged.append(completion)
        } else if case .choices(let old) = merged[index], case .choices(let new) = completion {
          merged[index] = .choices(old + new.filter { !old.contains($0) })
        } else if merged[index] == .none {
          merged[index] = completion
        }
      }
      if let last = words.last, last.hasSuffix("…") { repeats = true }
    }
    return (merged, repeats)
  }

  /// How a placeholder of a usage line completes: LIST a list id, files for FILE, SCRIPT, OLD,
  /// NEW, PATH and `*.json`; anything else is free text.
  static func completion(_ placeholder: String) -> Completion {
    if placeholder == "LIST" { return .lists }
    let files = ["FILE", "SCRIPT", "OLD", "NEW", "PATH"]
    if files.contains(where: { placeholder.contains($0) }) || placeholder.hasSuffix(".json") { return .files }
    return .none
  }

  /// The `--flags` of `text`, each once, in order of appearance.
  static func flagsInOrder(_ text: String) -> [String] {
    var flags: [String] = []
    for token in text.split(whereSeparator: { " \n[](),|`".contains($0) }) where token.hasPrefix("--") {
      let flag = String(token.prefix { $0.isLetter || $0.isNumber || $0 == "-" })
      if flag.count > 2 && !flags.contains(flag) { flags.append(flag) }
    }
    return flags
  }

  /// The placeholder after the first `flag ` of `text` (`--content FILE|-` → `FILE|-`).
  static func placeholder(after flag: String, in text: String) -> String? {
    var rest = Substring(text)
    while let range = rest.range(of: flag + " ") {
      let word = rest[range.upperBound...].prefix { !" ])\n".contains($0) }
      if let first = word.first, first.isUppercase { return String(word) }
      rest = rest[range.upperBound...]
    }
    return nil
  }
}

extension StringProtocol {
  /// The string without `suffix` at its end.
  fileprivate func trimmingSuffix(_ suffix: String) -> SubSequence {
    hasSuffix(suffix) ? dropLast(suffix.count) : self[...]
  }
}
