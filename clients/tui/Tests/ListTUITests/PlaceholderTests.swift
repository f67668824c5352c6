// Placeholder.
import XCTest

final class PlaceholderTUITests: XCTestCase {
  func testBuilds() {}
}
