// The driver: global options, help, connecting, running one command and mapping errors to exit codes.
import Foundation
import JSONRPC
import ListClient

/// The `listctl` program.
enum Listctl {
  static let usage = """
    usage: listctl [--socket PATH | --spawn [LISTD ARGS…] --] COMMAND [ARGS…]

    Talks to a listd daemon: over its Unix socket (--socket PATH; default \(UnixSocket.defaultPath)),
    or over the stdio of a private daemon it starts (--spawn; listd arguments end at `--`).

    commands:
    \(Command.all.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

    `listctl COMMAND --help` describes a command. Data output is readable text, or JSON with --json.

    exit codes: 0 ok, 1 the daemon answered with an error (printed to stderr), 2 usage error,
    3 cannot connect (or the connection was lost).
    """

  /// Runs the command line; returns the exit status.
  static func main(_ arguments: [String]) async -> Int32 {
    var rest = arguments[...]
    var socketPath: String?
    var spawnArguments: [String]?
    while let first = rest.first, first.hasPrefix("--") {
      rest.removeFirst()
      switch first {
      case "--help", "-h":
        print(usage)
        return ExitCode.ok
      case "--socket":
        guard let path = rest.popFirst() else { return fail(UsageError("--socket needs a path")) }
        socketPath = path
      case "--spawn":
        if let end = rest.firstIndex(of: "--") {
          spawnArguments = Array(rest[..<end])
          rest = rest[(end + 1)...]
        } else {
          spawnArguments = []
        }
      default:
        return fail(UsageError("unknown option \(first)"))
      }
    }
    if socketPath != nil && spawnArguments != nil {
      return fail(UsageError("--socket and --spawn exclude each other"))
    }
    guard let name = rest.popFirst() else { return fail(UsageError("no command")) }
    if name == "help" {
      guard let topic = rest.first, let command = Command.named(topic) else {
        print(usage)
        return ExitCode.ok
      }
      print(command.help)
      return ExitCode.ok
    }
    guard let command = Command.named(name) else { return fail(UsageError("unknown command '\(name)'")) }
    let commandArguments = Array(rest)
    if commandArguments.contains("--help") || commandArguments.contains("-h") {
      print(command.help)
      return ExitCode.ok
    }
    let parsed: Arguments
    do {
      parsed = try Arguments(
        commandArguments, valueFlags: command.valueFlags, switchFlags: command.switchFlags.union(["--json"]))
      try command.validate(parsed)
    } catch {
      return fail(error)
    }
    let endpoint = Endpoint(socket: socketPath, spawn: spawnArguments)
    guard command.connects else {
      do {
        try await command.run(Context(connected: nil, endpoint: endpoint, arguments: parsed))
        return ExitCode.ok
      } catch {
        return fail(error)
      }
    }
    let client: ListClient
    do {
      client = try connect(socket: socketPath, spawn: spawnArguments)
      _ = try await client.initialize(name: "listctl")
    } catch {
      return fail(connectFailure(error, socket: socketPath))
    }
    defer { client.close() }
    do {
      try await command.run(Context(connected: client, endpoint: endpoint, arguments: parsed))
      return ExitCode.ok
    } catch {
      return fail(error)
    }
  }

  static func fail(_ error: any Error) -> Int32 {
    let (message, status) = describe(error)
    printError(message)
    return status
  }

  private static func connect(socket: String?, spawn: [String]?) throws -> ListClient {
    if let spawn {
      // Quiet by default: the daemon's info lines would mix with the command's output.
      let quiet = spawn.contains("--log-level") ? [] : ["--log-level", "warning"]
      return try ListClient.spawn(listdPath: try listdPath(), arguments: quiet + spawn)
    }
    return try ListClient.socket(path: socket ?? UnixSocket.defaultPath)
  }

  /// The daemon to spawn (`ListClient.locateDaemon`), or a failure saying how to provide one.
  static func listdPath() throws -> String {
    guard let path = ListClient.locateDaemon() else {
      throw ConnectFailure("no listd found (set LISTD, or put listd next to listctl or on the PATH)")
    }
    return path
  }
}

/// What a command runs with.
struct Context {
  /// The initialized client; nil for commands that connect themselves (`run`, `demo`).
  let connected: ListClient?
  /// The initialized client (only for commands that let the driver connect).
  var client: ListClient { connected! }
  /// Where the daemon is: `--socket`, `--spawn`, or neither (the default socket).
  let endpoint: Endpoint
  let arguments: Arguments
  /// Whether `--json` was given.
  var json: Bool { arguments.has("--json") }
}

/// The global connection options, for commands that connect themselves.
struct Endpoint {
  /// `--socket PATH`.
  let socket: String?
  /// `--spawn [LISTD ARGS…] --`: the listd arguments.
  let spawn: [String]?
}
