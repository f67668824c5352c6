// A journal keeps what an older daemon accepted: items with two of one system accessory replay as written.
import JSON
import JSONRPC
import ListModel
import ListProtocol
import XCTest

@testable import ListServer

final class JournalReadsAsWrittenTests: XCTestCase {
  /// Such items are refused since (CheckTests); a journal holding them still replays, in a
  /// change and in a state record, so a restart reports no damage.
  func testRepeatedSystemAccessoriesInAJournalReplay() throws {
    let twice: JSONValue = [["type": "checkmark"], ["type": "checkmark"]]
    let content: JSONValue = ["sections": [["id": "s", "items": [["id": "a", "accessories": twice]]]]]
    var snapshot = ListSnapshot()
    _ = try JournaledChange.content(content).apply(to: &snapshot, list: "l")
    XCTAssertEqual(snapshot.payload(of: "a")?.placedAccessories.count, 2)
    _ = try JournaledChange.wireEdits([["op": "patchItems", "items": [["id": "a", "accessories": twice]]]])
      .apply(to: &snapshot, list: "l")
    XCTAssertThrowsError(
      try ContentDecoding.content(Params(content)), "outside a journal read, the item is refused")
  }
}
