// diff/preview and diff/contents against an in-process server: the same answer as the real change, and no trace of it.
import Foundation
import JSON
import JSONRPC
import XCTest

final class PreviewTests: InProcessServerTestCase {
  func testAContentPreviewAnswersAsListReplaceWould() throws {
    let content: JSONValue = ["sections": [["id": "s", "items": [["id": "a", "text": "A"], ["id": "b"]]]]]
    try client.request("list/create", ["list": "l", "content": content])
    try client.request("selection/select", ["list": "l", "items": ["b"]])
    let next: JSONValue = ["sections": [["id": "s", "items": [["id": "b"], ["id": "a", "text": "A2"]]]]]
    let preview = try client.request("diff/preview", ["list": "l", "content": next])
    XCTAssertEqual(try client.version(of: "l"), 1)
    XCTAssertEqual(preview, try client.request("list/replace", ["list": "l", "content": next]))
    XCTAssertEqual(
      client.error("diff/preview", ["list": "l", "content": next, "ifVersion": 1]).code.rawValue, -32801)
  }

  func testBadPreviewsAndContentsAreRefusedNamingTheField() throws {
    try client.request("list/create", ["list": "l"])
    let neither = client.error("diff/preview", ["list": "l"])
    XCTAssertEqual(neither.code.rawValue, -32602)
    XCTAssertEqual(neither.data?["field"], "content")
    XCTAssertEqual(
      client.error("diff/preview", ["list": "l", "content": [:], "edits": []]).data?["field"], "edits")
    XCTAssertTrue(neither.message.contains(#"exactly one of "content", "edits""#), neither.message)
    XCTAssertEqual(
      client.error("diff/preview", ["list": "l", "content": [:], "edits": []]).code.rawValue, -32602)
    XCTAssertEqual(client.error("diff/preview", ["list": "nope", "edits": []]).code.rawValue, -32010)
    let badSide = client.error("diff/contents", ["old": ["sections": []], "new": ["sections": [["id": 5]]]])
    XCTAssertEqual(badSide.data?["field"], "new.sections[0].id")
    let duplicate = client.error(
      "diff/contents", ["old": ["sections": []], "new": ["sections": [["id": "s"], ["id": "s"]]]])
    XCTAssertEqual(duplicate.code.rawValue, -32013)
    XCTAssertTrue(duplicate.message.hasPrefix("\"new\": "), duplicate.message)
    XCTAssertEqual(client.error("diff/contents", ["old": ["sections": []]]).code.rawValue, -32602)
  }

  func testContentsKeepExpansionOfOldItemsThatDoNotSay() throws {
    let old: JSONValue = [
      "sections": [["id": "s", "items": [["id": "p", "expanded": true, "children": [["id": "c"]]]]]]
    ]
    let new: JSONValue = [
      "sections": [["id": "s", "items": [["id": "p", "children": [["id": "c"], ["id": "d"]]]]]]
    ]
    let answer = try client.request("diff/contents", ["old": old, "new": new])
    XCTAssertEqual(answer["changeset"]?["itemInserts"]?.arrayValue?.count, 1, "\(answer)")
    XCTAssertNil(answer["changeset"]?["collapsed"])
  }
}
