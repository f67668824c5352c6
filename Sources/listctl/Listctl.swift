// The driver: global options, help, connecting, running one command and mapping errors to exit codes.
import Foundation
import JSON
import JSONRPC
import ListClient

/// The `listctl` program.
enum Listctl {
  static let usage = """
    usage: listctl [--socket PATH | --spawn [LISTD ARGS…] --] [--timeout SECONDS] [--json] COMMAND [ARGS…]

    Talks to a listd daemon: over its Unix socket (--socket PATH; default \(UnixSocket.defaultPath)),
    or over the stdio of a private daemon it starts (--spawn; listd's own options, such as --demo,
    go between --spawn and `--`: `listctl --spawn --demo -- lists`).

    commands:
    \(Command.all.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

    `listctl COMMAND --help` describes a command. Data output is readable text, or JSON with --json.

      --timeout SECONDS   the longest wait for each answer of the daemon (default \(seconds(defaultTimeout)));
                          also accepted after the command. `watch` waits for changes without a limit
                          unless --timeout is given.
      --version           print the version and the protocol version
      --help              this help

    exit codes: 0 ok, 1 the daemon answered with an error (printed to stderr), 2 usage error,
    3 cannot connect, the connection was lost, or no answer within --timeout.
    """

  /// How long a command waits for each answer when `--timeout` is not given.
  static let defaultTimeout: Duration = .seconds(30)

  /// Runs the command line; returns the exit status.
  static func main(_ arguments: [String]) async -> Int32 {
    var rest = arguments[...]
    var socketPath: String?
    var spawnArguments: [String]?
    var globalTimeout: Duration?
    var globalJSON = false
    while let first = rest.first, first.hasPrefix("--") || first == "-h" {
      rest.removeFirst()
      switch first {
      case "--help", "-h":
        print(usage)
        return ExitCode.ok
      case "--version":
        print("listctl \(ListClient.version) (protocol \(ListClient.protocolVersion))")
        return ExitCode.ok
      case "--timeout":
        do {
          globalTimeout = try parseTimeout(rest.popFirst())
        } catch {
          return fail(error)
        }
      case "--json":
        globalJSON = true
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
        let command = rest.first { Command.named($0) != nil }
        return fail(DaemonFlags.misplaced(first, command: command) ?? UsageError("unknown option \(first)"))
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
    // --json (like --timeout) may come before the command too.
    let commandArguments = (globalJSON ? ["--json"] : []) + Array(rest)
    if commandArguments.contains("--help") || commandArguments.contains("-h") {
      print(command.help)
      return ExitCode.ok
    }
    let parsed: Arguments
    let timeout: Duration
    let input: JSONValue?
    do {
      for argument in commandArguments.prefix(while: { $0 != "--" })
      where !command.valueFlags.contains(argument) && !command.switchFlags.contains(argument) {
        if let misplaced = DaemonFlags.misplaced(argument, command: name) { throw misplaced }
      }
      parsed = try Arguments(
        commandArguments, valueFlags: command.valueFlags.union(["--timeout"]),
        switchFlags: command.switchFlags.union(["--json"]))
      try command.validate(parsed)
      input = try command.input(parsed)
      let commandTimeout = try parsed.value("--timeout").map { try parseTimeout($0) }
      timeout = commandTimeout ?? globalTimeout ?? defaultTimeout
    } catch {
      return fail(error, command: name)
    }
    let explicitTimeout = parsed.value("--timeout") != nil || globalTimeout != nil
    let endpoint = Endpoint(socket: socketPath, spawn: spawnArguments)
    func context(_ client: ListClient?) -> Context {
      Context(
        connected: client, endpoint: endpoint, arguments: parsed, input: input, timeout: timeout,
        idleTimeout: explicitTimeout ? timeout : nil)
    }
    guard command.connects else {
      do {
        try await command.run(context(nil))
        return ExitCode.ok
      } catch {
        return fail(error, command: name, timeout: timeout)
      }
    }
    let client: ListClient
    do {
      client = try connect(socket: socketPath, spawn: spawnArguments, timeout: timeout)
      _ = try await client.initialize(name: "listctl")
    } catch let error as ConnectionError where error.isTimeout {
      return fail(error, command: name, timeout: timeout)
    } catch {
      return fail(connectFailure(error, socket: socketPath))
    }
    defer { client.close() }
    do {
      try await command.run(context(client))
      return ExitCode.ok
    } catch {
      return fail(error, command: name, timeout: timeout)
    }
  }

  static func fail(_ error: any Error, command: String? = nil, timeout: Duration? = nil) -> Int32 {
    let (message, status) = describe(error, command: command, timeout: timeout)
    printError(message)
    return status
  }

  /// `--timeout SECONDS`: a number of seconds greater than 0.
  static func parseTimeout(_ text: String?) throws -> Duration {
    guard let text else { throw UsageError("--timeout needs a number of seconds") }
    guard let value = Double(text), value > 0, value <= 86_400 * 365 else {
      throw UsageError("--timeout needs a number of seconds greater than 0, got '\(text)'")
    }
    return .milliseconds(Int64((value * 1000).rounded(.up)))
  }

  private static func connect(socket: String?, spawn: [String]?, timeout: Duration) throws -> ListClient {
    if let spawn {
      // Quiet by default: the daemon's info lines would mix with the command's output.
      let quiet = spawn.contains("--log-level") ? [] : ["--log-level", "warning"]
      return try ListClient.spawn(
        listdPath: try listdPath(), arguments: quiet + spawn, requestTimeout: timeout)
    }
    return try ListClient.socket(path: socket ?? UnixSocket.defaultPath, requestTimeout: timeout)
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
  /// What the command's `input` read before connecting (nil if it reads nothing).
  let input: JSONValue?
  /// The longest wait for each answer (`--timeout`, default ``Listctl/defaultTimeout``).
  let timeout: Duration
  /// `--timeout` when given: the longest wait for something that may legitimately never come
  /// (the next change `watch` prints); nil waits without a limit.
  let idleTimeout: Duration?
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
