// Tests of typed params access and Decodable params: values, and errors naming field path and value.
import JSONRPC
import XCTest

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
