// The driver: global options, help, connecting, running one command and mapping errors to exit codes.
import CommandLineDescription
import Foundation
import JSON
import JSONRPC
import ListClient

/// The `listctl` program.
enum Listctl {
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
      case "--help", "-h", "--version", "--generate-man":
        let request: ToolDescription.StandardRequest =
          first == "--version" ? .version : first == "--generate-man" ? .manPage : .help
        printAnswer(request)
        return ExitCode.ok
      case "--generate-completion":
        do {
          printAnswer(.completion(try ToolDescription.shell(rest.popFirst())))
        } catch {
          return fail(UsageError(error.description))
        }
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
        return fail(
          DaemonFlags.misplaced(first, command: command)
            ?? UsageError(
              "unknown option '\(first)'"
                + Suggestion.phrase(for: first, among: commandLine.options.flatMap(\.names))))
      }
    }
    if socketPath != nil && spawnArguments != nil {
      return fail(UsageError("--socket and --spawn exclude each other"))
    }
    guard let name = rest.popFirst() else { return fail(UsageError("no command")) }
    if name == "help" {
      guard let topic = rest.first, let command = Command.named(topic) else {
        print(commandLine.help)
        return ExitCode.ok
      }
      print(command.help)
      return ExitCode.ok
    }
    guard let command = Command.named(name) else {
      return fail(
        UsageError("unknown command '\(name)'" + Suggestion.phrase(for: name, among: Command.all.map(\.name)))
      )
    }
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
    } catch let error as ResponseError where error.code.rawValue == -32010 {
      let hint = await UnknownListHint.hint(for: error, client: client, spawn: spawnArguments)
      return fail(error, command: name, timeout: timeout, hint: hint)
    } catch {
      return fail(error, command: name, timeout: timeout)
    }
  }

  /// Prints what a standard option (--help, --version, --generate-man, --generate-completion) asks for.
  static func printAnswer(_ request: ToolDescription.StandardRequest) {
    let text = commandLine.answer(
      request, version: ListClient.version, protocolVersion: ListClient.protocolVersion)
    print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
  }

  /// Reports `error` and returns its exit status; `hint` replaces the hint ``hint(for:)`` gives.
  static func fail(_ error: any Error, command: String? = nil, timeout: Duration? = nil, hint: String? = nil)
    -> Int32
  {
    // The reader of stdout went away (`| head`): it has what it wanted; nothing to say.
    if error is OutputClosed { return ExitCode.ok }
    let (message, status) = describe(error, command: command, timeout: timeout, hint: hint)
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
