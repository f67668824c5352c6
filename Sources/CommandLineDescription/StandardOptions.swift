// --help, --version, --generate-man and --generate-completion: what every tool answers the same way.
import BuildInfo
import Foundation

extension ToolDescription {
  /// `listd 0.1.0 (protocol 1)` and, on a second line, the commit it was built from.
  public func versionText(version: String, protocolVersion: Int) -> String {
    "\(name) \(version) (protocol \(protocolVersion))\n\(BuildInfo.commitLine)"
  }

  /// What one of ``standardOptions`` asks for.
  public enum StandardRequest: Equatable, Sendable {
    case help, version, manPage
    case completion(Shell)
    /// `--list-options`, for other programs rather than people (so not in the help): the tool's own
    /// options, one a line, `NAME<TAB>VALUE` (VALUE empty for a switch). listctl reads listd's to
    /// say where a listd option given to it belongs.
    case optionList
  }

  /// The standard option among `arguments` (anywhere: `--help` wins over `--version`, which wins
  /// over the generators), or nil. A `--generate-completion` without a shell it knows is a usage error.
  public func standardRequest(in arguments: [String]) throws(UsageMessage) -> StandardRequest? {
    if arguments.contains("--help") || arguments.contains("-h") { return .help }
    if arguments.contains("--version") { return .version }
    if arguments.contains("--generate-man") { return .manPage }
    if arguments.contains("--list-options") { return .optionList }
    if let index = arguments.firstIndex(of: "--generate-completion") {
      return .completion(try Self.shell(index + 1 < arguments.count ? arguments[index + 1] : nil))
    }
    return nil
  }

  /// The shell `--generate-completion` names.
  public static func shell(_ text: String?) throws(UsageMessage) -> Shell {
    guard let text, let shell = Shell(rawValue: text) else {
      let names = Shell.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageMessage(
        text.map { "--generate-completion needs \(names), got '\($0)'" }
          ?? "--generate-completion needs \(names)")
    }
    return shell
  }

  /// What `request` prints.
  public func answer(_ request: StandardRequest, version: String, protocolVersion: Int) -> String {
    switch request {
    case .help: return help
    case .version: return versionText(version: version, protocolVersion: protocolVersion)
    case .manPage: return manPage(version: version)
    case .completion(let shell): return completionScript(for: shell)
    case .optionList:
      return options.flatMap { option in
        option.names.map { name in
          switch option.argument {
          case .none: return name + "\t"
          case .required(let value, _), .optional(let value, _), .untilDoubleDash(let value):
            return name + "\t" + value
          }
        }
      }.joined(separator: "\n")
    }
  }

  /// Answers a standard option among `arguments`: prints the answer and returns 0, or prints a usage
  /// error and returns 2; nil when there is none.
  public func answerStandardOptions(_ arguments: [String], version: String, protocolVersion: Int) -> Int32? {
    do {
      guard let request = try standardRequest(in: arguments) else { return nil }
      let text = answer(request, version: version, protocolVersion: protocolVersion)
      FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
      return 0
    } catch {
      FileHandle.standardError.write(Data(UsageMessage.report("\(error)", tool: name).utf8))
      return 2
    }
  }
}

/// A command-line mistake, worded for the user.
public struct UsageMessage: Error, CustomStringConvertible, Sendable {
  public let description: String
  public init(_ description: String) { self.description = description }

  /// How every tool reports a usage error on stderr, the one form listd, listctl and listd-tui
  /// share: `TOOL: MESSAGE`, then `Try 'TOOL [COMMAND] --help'.` (the help of the command
  /// concerned, when there is one).
  public static func report(_ message: String, tool: String, command: String? = nil) -> String {
    "\(tool): \(message)\nTry '\(tool) \(command.map { "\($0) " } ?? "")--help'.\n"
  }
}
