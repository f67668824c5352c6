// Finds the listd executable a client spawns.
import Foundation

extension ListClient {
  /// The `listd` to spawn: `$LISTD`, else the one next to this executable (where `swift build`
  /// puts it), else `listd` on the PATH; nil if there is none. O(entries of PATH).
  public static func locateDaemon() -> String? {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["LISTD"], !path.isEmpty { return path }
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let sibling = me.deletingLastPathComponent().appendingPathComponent("listd").path
    if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
    for directory in (environment["PATH"] ?? "").split(separator: ":") {
      let candidate = "\(directory)/listd"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
