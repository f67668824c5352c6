// Placeholder.
import XCTest

final class PlaceholderNeovimTests: XCTestCase {
  func testBuilds() {}
}
