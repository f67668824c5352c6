// The bash completion script: a function that reads COMP_WORDS and fills COMPREPLY.

extension ToolDescription {
  /// The bash script (`complete -F`): options, commands, values, and list ids from a running daemon.
  var bashCompletion: String {
    let f = functionName
    var s = completionHeader(.bash) + "\n\n"
    s += """
      # \(f)_words WORDS CUR: the words that start with CUR.
      \(f)_words() {
        local word
        for word in $1; do [[ $word == "$2"* ]] && COMPREPLY+=("$word"); done
      }

      # \(f)_files CUR [-d]: file names (directory names with -d).
      \(f)_files() {
        compopt -o filenames 2>/dev/null
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen "${2:--f}" -- "$1")
      }

      # \(f)_lists SOCKET CUR: the ids of the daemon's lists (none if no daemon answers within a second).
      \(f)_lists() {
        local id socket=$1
        while IFS= read -r id; do
          [[ $id == "$2"* ]] && COMPREPLY+=("$(printf '%q' "$id")")
        done < <(\(listIDsCommand(socket: "socket")))
      }


      """
    s += "\(f)() {\n"
    s += "  local cur=${COMP_WORDS[COMP_CWORD]} command= socket= expect= literal= spawning= count=0 i word\n"
    s += "  COMPREPLY=()\n"
    s += "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
    s += "    word=${COMP_WORDS[i]}\n"
    s += "    if [[ -n $expect ]]; then\n"
    if let socketOption {
      s += "      [[ $expect == \(socketOption) ]] && socket=${word/#\\~/$HOME}\n"
    }
    s += "      expect=\n"
    s += "    elif [[ -z $literal && $word == -?* ]]; then\n"
    s += "      case \"$command $word\" in\n"
    for command in [nil] + commands.map(Optional.some) {
      let key = command?.name ?? ""
      let options = options(of: command)
      let required = options.filter { if case .required = $0.argument { true } else { false } }
      if !required.isEmpty {
        s += "        " + Self.bashPatterns(key, required) + ") expect=$word ;;\n"
      }
      let optional = options.filter { if case .optional = $0.argument { true } else { false } }
      if !optional.isEmpty {
        s +=
          "        " + Self.bashPatterns(key, optional)
          + ") [[ ${COMP_WORDS[i + 1]} == -* ]] || expect=$word ;;\n"
      }
      let spawn = options.filter { if case .untilDoubleDash = $0.argument { true } else { false } }
      if !spawn.isEmpty {
        s += "        " + Self.bashPatterns(key, spawn) + ")\n"
        s += "          while ((i + 1 < COMP_CWORD)) && [[ ${COMP_WORDS[i + 1]} != -- ]]; do ((i++)); done\n"
        s += "          if ((i + 1 < COMP_CWORD)); then ((i++)); else spawning=1; fi ;;\n"
      }
    }
    if !commands.isEmpty { s += "        ?*\" --\") literal=1 ;;\n" }
    s += "      esac\n"
    if !commands.isEmpty {
      s += "    elif [[ -z $command ]]; then\n"
      s += "      command=$word\n"
    }
    s += "    else\n"
    s += "      ((count++))\n"
    s += "    fi\n"
    s += "  done\n"
    s += "  [[ -n $spawning ]] && { \(f)_words -- \"$cur\"; return 0; }\n"
    // The value of the option before the cursor.
    s += "  if [[ -n $expect ]]; then\n"
    s += "    case \"$command $expect\" in\n"
    for command in [nil] + commands.map(Optional.some) {
      for option in options(of: command) {
        guard let completion = option.argument.completion, completion != .none else { continue }
        s +=
          "      " + Self.bashPatterns(command?.name ?? "", [option]) + ") "
          + bashAction(completion) + " ;;\n"
      }
    }
    s += "    esac\n"
    s += "    return 0\n"
    s += "  fi\n"
    // Options: after a `-`, or always for a tool that takes nothing else.
    s += commands.isEmpty ? "  if true; then\n" : "  if [[ -z $literal && $cur == -* ]]; then\n"
    s += "    case \"$command\" in\n"
    for command in [nil] + commands.map(Optional.some) {
      let words = options(of: command).flatMap(\.names).joined(separator: " ")
      s += "      \(Self.bashQuote(command?.name ?? ""))) \(f)_words \(Self.bashQuote(words)) \"$cur\" ;;\n"
    }
    s += "    esac\n"
    s += "    return 0\n"
    s += "  fi\n"
    if !commands.isEmpty {
      s += "  case \"$command:$count\" in\n"
      let names = commands.map(\.name).joined(separator: " ")
      s += "    :*) \(f)_words \(Self.bashQuote(names)) \"$cur\" ;;\n"
      for command in commands {
        // With a repeating last positional, every earlier one needs its arm before the `*` one.
        for (index, completion) in command.positionals.enumerated()
        where completion != .none || (command.repeatsLast && index < command.positionals.count - 1) {
          let last = index == command.positionals.count - 1 && command.repeatsLast
          s +=
            "    \(Self.bashQuote(command.name + ":"))\(last ? "*" : String(index))) "
            + bashAction(completion) + " ;;\n"
        }
      }
      s += "  esac\n"
    }
    s += "  return 0\n"
    s += "}\n\n"
    s += "complete -F \(f) \(name)\n"
    return s
  }

  /// What fills COMPREPLY for `completion`.
  private func bashAction(_ completion: Completion) -> String {
    let f = functionName
    switch completion {
    case .none: return ":"
    case .files: return "\(f)_files \"$cur\""
    case .directories: return "\(f)_files \"$cur\" -d"
    case .choices(let words): return "\(f)_words \(Self.bashQuote(words.joined(separator: " "))) \"$cur\""
    case .lists: return "\(f)_lists \"$socket\" \"$cur\""
    }
  }

  /// `"create --title" | "create --content"`: case patterns for `"$command $word"`.
  private static func bashPatterns(_ command: String, _ options: [Option]) -> String {
    options.flatMap(\.names).map { bashQuote("\(command) \($0)") }.joined(separator: " | ")
  }

  /// `text` as one bash word, in single quotes.
  static func bashQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
