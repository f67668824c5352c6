// Where the editor test runners find the built binaries and the editors they drive.
import Foundation

/// The built products beside a test bundle, and tools on PATH.
public enum BuiltTools {
  /// The product `name` (e.g. `listd`) built beside the test bundle of `testClass`; SwiftPM builds
  /// it first when the target depends on it.
  public static func product(_ name: String, besideBundleOf testClass: AnyClass) -> URL {
    // Linux: the bundle is the build directory itself; macOS: `…/debug/X.xctest`.
    let bundle = Bundle(for: testClass).bundleURL
    let directory = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    return directory.appendingPathComponent(name)
  }

  /// The executable `name` on PATH, or nil. O(entries of PATH).
  public static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
