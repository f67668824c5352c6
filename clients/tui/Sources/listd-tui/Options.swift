// The command line of listd-tui: where the daemon is, which list to open, where to log (the table --help, the man page and the completions come from).
import CommandLineDescription
import JSONRPC
import ListTUI

/// Parsed command-line options.
struct Options {
  /// The daemon's socket (`--socket PATH`, else the default path), unless spawning.
  var socket: String?
  /// Extra arguments for a daemon to spawn (`--spawn [ARGS…] --`); nil when attaching.
  var spawn: [String]?
  /// `--demo`: spawn a daemon with the demo lists.
  var demo = false
  /// `--list ID`: open this list directly.
  var list: String?
  /// `--log FILE`: diagnostics and every request sent.
  var log: String?

  /// Every option, in help order: adding one is adding its entry here.
  static let table: OptionTable<Options> = [
    .value("--socket", "PATH", .files, "attach to the daemon listening on PATH (default {socket})") {
      $0.socket = $1.text
    },
    OptionEntry(
      Option(
        "--spawn", .untilDoubleDash("LISTD ARGS…"),
        help: "start a private daemon; its arguments go to listd, up to `--` or the next listd-tui option")
    ) { $0.spawn = $1.words },
    .flag("--demo", "start a private daemon with the demo lists (implies --spawn)") { $0.demo = true },
    .value("--list", "ID", .lists, "open list ID at once") { $0.list = $1.text },
    .value("--log", "FILE", .files, "write diagnostics and the requests sent to FILE") { $0.log = $1.text },
  ]

  /// The description `--help`, `--generate-man` and `--generate-completion` render.
  static var commandLine: ToolDescription {
    ToolDescription(
      name: "listd-tui",
      summary: "a terminal UI for listd: a picker of every list, and a live view of one list.",
      usage: ["listd-tui [--socket PATH | --spawn [LISTD ARGS…] [--] | --demo] [--list ID] [--log FILE]"],
      about: [
        "Attaches to a running `listd --listen --stay` (its socket: --socket, else the default one), or starts "
          + "a private daemon (--spawn, --demo). The picker lists every list of the daemon and follows them "
          + "live; Enter opens one: sections, outlines, accessories and selection, changing as the daemon's "
          + "clients change it. Only the visible rows are fetched, so a list of a million rows scrolls like "
          + "a small one."
      ],
      options: table.options,
      sections: [
        Section("KEYS", ["Press ? in the UI for the keys. NO_COLOR turns colours off."], inHelp: true),
        Section(
          "KEYS",
          Overlays.help.map { key, action in
            "\(key.padding(toLength: 13, withPad: " ", startingAt: 0)) \(action)"
          },
          preformatted: true),
        Section(
          "EXIT STATUS",
          [
            "0 when quit (q, or its input closed), 1 when it cannot start (no terminal, a private daemon that "
              + "cannot start, a log it cannot open), 2 for a usage error, 128 + the signal's number when a "
              + "signal ends it."
          ]),
        Section(
          "ENVIRONMENT",
          [
            UnixSocket.environmentHelp,
            "LISTD: the daemon --spawn starts; else the listd next to listd-tui, else the first on PATH.",
            "NO_COLOR: when set and not empty, no colours.",
            EventLoopKind.environmentHelp,
          ], inHelp: true),
      ],
      seeAlso: ["listd(1)", "listctl(1)"],
      socketOption: "--socket",
      variables: ["socket": Variable(here: UnixSocket.defaultPath, rule: UnixSocket.defaultPathRule)]
    )
  }

  /// A failure to start, worded for the user.
  struct UsageError: Error, CustomStringConvertible {
    let description: String
  }

  /// Parses the arguments (without the program name and the standard options).
  static func parse(_ arguments: [String]) throws -> Options {
    var options = Options()
    try table.parse(arguments, into: &options)
    if options.demo && options.spawn == nil { options.spawn = [] }
    if options.socket != nil && options.spawn != nil {
      throw UsageMessage("--socket excludes --spawn and --demo")
    }
    return options
  }
}
