// listd's own flags, so that listctl can say where one given in the wrong place belongs.

/// The flags `listd --help` lists (Sources/listd/DaemonOptions.swift), with the value each takes.
/// A test checks this table against `listd --help`.
enum DaemonFlags {
  static let all: [String: String?] = [
    "--listen": "PATH", "--stay": nil, "--demo": nil, "--log-file": "PATH", "--log-level": "LEVEL",
    "--history": "N", "--explain-history": "N", "--max-frame-bytes": "N", "--max-queue-bytes": "N",
    "--orphan-timeout": "SECONDS", "--state": "DIR", "--sync": "MODE", "--retain-versions": "N",
    "--retain-bytes": "N", "--checkpoint-bytes": "N",
  ]

  /// For a listd flag given to listctl: where it goes, with an example using `command`.
  static func misplaced(_ flag: String, command: String?) -> UsageError? {
    guard let value = all[flag] else { return nil }
    let example = ([flag] + (value.map { [$0] } ?? [])).joined(separator: " ")
    return UsageError(
      "\(flag) is a listd option: put daemon options between --spawn and --, as in "
        + "`listctl --spawn \(example) -- \(command ?? "lists")`")
  }
}
