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
    XCTAssertEqual(
      error.message, "parse error: unexpected end of input at line 1, column 12 (byte offset 11)")
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
