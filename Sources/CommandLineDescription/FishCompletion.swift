// The fish completion script: `complete` lines, with helper functions that read the command line.

extension ToolDescription {
  /// The fish script: options, commands, values, and list ids from a running daemon.
  var fishCompletion: String {
    let f = functionName
    var s = completionHeader(.fish) + "\n\n"
    // The scanner: which command the line names, how many positionals follow it, and the socket.
    s += "# \(f)_scan: the command (empty before one), the number of its arguments so far, the socket.\n"
    s += "function \(f)_scan\n"
    s += "    set -l words (commandline -opc)\n"
    s += "    set -e words[1]\n"
    s += "    set -l command ''\n"
    s += "    set -l count 0\n"
    s += "    set -l socket ''\n"
    s += "    set -l literal 0\n"
    s += "    while set -q words[1]\n"
    s += "        set -l word $words[1]\n"
    s += "        set -e words[1]\n"
    s += "        if test $literal = 0; and string match -q -- '-?*' $word\n"
    s += "            switch \"$command $word\"\n"
    if let socketOption {
      s += "                case \(Self.fishQuote(" " + socketOption))\n"
      s += "                    set socket $words[1]\n"
      s += "                    set -e words[1]\n"
    }
    for command in [nil] + commands.map(Optional.some) {
      let key = command?.name ?? ""
      let options = options(of: command)
      let required = options.filter {
        if case .required = $0.argument { return key != "" || $0.name != socketOption }
        return false
      }
      if !required.isEmpty {
        s += "                case " + Self.fishPatterns(key, required) + "\n"
        s += "                    set -e words[1]\n"
      }
      let optional = options.filter { if case .optional = $0.argument { true } else { false } }
      if !optional.isEmpty {
        s += "                case " + Self.fishPatterns(key, optional) + "\n"
        s +=
          "                    set -q words[1]; and not string match -q -- '-*' $words[1]; and set -e words[1]\n"
      }
      let spawn = options.filter { if case .untilDoubleDash = $0.argument { true } else { false } }
      if !spawn.isEmpty {
        s += "                case " + Self.fishPatterns(key, spawn) + "\n"
        s += "                    while set -q words[1]; and test \"$words[1]\" != --\n"
        s += "                        set -e words[1]\n"
        s += "                    end\n"
        s += "                    set -e words[1]\n"
      }
    }
    if !commands.isEmpty {
      s += "                case '?* --'\n"
      s += "                    set literal 1\n"
    }
    s += "            end\n"
    s += "            continue\n"
    s += "        end\n"
    if commands.isEmpty {
      s += "        set count (math $count + 1)\n"
    } else {
      s += "        if test -z \"$command\"\n"
      s += "            set command $word\n"
      s += "        else\n"
      s += "            set count (math $count + 1)\n"
      s += "        end\n"
    }
    s += "    end\n"
    s += "    printf '%s\\n' \"$command\" $count \"$socket\"\n"
    s += "end\n\n"
    s += "# \(f)_in COMMAND: whether the line is at COMMAND's arguments (\"\": before any command).\n"
    s += "function \(f)_in\n"
    s += "    set -l state (\(f)_scan)\n"
    s += "    test \"$state[1]\" = \"$argv[1]\"\n"
    s += "end\n\n"
    s +=
      "# \(f)_at COMMAND INDEX [+]: whether the next argument of COMMAND is the INDEX-th (or later, with +).\n"
    s += "function \(f)_at\n"
    s += "    set -l state (\(f)_scan)\n"
    s += "    test \"$state[1]\" = \"$argv[1]\"; or return 1\n"
    s += "    if test \"$argv[3]\" = +\n"
    s += "        test $state[2] -ge $argv[2]\n"
    s += "    else\n"
    s += "        test $state[2] -eq $argv[2]\n"
    s += "    end\n"
    s += "end\n\n"
    s += "# \(f)_lists: the ids of the daemon's lists (none if no daemon answers within a second).\n"
    s += "function \(f)_lists\n"
    s += "    set -l state (\(f)_scan)\n"
    s += "    set -l socket (string replace -r '^~' $HOME -- $state[3])\n"
    s += "    if test -n \"$socket\"\n"
    s += "        command listctl --socket $socket --timeout 1 lists --ids 2>/dev/null\n"
    s += "    else\n"
    s += "        command listctl --timeout 1 lists --ids 2>/dev/null\n"
    s += "    end\n"
    s += "end\n\n"
    s += "complete -c \(name) -f\n"
    for command in [nil] + commands.map(Optional.some) {
      let condition = "\(f)_in \(Self.fishQuote(command?.name ?? ""))"
      for option in options(of: command) {
        s += fishOption(option, condition: condition) + "\n"
      }
    }
    if !commands.isEmpty {
      for command in commands {
        s +=
          "complete -c \(name) -n \(Self.fishQuote("\(f)_at '' 0")) -a \(Self.fishQuote(command.name))"
          + " -d \(Self.fishQuote(shortHelp(command.summary, command: true)))\n"
      }
      for command in commands {
        for (index, completion) in command.positionals.enumerated() where completion != .none {
          let plus = index == command.positionals.count - 1 && command.repeatsLast ? " +" : ""
          let condition = "\(f)_at \(Self.fishQuote(command.name)) \(index)\(plus)"
          s += "complete -c \(name) -n \(Self.fishQuote(condition)) \(fishArguments(completion))\n"
        }
      }
    }
    return s
  }

  /// The `complete` line of `option` when `condition` holds.
  private func fishOption(_ option: Option, condition: String) -> String {
    var line = "complete -c \(name) -n \(Self.fishQuote(condition))"
    for spelling in option.names {
      if spelling.hasPrefix("--") {
        line += " -l \(spelling.dropFirst(2))"
      } else {
        line += " -s \(spelling.dropFirst())"
      }
    }
    switch option.argument {
    case .none, .untilDoubleDash: break
    case .required(_, let completion): line += " -r " + fishArguments(completion)
    case .optional(_, let completion): line += " " + fishArguments(completion)
    }
    if !option.help.isEmpty { line += " -d \(Self.fishQuote(shortHelp(option.help)))" }
    return line
  }

  /// The flags of a `complete` line offering `completion`.
  private func fishArguments(_ completion: Completion) -> String {
    switch completion {
    case .none: return "-f"
    case .files: return "-F"
    case .directories: return "-f -a '(__fish_complete_directories)'"
    case .choices(let words): return "-f -a \(Self.fishQuote(words.joined(separator: " ")))"
    case .lists: return "-f -a '(\(functionName)_lists)' -d list"
    }
  }

  /// `'create --title' 'create --content'`: switch patterns for `"$command $word"`.
  private static func fishPatterns(_ command: String, _ options: [Option]) -> String {
    options.flatMap(\.names).map { fishQuote("\(command) \($0)") }.joined(separator: " ")
  }

  /// `text` as one fish word, in single quotes.
  static func fishQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
  }
}
