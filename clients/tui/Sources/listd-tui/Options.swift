// The command line of listd-tui: where the daemon is, which list to open, where to log.
import JSONRPC

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
  /// `--version`: print the version and exit.
  var version = false

  static let usage = """
    usage: listd-tui [--socket PATH | --spawn [LISTD ARGS…] [--] | --demo] [--list ID] [--log FILE]

    A terminal UI for listd: a picker of every list, and a live view of one list.

      --socket PATH   attach to the daemon listening on PATH (default \(UnixSocket.defaultPath))
      --spawn [ARGS]  start a private daemon (ARGS go to listd, up to `--`)
      --demo          start a private daemon with the demo lists (implies --spawn)
      --list ID       open list ID at once
      --log FILE      write diagnostics and the requests sent to FILE
      --version       print the version and the protocol version
      --help          this text

    Press ? in the UI for the keys. NO_COLOR turns colours off.
    """

  struct UsageError: Error, CustomStringConvertible {
    let description: String
  }

  /// Parses the arguments (without the program name); nil for `--help`.
  static func parse(_ arguments: [String]) throws -> Options? {
    var options = Options()
    var rest = arguments[...]
    func value(_ flag: String) throws -> String {
      guard let value = rest.popFirst(), !value.hasPrefix("--") else {
        throw UsageError(description: "\(flag) needs a value")
      }
      return value
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--help", "-h": return nil
      case "--version": options.version = true
      case "--socket": options.socket = try value(argument)
      case "--list": options.list = try value(argument)
      case "--log": options.log = try value(argument)
      case "--demo": options.demo = true
      case "--spawn":
        var extra: [String] = []
        while let next = rest.first, next != "--",
          !["--socket", "--list", "--log", "--demo", "--version"].contains(next)
        {
          extra.append(next)
          rest.removeFirst()
        }
        if rest.first == "--" { rest.removeFirst() }
        options.spawn = extra
      default: throw UsageError(description: "unknown argument '\(argument)'")
      }
    }
    if options.demo && options.spawn == nil { options.spawn = [] }
    if options.socket != nil && options.spawn != nil {
      throw UsageError(description: "--socket excludes --spawn and --demo")
    }
    return options
  }
}
