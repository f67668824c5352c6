// The failures listctl turns into exit codes and stderr messages.
import CommandLineDescription
import Foundation
import JSONRPC
import ListClient

/// Exit statuses, as documented in `listctl --help`.
enum ExitCode {
  static let ok: Int32 = 0
  static let errorAnswer: Int32 = 1
  static let usage: Int32 = 2
  static let cannotConnect: Int32 = 3
}

/// Bad command-line usage (exit 2).
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// An input file (or stdin) that cannot be read or is not valid JSON (exit 2, as a usage error,
/// but without pointing at `--help`: the command line was fine, the input was not).
struct InputError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The daemon cannot be reached, or went away (exit 3).
struct ConnectFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Nothing arrived within `--timeout` (exit 3): an answer, or with `watch --timeout` a change.
struct NoAnswer: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The failure to report when connecting failed with `error`; `socket` is the `--socket` given
/// (nil: the default path). When no daemon is there, it says how to start one.
func connectFailure(_ error: any Error, socket: String?) -> ConnectFailure {
  switch error {
  case let error as ConnectFailure:
    return error
  case let error as UnixSocketError where error.kind == .noDaemon:
    return ConnectFailure("\(error) — " + ListClient.startAdvice(socket: socket, alternative: "use --spawn"))
  case let error as UnixSocketError:
    return ConnectFailure(error.description)
  default:
    return ConnectFailure("cannot connect: \(error)")
  }
}

/// Writes `message` to stderr, prefixed with `listctl: `.
func printError(_ message: String) {
  FileHandleOutput.standardError("listctl: " + message + "\n")
}

/// The message and exit status for an error thrown by a command; usage errors point at the
/// help of `command` when there is one, a timed-out request names `timeout`; `hint` (when given)
/// replaces an error answer's own hint.
func describe(_ error: any Error, command: String? = nil, timeout: Duration? = nil, hint known: String? = nil)
  -> (
    message: String, status: Int32
  )
{
  switch error {
  case let error as UsageError:
    // The form every tool uses (UsageMessage.report), without the `listctl: ` printError adds.
    let report = UsageMessage.report(error.description, tool: "listctl", command: command)
    return (String(report.dropFirst("listctl: ".count).dropLast()), ExitCode.usage)
  case let error as InputError:
    return (error.description, ExitCode.usage)
  case let error as ResponseError:
    // The message names the field and the value already; `data` is for programs (--json, call).
    var message = "error \(error.code.rawValue): \(error.message)"
    if let hint = known ?? hint(for: error) { message += "\nhint: " + hint }
    return (message, ExitCode.errorAnswer)
  case let error as ConnectFailure:
    return (error.description, ExitCode.cannotConnect)
  case let error as NoAnswer:
    return (error.description, ExitCode.cannotConnect)
  case ConnectionError.timedOut(let method, _):
    // event/refresh waits for the list's owner, not only for the daemon.
    let who =
      method == "event/refresh"
      ? "the list's owner did not refresh in time, or the daemon is busy" : "the daemon is busy or stuck"
    return (
      "no answer to \(method) within \(timeout.map(seconds) ?? "the timeout") (\(who); "
        + "--timeout SECONDS waits longer)",
      ExitCode.cannotConnect
    )
  case let error as ConnectionError:
    return ("connection: \(error)", ExitCode.cannotConnect)
  default:
    return ("\(error)", ExitCode.errorAnswer)
  }
}

/// What to try after an error answer, when listctl knows: the command that shows what was
/// missing, or the option that does what was refused.
func hint(for error: ResponseError) -> String? {
  let list = error.data?["list"]?.stringValue ?? "LIST"
  switch error.code.rawValue {
  case -32010: return "`listctl lists` shows the lists there are"
  case -32011, -32012: return "`listctl show \(list)` shows the list's sections and items"
  case -32801:
    let now = error.data?["currentVersion"]?.intValue.map { "the list is at v\($0) now; " } ?? ""
    return now + "`listctl show \(list)` shows it, or leave out --if-version"
  case -32015: return "`listctl show \(list)` shows the list as it is now"
  case -32018: return "--force does it anyway (the owner is told)"
  default: return nil
  }
}

/// `30 s`, `1.5 s`: a duration for messages.
func seconds(_ duration: Duration) -> String {
  let (whole, attoseconds) = duration.components
  if attoseconds == 0 { return "\(whole) s" }
  return "\(Double(whole) + Double(attoseconds) / 1e18) s"
}

extension ConnectionError {
  /// Whether a request got no answer within its timeout.
  var isTimeout: Bool {
    if case .timedOut = self { return true }
    return false
  }
}
