// Re-sent items recognised member by member: the members sent as the row has them are taken undecoded, the others decoded.
import JSON
import JSONRPC
import ListModel
import XCTest

@testable import ListProtocol

final class RecalledMembersTests: XCTestCase {
  /// The current version's item, as its row has it.
  let row =
    #"{"id":"a","text":"Item 1","image":"doc","data":{"count":1,"owner":{"id":7,"name":"u1"},"score":1},"#
    + #""accessories":[{"type":"badge","text":"1"}],"trailingSwipeActions":[{"id":"delete","title":"Delete","style":"destructive"}]}"#

  /// `sent` (items of one section) read against a version holding `row`: the items, how many
  /// were recognised by some of their bytes, and the current payload.
  func read(_ sent: String, current: String? = nil) throws -> (
    items: [ListItem], recognised: Int, current: ItemPayload
  ) {
    func content(_ items: String) throws -> JSONText {
      try JSONText(validating: Array(#"{"sections":[{"id":"s","items":[\#(items)]}]}"#.utf8))
    }
    let sections = try ContentDecoding.content(content(current ?? row), path: "content", inherit: false)
    let snapshot = try ContentDecoding.snapshot(sections, sharingWith: ListSnapshot(), selectionMode: .single)
    let recall = ContentRecall(snapshot)
    let text = try content(sent)
    let recalled = try XCTUnwrap(ContentDecoding.onePassContent(text, inherit: true, recall: recall))
    // The same result as decoding, whatever was recognised.
    XCTAssertEqual(recalled, try ContentDecoding.content(text, path: "content", inherit: true), sent)
    return (recalled[0].trees.map(\.item), recall.recognised, sections[0].trees[0].item.payload)
  }

  func testAnItemWithDataInTheClientsOwnSpellingIsTheCurrentPayload() throws {
    // `data`'s members in another order, `1.0` for `1`: the rest is recognised by its bytes, `data`
    // decoded and compared as a value.
    let sent = row.replacingOccurrences(
      of: #"{"count":1,"owner":{"id":7,"name":"u1"},"score":1}"#,
      with: #"{"score":1.0,"owner":{"name":"u1","id":7},"count":1}"#)
    let (items, recognised, current) = try read(sent)
    XCTAssertEqual(recognised, 1)
    XCTAssertTrue(items[0].payload.isIdentical(to: current))
  }

  func testWhitespaceBetweenMembersStillRecognisesThem() throws {
    let sent = row.replacingOccurrences(of: #"",""#, with: #"", ""#).replacingOccurrences(
      of: #"":"#, with: #"": "#)
    XCTAssertNotEqual(sent, row)
    let (items, recognised, current) = try read(sent)
    XCTAssertEqual(recognised, 1)
    XCTAssertTrue(items[0].payload.isIdentical(to: current))
  }

  func testOneMemberChangedTakesTheOthersAndIsANewPayload() throws {
    let sent = row.replacingOccurrences(of: #""Item 1""#, with: #""Item 1 v2""#)
    let (items, recognised, current) = try read(sent)
    XCTAssertEqual(recognised, 1)
    XCTAssertFalse(items[0].payload.isIdentical(to: current))
    XCTAssertEqual(items[0].payload.content.text, "Item 1 v2")
    XCTAssertEqual(items[0].payload.placedAccessories, current.placedAccessories)
  }

  func testAMemberLeftOutOrAddedIsNoLongerTheCurrentPayload() throws {
    let withoutImage = row.replacingOccurrences(of: #""image":"doc","#, with: "")
    XCTAssertNil(try read(withoutImage).items[0].payload.content.image)
    let selectableSpelledOut = row.replacingOccurrences(
      of: #""image":"doc","#, with: #""image":"doc","selectable":true,"#)
    let (items, _, current) = try read(selectableSpelledOut)
    XCTAssertTrue(items[0].payload.isIdentical(to: current), "a default spelled out is the same payload")
    let unselectable = row.replacingOccurrences(
      of: #""image":"doc","#, with: #""image":"doc","selectable":false,"#)
    XCTAssertFalse(try read(unselectable).items[0].payload.isSelectable)
  }

  /// A number recognised by its bytes must be all of the number sent: `5` is not the start of
  /// `55`, `5.5`, `5e1` or `5E1`.
  func testANumberIsNotTakenForThePrefixOfALongerOne() throws {
    let current = #"{"id":"a","text":"t","data":5}"#
    for (spelling, value) in [("55", 55.0), ("5.5", 5.5), ("5e1", 50), ("5E1", 50), ("5 ", 5), ("5", 5)] {
      let sent = #"{"id":"a","text":"\u0074","data":\#(spelling)}"#
      let (items, _, _) = try read(sent, current: current)
      let data = try XCTUnwrap(items[0].payload.content.data, spelling)
      switch data {
      case .int(let n): XCTAssertEqual(Double(n), value, spelling)
      case .double(let d): XCTAssertEqual(d, value, spelling)
      default: XCTFail("\(spelling): \(data)")
      }
    }
  }
}
