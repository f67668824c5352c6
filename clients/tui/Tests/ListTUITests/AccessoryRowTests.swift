// A row draws its accessories in the spec's "Accessory order" (ListClient's AccessoryOrderTests check the order itself).
import ListModel
import ListTUI
import XCTest

final class AccessoryRowTests: XCTestCase {
  /// The demo's contacts put the chevron before the badge: the row shows ` 1  ›`.
  func testTheChevronIsTrailingMostInTheRow() throws {
    var snapshot = ListSnapshot(selectionMode: .single)
    try snapshot.appendSections([SectionSpec("s")])
    try snapshot.appendTrees([
      OutlineNode(
        ListItem(
          "a",
          payload: ItemPayload(
            content: ItemContent(text: "Ada"), accessories: [.disclosureIndicator, .badge("1")])))
    ])
    var fixture = ModelFixture(snapshot)
    let app = opened(&fixture, width: 40, height: 6)
    let line = try XCTUnwrap(Renderer.frame(app, time: 0).map(\.plainText).first { $0.contains("Ada") })
    XCTAssertTrue(line.hasSuffix(" 1  › "), line)
  }
}
