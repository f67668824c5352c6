// Protocol/README.md's method tables and Protocol/protocol.json name the same params, and the schema refuses what the server refuses (in process).
import Foundation
import JSON
import XCTest

final class ReadmeSpecAgreementTests: XCTestCase {
  let spec = ProtocolSpec.shared

  /// Every README table row `` | `method` | `{a, b?, c: …}` … `` lists exactly the method's
  /// params in protocol.json, required ones without `?` (members given as alternatives,
  /// `before \| after`, count as optional).
  func testTheReadmeTablesListEachMethodsParams() throws {
    let readme = try String(
      contentsOf: ProtocolSpec.directory.appendingPathComponent("README.md"), encoding: .utf8)
    var checked = 0
    for line in readme.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let method = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      guard let schema = spec.methods[method]?["params"], let readmeParams = Self.params(in: line) else {
        continue
      }
      let resolved = resolve(schema)
      let properties = Set(resolved["properties"]?.objectValue?.map(\.key) ?? [])
      let required = Set(resolved["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
      XCTAssertEqual(Set(readmeParams.keys), properties, "\(method): README vs protocol.json params")
      XCTAssertEqual(
        Set(readmeParams.filter { !$0.value }.keys), required, "\(method): README vs protocol.json required")
      checked += 1
    }
    XCTAssertGreaterThan(checked, 30)
  }

  /// The params object of a table row: the first code span that starts with `{` in the cells
  /// after the method name, as name → optional.
  static func params(in line: Substring) -> [String: Bool]? {
    let spans = line.split(separator: "`", omittingEmptySubsequences: false)
    // spans[1] is the method name; code spans are the odd elements.
    guard spans.count > 3 else { return nil }
    let span = spans[3...].enumerated().first { $0.offset % 2 == 0 }?.element ?? ""
    guard span.hasPrefix("{") else { return nil }
    var depth = 0
    var inner = ""
    for character in span {
      if character == "{" || character == "[" { depth += 1 }
      if character == "}" || character == "]" { depth -= 1 }
      if depth == 0 { break }
      inner.append(character)
    }
    var members: [String] = []
    var current = ""
    depth = 0
    for character in inner.dropFirst() {
      if character == "{" || character == "[" { depth += 1 }
      if character == "}" || character == "]" { depth -= 1 }
      if character == ",", depth == 0 {
        members.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    members.append(current)
    var names: [String: Bool] = [:]
    for member in members.map({ $0.trimmingCharacters(in: .whitespaces) }) where !member.isEmpty {
      // `a \| b \| c` lists alternatives; `a: x \| y` is one member with a union type.
      let alternatives =
        member.contains(":")
        ? [member]
        : member.components(separatedBy: "\\|").map {
          $0.trimmingCharacters(in: .whitespaces)
        }
      for alternative in alternatives {
        let name = String(alternative.prefix { $0.isLetter || $0.isNumber || $0 == "$" })
        guard !name.isEmpty else { continue }
        names[name] = alternatives.count > 1 || alternative.dropFirst(name.count).hasPrefix("?")
      }
    }
    return names
  }

  private func resolve(_ schema: JSONValue) -> JSONValue {
    guard let ref = schema["$ref"]?.stringValue, ref.hasPrefix("#/$defs/") else { return schema }
    return spec.document["$defs"]?[String(ref.dropFirst("#/$defs/".count))] ?? schema
  }

  /// A content item takes exactly its documented fields: the schema refuses an unknown member,
  /// as the daemon does (-32602 naming it).
  func testContentItemsRefuseUnknownMembersInTheSchemaAndTheDaemon() throws {
    let full: JSONValue = [
      "id": "a", "text": "A", "secondaryText": "s", "image": "star", "data": ["k": 1],
      "accessories": [["type": "checkmark"]], "leadingSwipeActions": [["id": "p", "title": "P"]],
      "trailingSwipeActions": [["id": "d", "title": "D", "style": "destructive"]],
      "contextMenuActions": [["id": "c", "title": "C"]], "selectable": false, "movable": true,
      "expanded": true, "children": [["id": "b"]],
    ]
    let good: JSONValue = ["list": "l", "content": ["sections": [["id": "s", "items": [full]]]]]
    XCTAssertEqual(spec.checkParams("list/create", good), [])
    let bad: JSONValue = [
      "list": "m", "content": ["sections": [["id": "s", "items": [["id": "a", "bogus": 1]]]]],
    ]
    XCTAssertFalse(spec.checkParams("list/create", bad).isEmpty)
    let nested: JSONValue = [
      "list": "m",
      "content": [
        "sections": [["id": "s", "items": [["id": "a", "children": [["id": "b", "bogus": 1]]]]]]
      ],
    ]
    XCTAssertFalse(spec.checkParams("list/create", nested).isEmpty)
    XCTAssertFalse(
      spec.checkParams(
        "list/create",
        ["list": "m", "content": ["sections": [["id": "s", "items": [["id": "a", "text": 5]]]]]]
      ).isEmpty)

    let client = try TestClient.inProcess()
    defer { client.close() }
    try client.initialize()
    try client.request("list/create", good)
    let error = client.error("list/create", bad)
    XCTAssertEqual(error.code, .invalidParams)
    XCTAssertEqual(error.data?["field"], "content.sections[0].items[0].bogus")
  }
}
