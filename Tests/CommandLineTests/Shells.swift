// Asks bash and fish what their completion scripts offer, as they would at a prompt.
import Foundation
import XCTest

/// Completing command lines with the scripts the tools print.
enum Shells {
  /// What bash offers for `words` (the last one being completed) with the completion script at
  /// `script`: the function `complete -p` registered for the program, called as readline would.
  static func bash(_ script: String, _ words: [String], environment: [String: String?] = [:]) throws
    -> [String]
  {
    let run = try runProcess(
      "/bin/bash",
      [
        "-c",
        """
        source "$1" || exit 99
        shift
        function=$(complete -p "$1" | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
        [[ -n $function ]] || exit 98
        COMP_WORDS=("$@")
        COMP_CWORD=$(($# - 1))
        COMP_LINE="$*"
        COMPREPLY=()
        "$function" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
        ((${#COMPREPLY[@]} == 0)) || printf '%s\\n' "${COMPREPLY[@]}"
        """,
        "bash", script,
      ] + words, environment: environment)
    XCTAssertEqual(run.status, 0, "bash completion of \(words): \(run.stderr)")
    return run.stdout.split(separator: "\n").map(String.init)
  }

  /// What fish offers for `line` (completing its last word) with the completion scripts fish
  /// finds itself (`environment` says where: HOME, XDG_DATA_DIRS), and `script` sourced first
  /// when given.
  static func fish(_ line: String, script: String? = nil, environment: [String: String?] = [:]) throws
    -> [String]
  {
    guard let fish = installed("fish") else { throw XCTSkip("fish is not installed") }
    // Without a script to source, fish's own configuration must run: it is what sets the
    // directories completions are looked up in.
    let arguments =
      script.map { ["--no-config", "-c", "source \($0); complete -C $argv[1]"] } ?? [
        "-c", "complete -C $argv[1]",
      ]
    let run = try runProcess(fish, arguments + [line], environment: environment)
    XCTAssertEqual(run.status, 0, "fish completion of '\(line)': \(run.stderr)")
    // Each line is `word<TAB>description`.
    return run.stdout.split(separator: "\n").map {
      String($0.split(separator: "\t", maxSplits: 1).first ?? "")
    }
  }
}
