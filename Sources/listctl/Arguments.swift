// A command's arguments: positionals, value flags (repeatable) and switches.
import CommandLineDescription

/// The parsed arguments of one command.
struct Arguments {
  var positionals: [String] = []
  var values: [String: [String]] = [:]
  var switches: Set<String> = []

  /// Parses `arguments` knowing which `--flags` take a value and which are switches. `-` and
  /// anything after `--` are positionals.
  init(_ arguments: [String], valueFlags: Set<String>, switchFlags: Set<String>) throws {
    var index = 0
    var literal = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if literal || !argument.hasPrefix("--") {
        positionals.append(argument)
      } else if argument == "--" {
        literal = true
      } else if switchFlags.contains(argument) {
        switches.insert(argument)
      } else if valueFlags.contains(argument) {
        guard index < arguments.count else { throw UsageError("\(argument) needs a value") }
        values[argument, default: []].append(arguments[index])
        index += 1
      } else if ["--socket", "--spawn"].contains(argument) {
        throw UsageError(
          "\(argument) is a listctl option: put it before the command, as in `listctl \(argument) … COMMAND`")
      } else {
        let known = (valueFlags.union(switchFlags)).sorted()
        throw UsageError("unknown option '\(argument)'" + Suggestion.phrase(for: argument, among: known))
      }
    }
  }

  /// Every value of a repeatable `flag`, in order.
  func all(_ flag: String) -> [String] { values[flag] ?? [] }

  /// The last value of `flag`, if given.
  func value(_ flag: String) -> String? { values[flag]?.last }

  /// The integer value of `flag`, if given; a usage error if it is not an integer.
  func int(_ flag: String) throws -> Int? {
    guard let text = value(flag) else { return nil }
    guard let number = Int(text) else { throw UsageError("\(flag) needs an integer, got '\(text)'") }
    return number
  }

  /// The version `flag` names (`--at`, `--from`, `--to`), if given: a usage error unless it is
  /// an integer, 0 or more.
  func version(_ flag: String) throws -> Int? {
    guard let text = value(flag) else { return nil }
    guard let number = Int(text), number >= 0 else {
      throw UsageError("\(flag) needs a version (an integer, 0 or more), got '\(text)'")
    }
    return number
  }

  /// Whether `flag` was given.
  func has(_ flag: String) -> Bool { switches.contains(flag) }

  /// Exactly `count`…`maximum` positionals, named in `usage` for the error.
  func expect(_ count: Int, upTo maximum: Int? = nil, usage: String) throws -> [String] {
    guard positionals.count >= count, positionals.count <= (maximum ?? count) else {
      throw UsageError("usage: listctl \(usage)")
    }
    return positionals
  }
}
