// listd's own flags, so that listctl can say where one given in the wrong place belongs.
import Foundation

/// The flags of the listd that `--spawn` would start, with the value each takes, as that listd
/// lists them (`listd --list-options`, from the table its `--help` comes from): a listd option
/// added there is known here without a second list to keep in step.
enum DaemonFlags {
  /// Read once, when an argument listctl does not know needs checking (so only on the way to a
  /// usage error); empty when no listd is found.
  static let all: [String: String?] = {
    guard let listd = try? Listctl.listdPath() else { return [:] }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: listd)
    process.arguments = ["--list-options"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return [:] }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return [:] }
    var flags: [String: String?] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = fields.first, name.hasPrefix("--") else { continue }
      let value = fields.count > 1 && !fields[1].isEmpty ? String(fields[1]) : nil
      flags[String(name)] = .some(value)
    }
    return flags
  }()

  /// For a listd flag given to listctl: where it goes, with an example using `command`.
  static func misplaced(_ flag: String, command: String?) -> UsageError? {
    // Asking listd costs a process: only for what could be one of its flags.
    guard flag.hasPrefix("--"), flag != "--", !["--json", "--timeout"].contains(flag),
      let value = all[flag]
    else { return nil }
    let example = ([flag] + (value.map { [$0] } ?? [])).joined(separator: " ")
    return UsageError(
      "\(flag) is a listd option: put daemon options between --spawn and --, as in "
        + "`listctl --spawn \(example) -- \(command ?? "lists")`")
  }
}
