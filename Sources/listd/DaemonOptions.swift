// The daemon's command line: flags, their defaults, --help and --version.
import Foundation
import JSONRPC
import ListServer

/// What `listd` was asked to do.
struct DaemonOptions {
  var listenPath: String?
  var stay = false
  var demo = false
  var logFile: String?
  var logLevel = Logger.Level.info
  var server = ServerOptions()

  static let help = """
    listd — live list data sources over JSON-RPC 2.0 (LSP framing) on stdio and a Unix socket.

    usage: listd [options]

      --listen [PATH]        also serve a Unix socket (default \(UnixSocket.defaultPath));
                             its directory must be one only you can enter (created 0700 if missing)
      --stay                 with --listen: keep serving socket clients after stdin closes
      --demo                 start with the demo lists (contacts, settings, files, live)
      --log-file PATH        append logs to PATH instead of standard error
      --log-level LEVEL      debug, info, warning or error (default info)
      --history N            versions of history kept per list (default 1000)
      --explain-history N    latest changes per list that list/explain can explain (default 1000)
      --max-frame-bytes N    largest incoming message (default 67108864)
      --max-queue-bytes N    outgoing bytes a client may leave unread before it is dropped (default 67108864)
      --orphan-timeout SECONDS
                             dispose a list SECONDS after its owner's session closed, unless a
                             session claims it first (list/claim); default: keep it
      --state DIR            keep lists in DIR (created 0700; one daemon at a time) so they
                             survive a restart or a crash: an append-only journal of committed
                             changes with checkpoints; lists come back with no owner (list/claim)
      --sync MODE            with --state, when a change is on disk before its answer:
                             always  fsync each change before answering it
                             batch   group commit: answers wait for the fsync of their group
                                     (default)
                             none    written before answering, flushed when the OS decides:
                                     survives kill -9, a power loss can lose the last seconds
      --retain-versions N    with --state, keep older journal generations while they hold one
                             of each list's last N versions (default 10000)
      --retain-bytes N       with --state, and while the state directory is at most N bytes
                             (default 1073741824)
      --checkpoint-bytes N   with --state, checkpoint every list once the journal passes N bytes
                             or the last checkpoint's size, whichever is larger, or 50000 records
                             (default 16777216)
      --version              print the version and exit
      -h, --help             print this help and exit

    stdout carries the protocol only; logs go to stderr or --log-file. The daemon exits when the
    stdio client sends `exit` (0 after `shutdown`, 1 otherwise) or closes stdin (0), unless
    --listen came with --stay; SIGTERM and SIGINT stop it cleanly and remove the socket.
    The protocol: Protocol/README.md.
    """

  /// Parses `arguments` (without the program name); throws a usage message on error.
  static func parse(_ arguments: [String]) throws -> DaemonOptions {
    var options = DaemonOptions()
    var index = 0
    func value(_ flag: String) throws -> String {
      index += 1
      guard index < arguments.count, !arguments[index].hasPrefix("--") else {
        throw UsageError("\(flag) needs a value")
      }
      return arguments[index]
    }
    func number(_ flag: String) throws -> Int {
      let text = try value(flag)
      guard let number = Int(text), number > 0 else {
        throw UsageError("\(flag) needs a positive integer, got '\(text)'")
      }
      return number
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--listen":
        if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") {
          index += 1
          options.listenPath = arguments[index]
        } else {
          options.listenPath = UnixSocket.defaultPath
        }
      case "--stay": options.stay = true
      case "--demo": options.demo = true
      case "--log-file": options.logFile = try value(argument)
      case "--log-level":
        let text = try value(argument)
        guard
          let level = ["debug": Logger.Level.debug, "info": .info, "warning": .warning, "error": .error][text]
        else { throw UsageError("--log-level must be debug, info, warning or error, got '\(text)'") }
        options.logLevel = level
      case "--history": options.server.historyLimit = try number(argument)
      case "--explain-history": options.server.explainLimit = try number(argument)
      case "--max-frame-bytes": options.server.maxFrameBytes = try number(argument)
      case "--max-queue-bytes": options.server.maxQueueBytes = try number(argument)
      case "--orphan-timeout": options.server.orphanTimeout = .seconds(try number(argument))
      case "--state": options.server.stateDirectory = try value(argument)
      case "--sync":
        let text = try value(argument)
        guard let mode = SyncMode(rawValue: text) else {
          throw UsageError("--sync must be always, batch or none, got '\(text)'")
        }
        options.server.sync = mode
      case "--retain-versions": options.server.retainVersions = try number(argument)
      case "--retain-bytes": options.server.retainBytes = try number(argument)
      case "--checkpoint-bytes": options.server.checkpointBytes = try number(argument)
      default: throw UsageError("unknown option '\(argument)'")
      }
      index += 1
    }
    if options.stay && options.listenPath == nil { throw UsageError("--stay needs --listen") }
    if options.server.stateDirectory == nil,
      let flag = ["--sync", "--retain-versions", "--retain-bytes", "--checkpoint-bytes"].first(where: {
        arguments.contains($0)
      })
    {
      throw UsageError("\(flag) needs --state DIR")
    }
    return options
  }
}

/// A command-line mistake; printed with a pointer to --help, exit code 2.
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
