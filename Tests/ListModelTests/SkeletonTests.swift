// Placeholder so the test target builds until the model's tests land.
import XCTest
@testable import ListModel

final class SkeletonTests: XCTestCase {
  func testPackageBuilds() { XCTAssertTrue(true) }
}
