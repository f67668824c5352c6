// list/all paging: creation order, offset and limit, total, a dispose moving later lists up, bad params named.
import Foundation
import JSON
import JSONRPC
import XCTest

final class ListPagingTests: XCTestCase {
  private func ids(_ answer: JSONValue) -> [String] {
    (answer["lists"]?.arrayValue ?? []).compactMap { $0["list"]?.stringValue }
  }

  func testPagesFollowCreationOrderAndCountEveryList() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    // Created in an order that is not the ids' sort order.
    let created = (0..<25).map { "list-\((($0 * 7) % 25))" }
    for id in created { try client.request("list/create", ["list": .string(id)]) }

    var walked: [String] = []
    for offset in stride(from: 0, to: 30, by: 10) {
      let page = try client.request("list/all", ["offset": .int(Int64(offset)), "limit": 10])
      XCTAssertEqual(page["total"], 25)
      walked += ids(page)
    }
    XCTAssertEqual(walked, created)
    // Without a limit: every list; an offset at or past the end: an empty page.
    XCTAssertEqual(ids(try client.request("list/all", [:])), created)
    XCTAssertEqual(ids(try client.request("list/all", ["offset": 25, "limit": 5])), [])
    XCTAssertEqual(ids(try client.request("list/all", ["offset": 1_000])), [])
    XCTAssertEqual(ids(try client.request("list/all", ["limit": 0])), [])

    // Disposing a list moves those after it up by one; a new list comes last.
    try client.request("list/dispose", ["list": .string(created[3])])
    try client.request("list/create", ["list": "newest"])
    let page = try client.request("list/all", ["offset": 3, "limit": 2])
    XCTAssertEqual(ids(page), [created[4], created[5]])
    XCTAssertEqual(page["total"], 25)
    XCTAssertEqual(ids(try client.request("list/all", ["offset": 24, "limit": 10])), ["newest"])
  }

  func testBadPagingParamsNameTheFieldAndTheValue() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    let cases: [(JSONValue, String)] = [
      (["offset": -1], #""offset" must be 0 or more, got -1"#),
      (["limit": -2], #""limit" must be between 0 and 10000, got -2"#),
      (["limit": 10_001], #""limit" must be between 0 and 10000, got 10001"#),
      (["limit": "ten"], #""limit""#),
      (["offset": 1.5], #""offset""#),
      (["page": 1], #""page""#),
    ]
    for (params, expected) in cases {
      let error = client.error("list/all", params)
      XCTAssertEqual(error.code.rawValue, -32602, "\(params)")
      XCTAssertTrue(error.message.contains(expected), "\(params): \(error.message)")
    }
  }
}
