// Bad requests in process: each gets an error naming the field and the value, changes nothing, and the server keeps serving.
import Foundation
import JSON
import JSONRPC
import XCTest

final class BadRequestTests: XCTestCase {
  // MARK: - Fixtures

  /// List `l`: sections `s1` (items `a`, `b`) and `s2` (item `c`), multiple selection.
  private static let content: JSONValue = [
    "sections": [
      ["id": "s1", "header": "One", "items": [["id": "a", "text": "A"], ["id": "b", "text": "B"]]],
      ["id": "s2", "items": [["id": "c", "text": "C"]]],
    ]
  ]

  private func makeList(_ client: TestClient) throws {
    try client.request(
      "list/create", ["list": "l", "selectionMode": "multiple", "content": Self.content])
  }

  /// Everything a client can see of list `l`: info (version, counts) and every row.
  private func state(_ client: TestClient) throws -> JSONValue {
    let info = try client.request("list/info", ["list": "l"])
    let window = try client.request("query/window", ["list": "l", "offset": 0, "limit": 100])
    let selection = try client.request("query/selection", ["list": "l"])
    return ["info": info, "window": window, "selection": selection]
  }

  /// A bad request: the code it must get, the `data` members it must carry, the words its message must contain.
  private struct Case {
    let method: String
    let params: JSONValue
    let code: ErrorCode
    var data: [String: JSONValue] = [:]
    var mentions: [String] = []
    let line: UInt

    init(
      _ method: String, _ params: JSONValue, _ code: ErrorCode, data: [String: JSONValue] = [:],
      mentions: [String] = [], line: UInt = #line
    ) {
      self.method = method
      self.params = params
      self.code = code
      self.data = data
      self.mentions = mentions
      self.line = line
    }
  }

  /// Runs each case against a server holding list `l`: exact code, data and message; the list
  /// (content, version, selection) unchanged; no `didChange` sent; the server still answers.
  private func run(_ cases: [Case], file: StaticString = #filePath) throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    try makeList(client)
    try client.request("list/subscribe", ["list": "l", "snapshot": "none"])
    let before = try state(client)
    for item in cases {
      let error = client.error(item.method, item.params, file: file, line: item.line)
      XCTAssertEqual(
        error.code, item.code, "\(item.method) \(item.params): \(error.message)", file: file, line: item.line)
      for (key, value) in item.data {
        XCTAssertEqual(
          error.data?[key], value, "data.\(key) of \(item.method): \(error.message)", file: file,
          line: item.line)
      }
      for word in item.mentions {
        XCTAssertTrue(
          error.message.contains(word), "'\(error.message)' does not mention '\(word)'", file: file,
          line: item.line)
      }
      XCTAssertEqual(
        try state(client), before, "\(item.method) changed the list", file: file, line: item.line)
    }
    // Still serving, and the failed requests sent no change: the next didChange is version 1.
    try client.request(
      "list/edit", ["list": "l", "edits": [["op": "appendItems", "items": [["id": "d"]], "section": "s2"]]])
    let change = client.next("list/didChange")
    XCTAssertEqual(change?["previousVersion"], 0, file: file)
    XCTAssertEqual(change?["version"], 1, file: file)
    client.close(file: file)
  }

  // MARK: - Requests

  func testUnknownMethodIsNamed() throws {
    try run([
      Case("list/frobnicate", [:], .methodNotFound, mentions: ["list/frobnicate"]),
      Case("List/All", [:], .methodNotFound, mentions: ["List/All"]),
      Case("owner/refresh", ["list": "l"], .methodNotFound, mentions: ["owner/refresh"]),
    ])
  }

  func testParamsOfTheWrongTypeOrMissingNameTheField() throws {
    try run([
      Case("list/create", ["list": 5], .invalidParams, data: ["field": "list"], mentions: ["\"list\"", "5"]),
      Case(
        "list/create", ["title": "x"], .invalidParams, data: ["field": "list"], mentions: ["missing", "list"]),
      Case("list/create", [1, 2], .invalidParams, mentions: ["params", "object"]),
      Case(
        "list/create", ["list": "n", "appearance": "fancy"], .invalidParams, data: ["field": "appearance"],
        mentions: ["appearance", "fancy"]),
      Case(
        "list/create", ["list": "n", "selectionMode": 3], .invalidParams, data: ["field": "selectionMode"],
        mentions: ["selectionMode", "3"]),
      Case(
        "list/create", ["list": "n", "content": ["sections": [["items": []]]]], .invalidParams,
        data: ["field": "content.sections[0].id"], mentions: ["content.sections[0].id"]),
      Case(
        "list/create",
        [
          "list": "n",
          "content": [
            "sections": [["id": "s", "items": [["id": "x", "accessories": [["type": "sparkles"]]]]]]
          ],
        ],
        .invalidParams, mentions: ["accessories[0]", "sparkles"]),
      Case(
        "list/create", ["list": "n", "colour": "red"], .invalidParams, data: ["field": "colour"],
        mentions: ["colour"]),
      Case(
        "list/info", ["list": "l", "extra": 1], .invalidParams, data: ["field": "extra"], mentions: ["extra"]),
      Case(
        "list/all", ["old": []], .invalidParams, data: ["field": "old"],
        mentions: [#""old" is not a known field here (expected one of "offset", "limit")"#]),
      Case(
        "list/edit", ["list": "l", "edits": "nope"], .invalidParams, data: ["field": "edits"],
        mentions: ["edits", "nope"]),
      Case(
        "list/edit", ["list": "l"], .invalidParams, data: ["field": "edits"], mentions: ["missing", "edits"]),
      Case(
        "list/edit", ["list": "l", "edits": [["op": "frobnicate"]]], .invalidParams,
        data: ["field": "edits[0].op"], mentions: ["edits[0].op", "frobnicate"]),
      Case(
        "list/edit", ["list": "l", "edits": [["op": "appendItem", "items": []]]], .invalidParams,
        data: ["field": "edits[0].op"], mentions: [#"got "appendItem" (did you mean "appendItems"?)"#]),
      Case(
        "list/edit", ["list": "l", "edits": [["op": "appendItems", "items": [["id": 7]]]]], .invalidParams,
        data: ["field": "edits[0].items[0].id"], mentions: ["edits[0].items[0].id", "7"]),
      Case(
        "list/edit",
        ["list": "l", "edits": [["op": "appendItems", "items": [["id": "x"]]], ["op": "deleteItems"]]],
        .invalidParams, data: ["field": "edits[1].items"], mentions: ["edits[1].items"]),
      Case(
        "list/edit", ["list": "l", "edits": [], "ifVersion": "abc"], .invalidParams,
        data: ["field": "ifVersion"],
        mentions: ["ifVersion", "abc"]),
      Case(
        "list/replace", ["list": "l", "content": ["sections": "none"]], .invalidParams,
        data: ["field": "content.sections"], mentions: ["content.sections", "none"]),
      Case(
        "query/window", ["list": "l", "offset": "zero", "limit": 10], .invalidParams,
        data: ["field": "offset"],
        mentions: ["offset", "zero"]),
      Case(
        "query/items", ["list": "l"], .invalidParams, data: ["field": "section"],
        mentions: ["missing", "section"]),
      Case(
        "selection/select", ["list": "l", "items": ["a", 5]], .invalidParams, data: ["field": "items[1]"],
        mentions: ["items[1]", "5"]),
      Case(
        "event/toggle", ["list": "l", "item": "a", "isOn": "yes"], .invalidParams, data: ["field": "isOn"],
        mentions: ["isOn", "yes"]),
      Case(
        "event/refresh", ["list": "l", "timeoutMs": 0], .invalidParams, data: ["field": "timeoutMs"],
        mentions: ["timeoutMs", "0"]),
      Case(
        "list/subscribe", ["list": "l", "snapshot": "partial"], .invalidParams, data: ["field": "snapshot"],
        mentions: ["snapshot", "partial"]),
    ])
  }

  func testDuplicateIdsAreRefusedAndAFailedBatchChangesNothing() throws {
    try run([
      Case("list/create", ["list": "l"], -32013, data: ["id": "l"], mentions: ["'l'"]),
      Case(
        "list/edit", ["list": "l", "edits": [["op": "appendSections", "sections": [["id": "s1"]]]]], -32013,
        data: ["id": "s1", "kind": "section", "editIndex": 0], mentions: ["s1"]),
      Case(
        "list/edit",
        ["list": "l", "edits": [["op": "appendItems", "section": "s2", "items": [["id": "a"]]]]],
        -32013, data: ["id": "a", "kind": "item"], mentions: ["'a'"]),
      // The first edit is fine; the second fails: the batch as a whole changes nothing.
      Case(
        "list/edit",
        [
          "list": "l",
          "edits": [
            ["op": "appendItems", "section": "s2", "items": [["id": "x"]]],
            ["op": "deleteItems", "items": ["b"]],
            ["op": "appendItems", "section": "s1", "items": [["id": "x"]]],
          ],
        ], -32013, data: ["id": "x", "editIndex": 2], mentions: ["'x'"]),
      Case(
        "list/replace",
        ["list": "l", "content": ["sections": [["id": "s", "items": [["id": "q"], ["id": "q"]]]]]], -32013,
        data: ["id": "q"], mentions: ["'q'"]),
      Case(
        "list/replace", ["list": "l", "content": ["sections": [["id": "s"], ["id": "s"]]]], -32013,
        data: ["id": "s"], mentions: ["'s'"]),
    ])
  }

  func testADuplicateIdOfARequestInProgressIsRefused() throws {
    let raw = try RawClient.inProcess(of: TestClient.server())
    defer { raw.close() }
    XCTAssertNotNil(raw.request(id: 1, "initialize", [:])?["result"])
    XCTAssertNotNil(raw.request(id: 2, "list/create", ["list": "l"])?["result"])
    // We own `l` and never answer its refresh, so request 3 stays in progress.
    raw.sendRequest(id: 3, "event/refresh", ["list": "l", "timeoutMs": 60_000])
    let refresh = raw.next()
    XCTAssertEqual(refresh?["method"], "owner/refresh", "\(String(describing: refresh))")
    raw.sendRequest(id: 3, "list/all")
    let duplicate = raw.next()
    XCTAssertEqual(duplicate?["id"], 3)
    XCTAssertEqual(duplicate?.errorCode, -32600)
    XCTAssertTrue(
      duplicate?.errorMessage.contains("duplicate request id 3") == true, duplicate?.errorMessage ?? "")
    // Answering the owner/refresh completes request 3 exactly once.
    raw.frame(["jsonrpc": "2.0", "id": refresh?["id"] ?? .null, "result": [:]])
    XCTAssertEqual(raw.next()?["result"], ["list": "l", "version": 0])
    XCTAssertNotNil(raw.request(id: 4, "list/all")?["result"])
  }

  func testCreatingAListWithDuplicateItemsCreatesNothing() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    let error = client.error(
      "list/create",
      ["list": "n", "content": ["sections": [["id": "s", "items": [["id": "x"], ["id": "x"]]]]]])
    XCTAssertEqual(error.code, -32013)
    XCTAssertEqual(error.data?["id"], "x")
    XCTAssertTrue(error.message.contains("'x'"), error.message)
    XCTAssertEqual(client.error("list/info", ["list": "n"]).code, -32010)
    XCTAssertEqual(try client.request("list/all")["lists"], [])
    client.close()
  }

  func testUnknownListSectionOrItemIsNamed() throws {
    try run([
      Case("list/info", ["list": "nope"], -32010, data: ["list": "nope"], mentions: ["'nope'"]),
      Case("list/edit", ["list": "nope", "edits": []], -32010, data: ["list": "nope"], mentions: ["'nope'"]),
      Case("list/dispose", ["list": "nope"], -32010, data: ["list": "nope"], mentions: ["'nope'"]),
      Case("query/window", ["list": "nope", "offset": 0, "limit": 5], -32010, data: ["list": "nope"]),
      Case("list/subscribe", ["list": "nope"], -32010, data: ["list": "nope"]),
      Case(
        "query/items", ["list": "l", "section": "zz"], -32011, data: ["section": "zz"], mentions: ["'zz'"]),
      Case(
        "list/edit", ["list": "l", "edits": [["op": "deleteSections", "sections": ["zz"]]]], -32011,
        data: ["section": "zz", "editIndex": 0], mentions: ["'zz'"]),
      Case(
        "list/edit",
        ["list": "l", "edits": [["op": "appendItems", "section": "zz", "items": [["id": "x"]]]]],
        -32011, data: ["section": "zz"], mentions: ["'zz'"]),
      Case("query/item", ["list": "l", "item": "zz"], -32012, data: ["item": "zz"], mentions: ["'zz'"]),
      Case(
        "selection/select", ["list": "l", "items": ["a", "zz"]], -32012, data: ["item": "zz"],
        mentions: ["'zz'"]),
      Case(
        "list/edit",
        [
          "list": "l",
          "edits": [["op": "deleteItems", "items": ["a"]], ["op": "moveItem", "item": "zz", "after": "b"]],
        ],
        -32012, data: ["item": "zz", "editIndex": 1], mentions: ["'zz'"]),
      Case(
        "list/edit", ["list": "l", "edits": [["op": "moveItem", "item": "a", "before": "zz"]]], -32012,
        data: ["item": "zz"], mentions: ["'zz'"]),
      Case("event/select", ["list": "l", "item": "zz"], -32012, data: ["item": "zz"], mentions: ["'zz'"]),
      Case(
        "list/edit", ["list": "l", "edits": [["op": "moveItem", "item": "a", "after": "a"]]], -32014,
        mentions: ["'a'"]),
    ])
  }

  func testStaleIfVersionIsRefusedWithTheCurrentVersion() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    try makeList(client)
    try client.request(
      "list/edit", ["list": "l", "ifVersion": 0, "edits": [["op": "deleteItems", "items": ["c"]]]])
    let before = try state(client)
    for (method, params) in [
      (
        "list/edit",
        ["list": "l", "ifVersion": 0, "edits": [["op": "deleteItems", "items": ["a"]]]] as JSONValue
      ),
      ("list/replace", ["list": "l", "ifVersion": 7, "content": ["sections": []]]),
      ("selection/selectAll", ["list": "l", "ifVersion": 0]),
      ("outline/expand", ["list": "l", "ifVersion": 0]),
    ] {
      let error = client.error(method, params)
      XCTAssertEqual(error.code, .contentModified, method)
      XCTAssertEqual(error.data?["currentVersion"], 1, method)
      XCTAssertTrue(error.message.contains("version 1"), error.message)
      XCTAssertTrue(error.message.contains("ifVersion \(params["ifVersion"]!.intValue!)"), error.message)
      XCTAssertEqual(try state(client), before, method)
    }
    XCTAssertEqual(
      try client.request("selection/selectAll", ["list": "l", "ifVersion": 1])["version"], 2)
    client.close()
  }
}
