// Where the built `listd` is, for the tests that run ListClient against a spawned daemon.
import Foundation

/// The build directory holding the test bundle and `listd`.
let buildDirectory: URL = {
  // Linux: the bundle is the build directory itself; macOS: `…/debug/X.xctest`.
  let bundle = Bundle(for: BundleMarker.self).bundleURL
  return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
}()

/// A class of this bundle, to find it by.
private final class BundleMarker {}
