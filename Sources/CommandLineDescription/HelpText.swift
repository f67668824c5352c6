// `--help`: the description as plain text, wrapped to 100 columns.

extension ToolDescription {
  /// The width `--help` wraps its paragraphs to.
  static let helpWidth = 100
  /// The column where an option's help starts.
  static let helpColumn = 25

  /// What `--help` prints.
  public var help: String {
    var blocks = ["\(name) — \(expand(summary, manual: false))"]
    blocks.append(usage.enumerated().map { ($0 == 0 ? "usage: " : "       ") + $1 }.joined(separator: "\n"))
    blocks += about.map { Self.wrap(expand($0, manual: false), width: Self.helpWidth) }
    if !commands.isEmpty {
      let width = max(10, (commands.map(\.name.count).max() ?? 0) + 2)
      let lines = commands.map { command in
        Self.hanging("  " + command.name, command.summary, column: width + 2)
      }
      blocks.append("commands:\n" + lines.joined(separator: "\n"))
      if let commandsNote {
        blocks.append(Self.wrap(expand(commandsNote, manual: false), width: Self.helpWidth))
      }
    }
    let options = allOptions.map { option in
      Self.hanging("  " + option.synopsis, expand(option.help, manual: false), column: Self.helpColumn)
    }
    blocks.append("options:\n" + options.joined(separator: "\n"))
    for section in sections where section.inHelp {
      if section.preformatted {
        blocks.append(section.paragraphs.map { expand($0, manual: false) }.joined(separator: "\n"))
      } else {
        blocks += section.paragraphs.map { Self.wrap(expand($0, manual: false), width: Self.helpWidth) }
      }
    }
    return blocks.joined(separator: "\n\n")
  }

  /// `head` followed by `text` wrapped from `column` on (on the next line if `head` reaches it).
  static func hanging(_ head: String, _ text: String, column: Int) -> String {
    let indent = String(repeating: " ", count: column)
    let body = wrap(text, width: helpWidth - column).split(separator: "\n", omittingEmptySubsequences: false)
    guard let first = body.first else { return head }
    var lines: [String] = []
    if head.count < column {
      lines.append(head.padding(toLength: column, withPad: " ", startingAt: 0) + first)
    } else {
      lines.append(head)
      lines.append(indent + first)
    }
    lines += body.dropFirst().map { indent + $0 }
    return lines.joined(separator: "\n")
  }

  /// `text` as lines of at most `width` characters, broken between words (a longer word keeps its
  /// own line).
  static func wrap(_ text: String, width: Int) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines.joined(separator: "\n")
  }
}
