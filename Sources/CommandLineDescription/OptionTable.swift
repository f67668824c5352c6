// Parsing a command line with a table of options: each entry is the option as the help shows it and what it sets.

/// One option of a tool and what it does to the settings being parsed (`Settings`).
public struct OptionEntry<Settings>: Sendable {
  /// The option as `--help`, the man page and the completions show it.
  public let option: Option
  /// Applies the option, with its value when it takes one.
  let apply: @Sendable (inout Settings, OptionValue) throws -> Void

  public init(_ option: Option, apply: @escaping @Sendable (inout Settings, OptionValue) throws -> Void) {
    self.option = option
    self.apply = apply
  }

  /// A switch: `--stay`.
  public static func flag(
    _ name: String, _ help: String, apply: @escaping @Sendable (inout Settings) -> Void
  ) -> OptionEntry {
    OptionEntry(Option(name, help: help)) { settings, _ in apply(&settings) }
  }

  /// An option with a value that completes as free text: `--history N`.
  public static func value(
    _ name: String, _ value: String, _ help: String,
    apply: @escaping @Sendable (inout Settings, OptionValue) throws -> Void
  ) -> OptionEntry {
    .value(name, value, .none, help, apply: apply)
  }

  /// An option with a value that completes as `completion` says: `--log-file PATH`.
  public static func value(
    _ name: String, _ value: String, _ completion: Completion, _ help: String,
    apply: @escaping @Sendable (inout Settings, OptionValue) throws -> Void
  ) -> OptionEntry {
    OptionEntry(Option(name, .required(value, completion), help: help), apply: apply)
  }
}

/// The value given to an option (nil text: an optional value left out; several: `--spawn A B --`).
public struct OptionValue: Sendable {
  /// The option, for error messages.
  public let option: String
  /// The words given, in order.
  public let words: [String]

  /// The value (the first word), if one was given.
  public var text: String? { words.first }

  /// The value as an integer greater than 0, or a usage error naming the option and the value.
  public func positiveInteger() throws(UsageMessage) -> Int {
    let text = self.text ?? ""
    guard let number = Int(text), number > 0 else {
      throw UsageMessage("\(option) needs a positive integer, got '\(text)'")
    }
    return number
  }

  /// The value if it is one of `choices`, or a usage error listing them.
  public func oneOf(_ choices: [String]) throws(UsageMessage) -> String {
    let text = self.text ?? ""
    guard choices.contains(text) else {
      let list = choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
      throw UsageMessage("\(option) must be \(list), got '\(text)'")
    }
    return text
  }
}

/// A tool's options, each with what it sets: the one place an option is added.
public struct OptionTable<Settings>: Sendable, ExpressibleByArrayLiteral {
  public let entries: [OptionEntry<Settings>]

  public init(arrayLiteral entries: OptionEntry<Settings>...) { self.entries = entries }

  /// The options, for a ``ToolDescription``.
  public var options: [Option] { entries.map(\.option) }

  /// Applies `arguments` to `settings`, every one an option of the table. An argument that is
  /// not is `unknown option '--x'`, with the option it most likely meant.
  public func parse(_ arguments: [String], into settings: inout Settings) throws {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      guard let entry = self.entry(argument) else {
        let names = entries.flatMap(\.option.names)
        throw UsageMessage("unknown option '\(argument)'" + Suggestion.phrase(for: argument, among: names))
      }
      var words: [String] = []
      switch entry.option.argument {
      case .none: break
      case .required:
        index += 1
        guard index < arguments.count, !arguments[index].hasPrefix("--") else {
          throw UsageMessage("\(argument) needs a value")
        }
        words = [arguments[index]]
      case .optional:
        if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") {
          index += 1
          words = [arguments[index]]
        }
      case .untilDoubleDash:
        // Up to `--`, or to the next option of this table.
        while index + 1 < arguments.count, arguments[index + 1] != "--",
          self.entry(arguments[index + 1]) == nil
        {
          index += 1
          words.append(arguments[index])
        }
        if index + 1 < arguments.count, arguments[index + 1] == "--" { index += 1 }
      }
      try entry.apply(&settings, OptionValue(option: argument, words: words))
      index += 1
    }
  }

  /// The entry spelled `name`.
  private func entry(_ name: String) -> OptionEntry<Settings>? {
    entries.first { $0.option.names.contains(name) }
  }
}
