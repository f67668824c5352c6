// --help, the man page and the three completion scripts of each tool say the same thing, and the parser accepts it.
import Foundation
import XCTest

final class DriftTests: XCTestCase {
  /// The options `--help` lists (its `options:` block), each as its spellings.
  static func helpOptions(_ help: String) -> [[String]] {
    guard let range = help.range(of: "\noptions:\n") else { return [] }
    var options: [[String]] = []
    for line in help[range.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
      guard !line.isEmpty else { break }
      guard line.hasPrefix("  -") else { continue }
      let names = line.split(separator: " ").prefix { $0.hasPrefix("-") }.map {
        String($0.trimmingCharacters(in: [","]))
      }
      options.append(names)
    }
    return options
  }

  /// The command names listed in `--help`'s `commands:` block.
  static func helpCommands(_ help: String) -> [String] {
    guard let range = help.range(of: "\ncommands:\n") else { return [] }
    var commands: [String] = []
    for line in help[range.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
      guard !line.isEmpty else { break }
      if line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first {
        commands.append(String(name))
      }
    }
    return commands
  }

  /// A value an option's placeholder accepts, for trying it on the parser.
  static func sample(_ placeholder: String, _ scratch: Scratch) -> String {
    switch placeholder {
    case "LEVEL": return "warning"
    case "SHELL": return "bash"
    case "MODE": return "batch"
    case "PATH", "FILE": return scratch("file")
    case "DIR": return scratch("state")
    default: return "1"
    }
  }

  /// The man page of `tool` as man shows it, failing on any warning groff gives.
  func renderedManPage(_ tool: String, _ scratch: Scratch) throws -> String {
    let page = try runTool(tool, ["--generate-man"])
    XCTAssertEqual(page.status, 0, page.stderr)
    let file = scratch("\(tool).1")
    try page.stdout.write(toFile: file, atomically: true, encoding: .utf8)
    let man = try runProcess(
      "/usr/bin/env", ["man", "--warnings", "-E", "UTF-8", "-l", file], environment: ["MANWIDTH": "100"])
    XCTAssertEqual(man.status, 0, man.stderr)
    XCTAssertEqual(man.stderr, "", "groff warns about \(tool)(1)")
    return man.stdout
  }

  /// Every option `--help` lists is in the man page's OPTIONS, in each completion script, and
  /// accepted by the parser; each completion offers nothing `--help` does not list.
  func testEveryOptionOfHelpIsInTheManPageTheCompletionsAndTheParser() throws {
    let scratch = try Scratch(self)
    _ = FileManager.default.createFile(atPath: scratch("file"), contents: nil)
    for name in tools {
      let help = try runTool(name, ["--help"])
      XCTAssertEqual(help.status, 0)
      let options = Self.helpOptions(help.stdout)
      XCTAssertGreaterThan(options.count, 5, help.stdout)
      let spellings = Set(options.flatMap { $0 })

      let man = try renderedManPage(name, scratch)
      let manOptions = try XCTUnwrap(man.range(of: "\nOPTIONS\n")).upperBound
      let summary = help.stdout.prefix { $0 != "\n" }.replacingOccurrences(of: "\(name) — ", with: "")
      XCTAssertTrue(
        man.replacingOccurrences(of: "\n       ", with: " ").contains("\(name) - \(summary)"),
        "NAME of \(name)(1)")
      for spelling in spellings {
        XCTAssertTrue(man[manOptions...].contains(spelling), "\(name)(1) lacks \(spelling)")
      }

      let bash = scratch("\(name).bash")
      try runTool(name, ["--generate-completion", "bash"]).stdout.write(
        toFile: bash, atomically: true, encoding: .utf8)
      XCTAssertEqual(
        Set(try Shells.bash(bash, [name, "-"])), spellings, "bash offers what --help lists, for \(name)")

      let zsh = try runTool(name, ["--generate-completion", "zsh"]).stdout
      for spelling in spellings {
        XCTAssertTrue(zsh.contains("'\(spelling)["), "zsh completion of \(name) lacks \(spelling)")
      }

      let fishScript = scratch("\(name).fish")
      try runTool(name, ["--generate-completion", "fish"]).stdout.write(
        toFile: fishScript, atomically: true, encoding: .utf8)
      let long = Set(spellings.filter { $0.hasPrefix("--") })
      // Outside the assertion, so a missing fish skips the test rather than failing it.
      let fishOffers = Set(try Shells.fish("\(name) --", script: fishScript))
      XCTAssertEqual(fishOffers, long, "fish offers what --help lists, for \(name)")

      for option in options {
        for spelling in option where !["-h", "--help", "--version", "--generate-man"].contains(spelling) {
          let line = help.stdout.split(separator: "\n").first {
            $0.hasPrefix("  \(option.joined(separator: ", "))")
          }
          let words = line?.split(separator: " ") ?? []
          let placeholder = words.count > option.count ? String(words[option.count]) : ""
          var arguments = [spelling]
          if placeholder.first?.isUppercase == true { arguments.append(Self.sample(placeholder, scratch)) }
          if name == "listctl" { arguments += ["--timeout", "0.1", "lists"] }
          let run = try runTool(name, arguments, environment: ["XDG_RUNTIME_DIR": scratch.path])
          XCTAssertFalse(run.stderr.contains("unknown"), "\(name) \(arguments): \(run.stderr)")
        }
      }
    }
  }

  /// listctl's commands: each is in the man page and completes, with the flags its usage line
  /// names; every flag a completion offers for a command is in that command's help, in the man
  /// page, and accepted by the command.
  func testEveryCommandOfListctlIsInTheManPageAndTheCompletions() throws {
    let scratch = try Scratch(self)
    let help = try runTool("listctl", ["--help"]).stdout
    let commands = Self.helpCommands(help)
    XCTAssertGreaterThanOrEqual(commands.count, 20, help)
    let man = try renderedManPage("listctl", scratch)
    let bash = scratch("listctl.bash")
    try runTool("listctl", ["--generate-completion", "bash"]).stdout.write(
      toFile: bash, atomically: true, encoding: .utf8)
    let fish = scratch("listctl.fish")
    try runTool("listctl", ["--generate-completion", "fish"]).stdout.write(
      toFile: fish, atomically: true, encoding: .utf8)
    let zsh = try runTool("listctl", ["--generate-completion", "zsh"]).stdout
    XCTAssertEqual(try Shells.bash(bash, ["listctl", ""]), commands, "bash offers the commands of --help")
    let fishOffers = Set(try Shells.fish("listctl ", script: fish))
    XCTAssertEqual(fishOffers, Set(commands), "fish offers the commands of --help")

    let manCommands = try XCTUnwrap(man.range(of: "\nCOMMANDS\n"))
    let manOptions = try XCTUnwrap(man.range(of: "\nOPTIONS\n"))
    for command in commands {
      let commandHelp = try runTool("listctl", [command, "--help"])
      XCTAssertEqual(commandHelp.status, 0)
      let usage = try XCTUnwrap(commandHelp.stdout.split(separator: "\n").first)
      let own = try XCTUnwrap(usage.range(of: " -- ] \(command)") ?? usage.range(of: "--] \(command)"))
      let usageFlags = Set(
        usage[own.upperBound...].split(whereSeparator: { " []()|".contains($0) }).filter {
          $0.hasPrefix("--")
        }.map(String.init))

      // The man page's entry of the command: its usage line, summary and details.
      let section = man.index(before: manCommands.upperBound)..<manOptions.lowerBound
      let entryStart = try XCTUnwrap(
        man.range(of: "\n       \(command) ", range: section)
          ?? man.range(of: "\n       \(command)\n", range: section),
        "\(command) in listctl(1)")
      let next = commands.drop { $0 != command }.dropFirst().first
      let entryEnd =
        next.flatMap {
          man.range(of: "\n       \($0)", range: entryStart.upperBound..<manOptions.lowerBound)?.lowerBound
        }
        ?? manOptions.lowerBound
      let entry = man[entryStart.lowerBound..<entryEnd]

      let bashFlags = Set(try Shells.bash(bash, ["listctl", command, "--"]))
      let fishFlags = Set(try Shells.fish("listctl \(command) --", script: fish))
      XCTAssertTrue(
        usageFlags.isSubset(of: bashFlags),
        "\(command): bash offers \(bashFlags), the usage names \(usageFlags)")
      XCTAssertEqual(fishFlags, bashFlags, "\(command): fish and bash offer the same flags")
      let zshEntry = try XCTUnwrap(
        zsh.range(of: "        (\(command))\n"), "\(command) in the zsh completion")
      let zshBlock = zsh[zshEntry.upperBound...].prefix { $0 != ";" }
      for flag in bashFlags {
        XCTAssertTrue(zshBlock.contains("'*\(flag)"), "zsh completion of \(command) lacks \(flag)")
        guard !["--json", "--timeout", "--help"].contains(flag) else { continue }  // documented once for all
        XCTAssertTrue(commandHelp.stdout.contains(flag), "listctl \(command) --help does not mention \(flag)")
        XCTAssertTrue(entry.contains(flag), "listctl(1) does not mention \(flag) under \(command)")
        let run = try runTool("listctl", ["--socket", scratch("none"), command, flag, "1", "2", "3"])
        XCTAssertFalse(run.stderr.contains("unknown option"), "listctl \(command) \(flag): \(run.stderr)")
      }
    }
  }

  /// `--generate-completion` names the shells it knows when given another; the generators answer
  /// before anything else (a listd given them serves nothing).
  func testGeneratorsAnswerAtOnceAndRefuseAnUnknownShell() throws {
    for name in tools {
      let bad = try runTool(name, ["--generate-completion", "tcsh"])
      XCTAssertEqual(bad.status, 2, name)
      XCTAssertTrue(
        bad.stderr.contains("--generate-completion needs bash, zsh, fish, got 'tcsh'"), bad.stderr)
      let missing = try runTool(name, ["--generate-completion"])
      XCTAssertEqual(missing.status, 2, name)
      for shell in ["bash", "zsh", "fish"] {
        let script = try runTool(name, ["--generate-completion", shell])
        XCTAssertEqual(script.status, 0)
        XCTAssertTrue(
          script.stdout.contains("generated by `\(name) --generate-completion \(shell)`"), script.stdout)
      }
      let page = try runTool(name, ["--generate-man"])
      XCTAssertTrue(page.stdout.contains(".TH \"\(name.uppercased())\" 1"), page.stdout)
    }
  }
}
