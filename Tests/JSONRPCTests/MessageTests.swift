// Table tests of JSON-RPC message decoding (exact errors) and encoding, batches and error codes.
import JSONRPC
import XCTest

final class MessageTests: XCTestCase {
  func decode(_ text: String) -> Incoming { Incoming(body: Array(text.utf8)) }

  func testDecodesValidMessages() {
    let cases: [(String, Message)] = [
      (
        #"{"jsonrpc":"2.0","id":1,"method":"a","params":{"x":1}}"#,
        .request(Request(id: 1, method: "a", params: ["x": 1]))
      ),
      (
        #"{"jsonrpc":"2.0","id":"s","method":"a","params":[1]}"#,
        .request(Request(id: "s", method: "a", params: [1]))
      ),
      (#"{"method":"a","id":-5,"jsonrpc":"2.0"}"#, .request(Request(id: -5, method: "a"))),
      (
        #"{"jsonrpc":"2.0","id":1,"method":"shutdown","params":null}"#,
        .request(Request(id: 1, method: "shutdown"))
      ),
      (#"{"jsonrpc":"2.0","method":"n"}"#, .notification(Notification(method: "n"))),
      (
        #"{"jsonrpc":"2.0","method":"n","params":{},"extra":true}"#,
        .notification(Notification(method: "n", params: [:]))
      ),
      (#"{"jsonrpc":"2.0","id":1,"result":null}"#, .response(Response(id: 1, result: .null))),
      (#"{"jsonrpc":"2.0","id":"x","result":{"a":[]}}"#, .response(Response(id: "x", result: ["a": []]))),
      (
        #"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope","data":{"k":1}}}"#,
        .response(Response(id: 2, error: ResponseError(.methodNotFound, "nope", data: ["k": 1])))
      ),
      (
        #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#,
        .response(Response(id: nil, error: ResponseError(.parseError, "bad")))
      ),
    ]
    for (text, expected) in cases {
      XCTAssertEqual(decode(text), .single(.success(expected)), text)
      // Encoding and decoding again gives the same message; the fast writer matches jsonValue.
      XCTAssertEqual(expected.jsonBytes(), expected.jsonValue.jsonBytes(), text)
      XCTAssertEqual(Incoming(body: expected.jsonBytes()), .single(.success(expected)), text)
    }
  }

  func testRejectsInvalidMessagesNamingFieldAndValue() {
    let cases: [(String, RequestID?, String)] = [
      (#"1"#, nil, #"invalid request: message must be an object, got 1"#),
      (#""x""#, nil, #"invalid request: message must be an object, got "x""#),
      (#"{"id":1,"method":"a"}"#, 1, #"invalid request: missing required field "jsonrpc""#),
      (#"{"jsonrpc":"1.0","id":1,"method":"a"}"#, 1, #"invalid request: "jsonrpc" must be "2.0", got "1.0""#),
      (#"{"jsonrpc":2.0,"id":1,"method":"a"}"#, 1, #"invalid request: "jsonrpc" must be "2.0", got 2.0"#),
      (
        #"{"jsonrpc":"2.0","id":true,"method":"a"}"#, nil,
        #"invalid request: "id" must be an integer or string, got true"#
      ),
      (
        #"{"jsonrpc":"2.0","id":1.5,"method":"a"}"#, nil,
        #"invalid request: "id" must be an integer or string, got 1.5"#
      ),
      (
        #"{"jsonrpc":"2.0","id":null,"method":"a"}"#, nil,
        #"invalid request: "id" must be an integer or string, got null"#
      ),
      (#"{"jsonrpc":"2.0","id":1,"method":5}"#, 1, #"invalid request: "method" must be a string, got 5"#),
      (
        #"{"jsonrpc":"2.0","id":"q","method":"a","params":3}"#, "q",
        #"invalid request: "params" must be an object or array, got 3"#
      ),
      (#"{"jsonrpc":"2.0","id":1}"#, 1, #"invalid request: missing required field "method""#),
      (
        #"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}"#, 1,
        #"invalid request: response has both "result" and "error""#
      ),
      (#"{"jsonrpc":"2.0","result":1}"#, nil, #"invalid request: missing required field "id" in response"#),
      (
        #"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#, 1,
        #"invalid request: "error.code" must be an integer, got "x""#
      ),
      (
        #"{"jsonrpc":"2.0","id":1,"error":{"code":1}}"#, 1,
        #"invalid request: missing required field "error.message""#
      ),
      (
        #"{"jsonrpc":"2.0","id":1,"error":"boom"}"#, 1,
        #"invalid request: "error" must be an object, got "boom""#
      ),
    ]
    for (text, id, message) in cases {
      guard case .single(.failure(let invalid)) = decode(text) else {
        XCTFail("accepted: \(text)")
        continue
      }
      XCTAssertEqual(invalid.id, id, text)
      XCTAssertEqual(invalid.error.code, .invalidRequest, text)
      XCTAssertEqual(invalid.error.message, message, text)
    }
  }

  func testBatchesAndParseErrors() {
    XCTAssertEqual(decode("[]"), .unanswerable(.invalidRequest("empty batch")))
    guard case .unanswerable(let error) = decode("{\"jsonrpc\":") else { return XCTFail() }
    XCTAssertEqual(error.code, .parseError)
    XCTAssertEqual(error.message, "parse error: unexpected end of input at byte offset 11")
    guard
      case .batch(let members) = decode(
        #"[{"jsonrpc":"2.0","method":"n"},1,{"jsonrpc":"2.0","id":7,"method":"r"}]"#)
    else {
      return XCTFail()
    }
    XCTAssertEqual(members.count, 3)
    XCTAssertEqual(members[0], .success(.notification(Notification(method: "n"))))
    XCTAssertEqual(members[2], .success(.request(Request(id: 7, method: "r"))))
    guard case .failure(let invalid) = members[1] else { return XCTFail() }
    XCTAssertEqual(invalid.error.message, "invalid request: message must be an object, got 1")
  }

  func testErrorCodes() {
    let codes: [(ErrorCode, Int)] = [
      (.parseError, -32700), (.invalidRequest, -32600), (.methodNotFound, -32601), (.invalidParams, -32602),
      (.internalError, -32603), (.serverNotInitialized, -32002), (.requestCancelled, -32800),
      (.contentModified, -32801),
    ]
    for (code, raw) in codes { XCTAssertEqual(code.rawValue, raw) }
    XCTAssertEqual(ResponseError.methodNotFound("x/y").message, #"method not found: "x/y""#)
    XCTAssertEqual(ResponseError.requestCancelled(5).message, "request 5 cancelled")
    XCTAssertEqual(
      ResponseError.invalidParams("m", field: "a.b").jsonValue,
      ["code": -32602, "message": "invalid params: m", "data": ["field": "a.b"]])
    XCTAssertEqual(RequestID.string("a\"b").description, #""a\"b""#)
  }
}

final class ParamsTests: XCTestCase {
  let params = Params([
    "list": "inbox", "ifVersion": "abc", "count": 3, "ratio": 0.5, "flag": true, "none": nil, "whole": 2.0,
    "content": ["sections": [["id": "s"]]],
    "edits": [["op": "delete", "item": "a"], ["op": "move"], ["op": "x", "item": 7], 5],
    "ids": ["a", "b", 3], "appearance": "round",
  ])

  enum Appearance: String, CaseIterable { case plain, grouped }

  func message(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      guard let error = error as? ResponseError else { return "not a ResponseError: \(error)" }
      XCTAssertEqual(error.code, .invalidParams)
      return error.message
    }
  }

  func testAccessors() throws {
    XCTAssertEqual(try params.string("list"), "inbox")
    XCTAssertEqual(try params.int("count"), 3)
    XCTAssertEqual(try params.int("whole"), 2)
    XCTAssertEqual(try params.double("ratio"), 0.5)
    XCTAssertEqual(try params.double("count"), 3)
    XCTAssertEqual(try params.bool("flag"), true)
    XCTAssertNil(try params.optionalInt("missing"))
    XCTAssertNil(try params.optionalString("none"))
    XCTAssertEqual(try params.optionalInt("count"), 3)
    XCTAssertEqual(try params.object("content").objects("sections").first?.string("id"), "s")
    let edits = try Params(["edits": [["item": "a"], ["item": "b"]]]).objects("edits")
    XCTAssertEqual(try edits.map { try $0.string("item") }, ["a", "b"])
    XCTAssertEqual(try Params(["ids": ["a", "b"]]).strings("ids"), ["a", "b"])
    XCTAssertEqual(
      try Params(["appearance": "grouped"]).enumeration("appearance", as: Appearance.self), .grouped)
    XCTAssertEqual(try Params(nil).object().count, 0)
  }

  func testErrorsNameFieldAndValue() throws {
    let cases: [(String, () throws -> Void)] = [
      (#"invalid params: missing required field "name""#, { _ = try self.params.string("name") }),
      (
        #"invalid params: "ifVersion" must be an integer, got "abc""#,
        { _ = try self.params.optionalInt("ifVersion") }
      ),
      (#"invalid params: "ratio" must be an integer, got 0.5"#, { _ = try self.params.int("ratio") }),
      (#"invalid params: "none" must be a string, got null"#, { _ = try self.params.string("none") }),
      (#"invalid params: "list" must be an object, got "inbox""#, { _ = try self.params.object("list") }),
      (#"invalid params: "count" must be an array, got 3"#, { _ = try self.params.array("count") }),
      (#"invalid params: "flag" must be a number, got true"#, { _ = try self.params.double("flag") }),
      (#"invalid params: "list" must be a boolean, got "inbox""#, { _ = try self.params.bool("list") }),
      (#"invalid params: "edits[3]" must be an object, got 5"#, { _ = try self.params.objects("edits") }),
      (#"invalid params: "ids[2]" must be a string, got 3"#, { _ = try self.params.strings("ids") }),
      (
        #"invalid params: "content.sections[0].items" must be an array, got "x""#,
        {
          _ = try Params(["content": ["sections": [["items": "x"]]]]).object("content").objects("sections")[0]
            .array("items")
        }
      ),
      (
        #"invalid params: "edits[1].item" must be a string, got 7"#,
        {
          for edit in try Params(["edits": [["item": "a"], ["item": 7]]]).objects("edits") {
            _ = try edit.string("item")
          }
        }
      ),
      (
        #"invalid params: missing required field "edits[0].item""#,
        {
          _ = try Params(["edits": [["op": "x"]]]).objects("edits")[0].string("item")
        }
      ),
      (
        #"invalid params: "appearance" must be one of "plain", "grouped", got "round""#,
        {
          _ = try self.params.enumeration("appearance", as: Appearance.self)
        }
      ),
      (#"invalid params: params must be an object, got [1,2]"#, { _ = try Params([1, 2]).string("a") }),
    ]
    for (expected, body) in cases {
      XCTAssertEqual(message(body), expected)
    }
    do {
      _ = try Params(["edits": [["item": "a"], ["op": "move"]]]).objects("edits")[1].string("item")
      XCTFail("no error")
    } catch {
      XCTAssertEqual(error.data, ["field": "edits[1].item"])
    }
  }
}

final class ParamsDecodingTests: XCTestCase {
  struct Edit: Decodable, Equatable {
    var op: String
    var item: String
    var index: Int?
  }

  struct EditParams: Decodable, Equatable {
    var list: String
    var ifVersion: Int?
    var edits: [Edit]
  }

  func testDecodesAndNamesFieldPaths() throws {
    let good: JSONValue = [
      "list": "inbox", "edits": [["op": "delete", "item": "a"], ["op": "move", "item": "b", "index": 2]],
    ]
    XCTAssertEqual(
      try Params(good).decode(EditParams.self),
      EditParams(
        list: "inbox", ifVersion: nil,
        edits: [Edit(op: "delete", item: "a"), Edit(op: "move", item: "b", index: 2)]))
    let cases: [(JSONValue, String, String)] = [
      (["edits": []], #"invalid params: missing required field "list""#, "list"),
      (
        ["list": "l", "ifVersion": "abc", "edits": []],
        #"invalid params: "ifVersion" must be an integer, got "abc""#, "ifVersion"
      ),
      (
        ["list": "l", "edits": [["op": "x", "item": "a"], ["op": "y", "item": 7]]],
        #"invalid params: "edits[1].item" must be a string, got 7"#, "edits[1].item"
      ),
      (
        ["list": "l", "edits": [["op": "x"]]], #"invalid params: missing required field "edits[0].item""#,
        "edits[0].item"
      ),
      (["list": "l", "edits": "none"], #"invalid params: "edits" must be an array, got "none""#, "edits"),
    ]
    for (value, message, field) in cases {
      do {
        _ = try Params(value).decode(EditParams.self)
        XCTFail("decoded \(value)")
      } catch {
        XCTAssertEqual(error.message, message)
        XCTAssertEqual(error.data, ["field": .string(field)])
      }
    }
    // Nested views prefix their path.
    do {
      _ = try Params(["content": ["edit": ["op": 1]]]).object("content").object("edit").decode(Edit.self)
      XCTFail("decoded")
    } catch {
      XCTAssertEqual(error.message, #"invalid params: "content.edit.op" must be a string, got 1"#)
    }
  }
}
