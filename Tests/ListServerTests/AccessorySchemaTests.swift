// The accessory schema of Protocol/protocol.json and the daemon's decoder accept and refuse the same accessories.
import JSON
import JSONRPC
import XCTest

final class AccessorySchemaTests: XCTestCase {
  /// Every type with exactly its own fields.
  static let valid: [JSONValue] = [
    ["type": "disclosureIndicator"], ["type": "checkmark"], ["type": "delete"], ["type": "reorder"],
    ["type": "outlineDisclosure"], ["type": "detail"], ["type": "multiselect"], ["type": "activityIndicator"],
    ["type": "label", "text": "L"], ["type": "badge", "text": "3"], ["type": "image", "name": "star"],
    ["type": "progress", "value": 0.5], ["type": "toggle", "isOn": true],
    ["type": "popUpMenu", "actions": [["id": "x", "title": "X", "style": "destructive"]]],
    ["type": "custom", "name": "spinner"],
    ["type": "delete", "placement": "trailing", "displayed": "always"],
    ["type": "label", "text": "L", "placement": "leading", "displayed": "whenNotEditing"],
    [
      "type": "popUpMenu",
      "actions": [
        [
          "id": "m", "title": "More", "image": "ellipsis",
          "children": [["id": "y", "title": "Y", "checked": true]],
        ]
      ],
    ],
  ]

  /// A field of another type, a missing or mistyped field, a value out of range, an unknown type.
  static let invalid: [JSONValue] = [
    ["type": "checkmark", "text": "x"], ["type": "activityIndicator", "isOn": true], ["type": "label"],
    ["type": "label", "name": "x"], ["type": "badge", "text": 5], ["type": "image", "text": "x"],
    ["type": "progress", "value": 2], ["type": "progress", "value": 0.5, "text": "x"], ["type": "toggle"],
    ["type": "toggle", "isOn": "yes"], ["type": "popUpMenu"],
    ["type": "popUpMenu", "actions": [["id": "x"]]],
    ["type": "custom", "text": "x"], ["type": "bogus"], ["text": "x"],
    ["type": "checkmark", "placement": "left"], ["type": "checkmark", "displayed": "sometimes"],
    ["type": "popUpMenu", "actions": [["id": "m", "title": "M", "children": []]]],
  ]

  private func schemaProblems(_ accessory: JSONValue) -> [String] {
    SchemaValidator(root: ProtocolSpec.shared.document).validate(
      accessory, against: ["$ref": "#/$defs/Accessory"], path: "accessory")
  }

  func testTheSchemaGivesEachTypeItsOwnFields() {
    for accessory in Self.valid {
      XCTAssertEqual(schemaProblems(accessory), [], "\(accessory)")
    }
    for accessory in Self.invalid {
      XCTAssertFalse(schemaProblems(accessory).isEmpty, "the schema accepts \(accessory)")
    }
    // A mismatch says what to fix.
    let problems = schemaProblems(["type": "checkmark", "text": "x"]).joined()
    XCTAssertTrue(problems.contains("unexpected member \"text\""), problems)
  }

  /// The daemon accepts exactly what the schema accepts, and answers it back unchanged.
  func testTheDecoderAgreesWithTheSchema() throws {
    let client = try TestClient.inProcess()
    try client.initialize()
    for (index, accessory) in (Self.valid + Self.invalid).enumerated() {
      let list = JSONValue.string("l\(index)")
      let item: JSONValue = ["id": "a", "accessories": [accessory]]
      let params: JSONValue = [
        "list": list, "rows": "all", "content": ["sections": [["id": "s", "items": [item]]]],
      ]
      let schemaAccepts = schemaProblems(accessory).isEmpty
      do {
        let answer = try client.request("list/create", params)
        XCTAssertTrue(schemaAccepts, "the daemon accepts \(accessory), the schema does not")
        let row = answer["changeset"]?["sectionInserts"]?[0]?["section"]?["rows"]?[0]
        XCTAssertEqual(row?["accessories"], [accessory])
      } catch let error as ResponseError {
        XCTAssertFalse(schemaAccepts, "the schema accepts \(accessory), the daemon does not: \(error)")
        XCTAssertEqual(error.code, .invalidParams, "\(accessory)")
        let field = error.data?["field"]?.stringValue ?? ""
        XCTAssertTrue(
          field.hasPrefix("content.sections[0].items[0].accessories[0]"), "\(accessory): \(field)")
      }
    }
    client.close()
  }
}
