// The default socket path follows the XDG Base Directory spec: a relative directory is ignored, trailing slashes are dropped.
import Foundation
import JSONRPC
import XCTest

final class DefaultSocketPathTests: XCTestCase {
  /// The variable the platform reads (`XDG_RUNTIME_DIR` on Linux, `TMPDIR` on macOS).
  let variable = UnixSocket.defaultDirectoryVariable

  func testAnAbsoluteDirectoryHoldsTheSocket() {
    XCTAssertEqual(
      UnixSocket.defaultPath(environment: [variable: "/run/user/7"]), "/run/user/7/listd/listd.sock")
  }

  func testTrailingSlashesAreDropped() {
    XCTAssertEqual(UnixSocket.defaultPath(environment: [variable: "/x/"]), "/x/listd/listd.sock")
    XCTAssertEqual(UnixSocket.defaultPath(environment: [variable: "/x//"]), "/x/listd/listd.sock")
    XCTAssertEqual(UnixSocket.defaultPath(environment: [variable: "/"]), "/listd/listd.sock")
  }

  #if canImport(Glibc)
    // On macOS an unset or relative TMPDIR falls back to confstr, not to /tmp/listd-$UID.
    func testARelativeOrEmptyDirectoryCountsAsUnset() {
      let fallback = "/tmp/listd-\(getuid())/listd.sock"
      XCTAssertEqual(UnixSocket.defaultPath(environment: [variable: "rel/dir"]), fallback)
      XCTAssertEqual(UnixSocket.defaultPath(environment: [variable: "./run"]), fallback)
      XCTAssertEqual(UnixSocket.defaultPath(environment: [variable: ""]), fallback)
      XCTAssertEqual(UnixSocket.defaultPath(environment: [:]), fallback)
    }
  #endif
}
