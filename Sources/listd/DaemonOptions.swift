// The daemon's command line: its options, each with what it sets (--help, the man page and the completions come from this table).
import CommandLineDescription
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

  /// Every option of listd, in help order. Adding an option is adding its entry here: `--help`,
  /// `listd(1)`, the completions and listctl's hint for a misplaced listd option all follow.
  static let table: OptionTable<DaemonOptions> = [
    OptionEntry(
      Option(
        "--listen", .optional("PATH", .files),
        help: "also serve a Unix socket (default {socket}); its directory must be one only you can enter "
          + "(created 0700 if missing)")
    ) { $0.listenPath = $1.text ?? UnixSocket.defaultPath },
    .flag("--stay", "with --listen: keep serving socket clients after stdin closes") { $0.stay = true },
    .flag("--demo", "start with the demo lists (contacts, settings, files, live, processes, inbox)") {
      $0.demo = true
    },
    .value("--log-file", "PATH", .files, "append logs to PATH instead of standard error") {
      $0.logFile = $1.text
    },
    .value(
      "--log-level", "LEVEL", .choices(logLevels.map(\.name)), "debug, info, warning or error (default info)"
    ) {
      let name = try $1.oneOf(logLevels.map(\.name))
      $0.logLevel = logLevels.first { $0.name == name }?.level ?? .info
    },
    .value("--history", "N", "versions of history kept per list (default 1000)") {
      $0.server.historyLimit = try $1.positiveInteger()
    },
    .value("--explain-history", "N", "latest changes per list that list/explain can explain (default 1000)") {
      $0.server.explainLimit = try $1.positiveInteger()
    },
    .value("--max-frame-bytes", "N", "largest incoming message (default 67108864)") {
      $0.server.maxFrameBytes = try $1.positiveInteger()
    },
    .value(
      "--max-queue-bytes", "N",
      "outgoing bytes a client may leave unread (default 67108864); past min(1 MiB, N/4) its list changes are composed, not queued"
    ) {
      $0.server.maxQueueBytes = try $1.positiveInteger()
    },
    .value(
      "--orphan-timeout", "SECONDS",
      "dispose a list SECONDS after its owner's session closed, unless a session claims it first (list/claim); "
        + "default: keep it"
    ) { $0.server.orphanTimeout = .seconds(try $1.positiveInteger()) },
    .value(
      "--state", "DIR", .directories,
      "keep lists in DIR (created 0700; one daemon at a time) so they survive a restart or a crash: an "
        + "append-only journal of committed changes with checkpoints; lists come back with no owner (list/claim)"
    ) { $0.server.stateDirectory = $1.text },
    .value(
      "--sync", "MODE", .choices(SyncMode.allCases.map(\.rawValue)),
      "with --state, when a change is on disk before its answer: always (fsync each change before answering "
        + "it), batch (group commit: answers wait for the fsync of their group; the default) or none (written "
        + "before answering, flushed when the OS decides: survives kill -9, a power loss can lose the last seconds)"
    ) { $0.server.sync = SyncMode(rawValue: try $1.oneOf(SyncMode.allCases.map(\.rawValue))) ?? .batch },
    .value(
      "--retain-versions", "N",
      "with --state, keep older journal generations while they hold one of each list's last N versions "
        + "(default 10000)"
    ) { $0.server.retainVersions = try $1.positiveInteger() },
    .value(
      "--retain-bytes", "N",
      "with --state, and while the state directory is at most N bytes (default 1073741824)"
    ) {
      $0.server.retainBytes = try $1.positiveInteger()
    },
    .value(
      "--checkpoint-bytes", "N",
      "with --state, checkpoint every list once the journal passes N bytes or the last checkpoint's size, "
        + "whichever is larger, or 50000 records (default 16777216)"
    ) { $0.server.checkpointBytes = try $1.positiveInteger() },
  ]

  /// `--log-level`'s values, in help order.
  static let logLevels: [(name: String, level: Logger.Level)] = [
    ("debug", .debug), ("info", .info), ("warning", .warning), ("error", .error),
  ]

  /// Parses `arguments` (without the program name); throws a usage message on error.
  static func parse(_ arguments: [String]) throws -> DaemonOptions {
    var options = DaemonOptions()
    try table.parse(arguments, into: &options)
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
typealias UsageError = UsageMessage
