// The zsh completion script: an autoloadable `_name` function built on _arguments.

extension ToolDescription {
  /// The zsh script (`#compdef`): options, commands, values, and list ids from a running daemon.
  var zshCompletion: String {
    let f = functionName
    var s = "#compdef \(name)\n" + completionHeader(.zsh) + "\n\n"
    s += """
      # The ids of the daemon's lists (none if no daemon answers within a second); the socket is the
      # --socket given on the command line, if any.
      \(f)_lists() {
        local socket=${(Q)${opt_args[--socket]:-$socket}}
        socket=${socket/#\\~/$HOME}
        local -a ids
        ids=(${(f)"$(\(listIDsCommand(socket: "socket")))"})
        _wanted lists expl 'list id' compadd -a ids
      }


      """
    s += "\(f)() {\n"
    s += "  local curcontext=$curcontext state state_descr line socket ret=1\n"
    s += "  typeset -A opt_args\n"
    var specs = allOptions.flatMap(zshSpecs)
    if !commands.isEmpty { specs += ["'1:command:->command'", "'*::argument:->argument'"] }
    s += "  _arguments -C -S \\\n" + specs.map { "    " + $0 }.joined(separator: " \\\n") + " && ret=0\n"
    if !commands.isEmpty {
      if let socketOption { s += "  socket=${opt_args[\(socketOption)]}\n" }
      s += "  case $state in\n"
      s += "    command)\n"
      s += "      local -a commands\n"
      s += "      commands=(\n"
      for command in commands {
        s += "        " + Self.zshQuote("\(command.name):\(shortHelp(command.summary, command: true))") + "\n"
      }
      s += "      )\n"
      s += "      _describe -t commands command commands && ret=0\n"
      s += "      ;;\n"
      s += "    argument)\n"
      s += "      curcontext=${curcontext%:*:*}:\(name)-$words[1]:\n"
      s += "      case $words[1] in\n"
      for command in commands {
        var specs = command.options.flatMap(zshSpecs).map { "'*" + $0.dropFirst() }
        let count = command.positionals.count
        for (index, completion) in command.positionals.enumerated() {
          let position = index == count - 1 && command.repeatsLast ? "*" : String(index + 1)
          specs.append(Self.zshQuote("\(position):\(Self.zshMessage(completion)):\(zshAction(completion))"))
        }
        s += "        (\(command.name))\n"
        s +=
          "          _arguments -S \\\n" + specs.map { "            " + $0 }.joined(separator: " \\\n")
          + " && ret=0\n"
        s += "          ;;\n"
      }
      s += "      esac\n"
      s += "      ;;\n"
      s += "  esac\n"
    }
    s += "  return ret\n"
    s += "}\n\n"
    s += "\(f) \"$@\"\n"
    return s
  }

  /// The _arguments specs of `option`, one per spelling.
  private func zshSpecs(_ option: Option) -> [String] {
    let description = option.help.isEmpty ? "" : "[\(Self.zshEscape(shortHelp(option.help)))]"
    let argument: String
    switch option.argument {
    case .none: argument = ""
    case .required(let value, let completion): argument = ":\(Self.zshEscape(value)):\(zshAction(completion))"
    case .optional(let value, let completion):
      argument = "::\(Self.zshEscape(value)):\(zshAction(completion))"
    case .untilDoubleDash(let value): argument = ":*--:\(Self.zshEscape(value)):_default"
    }
    return option.names.map { Self.zshQuote($0 + description + argument) }
  }

  /// The _arguments action completing `completion`.
  private func zshAction(_ completion: Completion) -> String {
    switch completion {
    case .none: return " "
    case .files: return "_files"
    case .directories: return "_files -/"
    case .choices(let words): return "(\(words.joined(separator: " ")))"
    case .lists: return "\(functionName)_lists"
    }
  }

  /// How zsh names a value of `completion` while completing it.
  private static func zshMessage(_ completion: Completion) -> String {
    switch completion {
    case .none: return "argument"
    case .files: return "file"
    case .directories: return "directory"
    case .choices: return "word"
    case .lists: return "list"
    }
  }

  /// `text` safe in an _arguments description or message: brackets and colons escaped.
  private static func zshEscape(_ text: String) -> String {
    var result = ""
    for character in text {
      if "[]:\\".contains(character) { result.append("\\") }
      result.append(character)
    }
    return result
  }

  /// `text` as one zsh word, in single quotes.
  static func zshQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
