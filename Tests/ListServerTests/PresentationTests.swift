// Presentation against an in-process server: header modes, separators, accessory placement and menus.
import JSON
import JSONRPC
import XCTest

final class PresentationTests: InProcessServerTestCase {
  private func rows(_ list: String = "p") throws -> [JSONValue] {
    try client.request("query/items", ["list": .string(list), "section": "s"])["rows"]?.arrayValue ?? []
  }

  /// Defaults are omitted from rows: an accessory's placement and displayed state when they are
  /// its type's UIKit default (delete leading and whenEditing, checkmark trailing and always),
  /// `automatic` separators, `supplementary` header mode; other values come back as given.
  func testPresentationFieldsRoundTripWithDefaultsOmitted() throws {
    try client.request(
      "list/create",
      [
        "list": "p",
        "content": [
          "sections": [
            [
              "id": "s", "header": "S", "headerMode": "firstItemInSection",
              "items": [
                [
                  "id": "a", "topSeparator": "hidden", "bottomSeparator": "automatic",
                  "accessories": [
                    ["type": "delete", "placement": "leading", "displayed": "whenEditing"],
                    ["type": "checkmark", "placement": "leading", "displayed": "whenNotEditing"],
                  ],
                  "contextMenuActions": [
                    ["id": "copy", "title": "Copy", "image": "doc.on.doc"],
                    [
                      "id": "sort", "title": "Sort by",
                      "children": [
                        ["id": "name", "title": "Name", "checked": true],
                        ["id": "date", "title": "Date", "disabled": true],
                      ],
                    ],
                  ],
                ]
              ],
            ]
          ]
        ],
      ])
    let row = try XCTUnwrap(try rows().first)
    XCTAssertEqual(row["topSeparator"], "hidden")
    XCTAssertNil(row["bottomSeparator"])
    XCTAssertEqual(
      row["accessories"],
      [["type": "delete"], ["type": "checkmark", "placement": "leading", "displayed": "whenNotEditing"]])
    XCTAssertEqual(
      row["contextMenuActions"]?[1]?["children"]?[0], ["id": "name", "title": "Name", "checked": true])
    XCTAssertEqual(row["contextMenuActions"]?[0]?["image"], "doc.on.doc")
    let sections = try client.request("query/sections", ["list": "p"])["sections"]
    XCTAssertEqual(sections?[0]?["headerMode"], "firstItemInSection")

    // A change of placement is a reconfigure; of header mode a section reload.
    let moved = try client.request(
      "list/edit",
      [
        "list": "p",
        "edits": [
          [
            "op": "patchItems",
            "items": [["id": "a", "accessories": [["type": "delete", "placement": "trailing"]]]],
          ],
          ["op": "updateSection", "section": "s", "headerMode": "none"],
        ],
      ])["changeset"]
    XCTAssertEqual(
      moved?["itemReconfigures"]?[0]?["rows"]?[0]?["accessories"],
      [["type": "delete", "placement": "trailing"]])
    XCTAssertEqual(moved?["sectionReloads"], [["id": "s", "header": "S", "headerMode": "none", "index": 0]])

    // event/action: an action of a submenu can be triggered; the submenu and a disabled action cannot.
    _ = try client.request("event/action", ["list": "p", "item": "a", "action": "name"])
    for action in ["sort", "date"] {
      let refused = client.error("event/action", ["list": "p", "item": "a", "action": .string(action)])
      XCTAssertEqual(refused.code, .invalidParams, action)
    }
  }

  /// `updateSection {headerMode: null}` sets the mode back to `supplementary` (a section reload
  /// that omits it), as `kind: null` clears the kind; leaving it out keeps it.
  func testNullHeaderModeClearsItBackToSupplementary() throws {
    try client.request(
      "list/create",
      ["list": "p", "content": ["sections": [["id": "s", "kind": "k", "headerMode": "none"]]]])
    let kept = try client.request(
      "list/edit", ["list": "p", "edits": [["op": "updateSection", "section": "s", "header": "S"]]])
    XCTAssertEqual(
      kept["changeset"]?["sectionReloads"],
      [["id": "s", "header": "S", "kind": "k", "headerMode": "none", "index": 0]])
    let cleared = try client.request(
      "list/edit",
      ["list": "p", "edits": [["op": "updateSection", "section": "s", "kind": .null, "headerMode": .null]]])
    XCTAssertEqual(cleared["version"], 2)
    XCTAssertEqual(cleared["changeset"]?["sectionReloads"], [["id": "s", "header": "S", "index": 0]])
    let sections = try client.request("query/sections", ["list": "p"])["sections"]
    XCTAssertNil(sections?[0]?["headerMode"])
    XCTAssertNil(sections?[0]?["kind"])
    // Cleared twice: nothing changes.
    let again = try client.request(
      "list/edit", ["list": "p", "edits": [["op": "updateSection", "section": "s", "headerMode": .null]]])
    XCTAssertEqual(again["version"], 2)
  }

  /// An explicit `supplementary` header mode is the default itself: never echoed, `null` in
  /// content means the same, and setting either on a default section makes no version.
  func testExplicitSupplementaryHeaderModeIsTheDefault() throws {
    try client.request(
      "list/create",
      [
        "list": "p",
        "content": [
          "sections": [["id": "s", "headerMode": "supplementary"], ["id": "t", "headerMode": .null]]
        ],
      ])
    let appended = try client.request(
      "list/edit",
      [
        "list": "p", "rows": "all",
        "edits": [["op": "appendSections", "sections": [["id": "u", "headerMode": "supplementary"]]]],
      ])
    XCTAssertEqual(
      appended["changeset"]?["sectionInserts"], [["index": 2, "section": ["id": "u", "rows": []]]])
    let sections = try client.request("query/sections", ["list": "p"])["sections"]
    XCTAssertEqual(
      sections,
      [
        ["id": "s", "index": 0, "items": 0, "rows": 0], ["id": "t", "index": 1, "items": 0, "rows": 0],
        ["id": "u", "index": 2, "items": 0, "rows": 0],
      ])
    for mode: JSONValue in ["supplementary", .null] {
      let same = try client.request(
        "list/edit", ["list": "p", "edits": [["op": "updateSection", "section": "s", "headerMode": mode]]])
      XCTAssertEqual(same["version"], 1, "\(mode)")
      XCTAssertEqual(same["changeset"], [:], "\(mode)")
    }
  }

  /// Bad presentation values are -32602 naming the field and the value.
  func testBadPresentationValuesNameTheField() throws {
    try client.request("list/create", ["list": "p", "content": ["sections": [["id": "s"]]]])
    let cases: [(JSONValue, String, String)] = [
      (["id": "x", "topSeparator": "dotted"], "edits[0].items[0].topSeparator", "dotted"),
      (
        ["id": "x", "accessories": [["type": "checkmark", "placement": "left"]]],
        "edits[0].items[0].accessories[0].placement", "left"
      ),
      (
        ["id": "x", "accessories": [["type": "reorder", "displayed": "sometimes"]]],
        "edits[0].items[0].accessories[0].displayed", "sometimes"
      ),
      (
        ["id": "x", "contextMenuActions": [["id": "m", "title": "M", "children": []]]],
        "edits[0].items[0].contextMenuActions[0].children", "empty"
      ),
      (
        ["id": "x", "contextMenuActions": [["id": "m", "title": "M", "disabled": "no"]]],
        "edits[0].items[0].contextMenuActions[0].disabled", "no"
      ),
      (
        [
          "id": "x",
          "trailingSwipeActions": [["id": "m", "title": "M", "children": [["id": "c", "title": "C"]]]],
        ],
        "edits[0].items[0].trailingSwipeActions[0].children", "children"
      ),
    ]
    for (item, field, value) in cases {
      let error = client.error(
        "list/edit", ["list": "p", "edits": [["op": "appendItems", "items": [item]]]])
      XCTAssertEqual(error.code, .invalidParams, "\(item)")
      XCTAssertEqual(error.data?["field"], .string(field), "\(item): \(error.message)")
      XCTAssertTrue(error.message.contains(value), "\(item): \(error.message)")
    }
    let mode = client.error(
      "list/edit", ["list": "p", "edits": [["op": "updateSection", "section": "s", "headerMode": "top"]]])
    XCTAssertEqual(mode.data?["field"], "edits[0].headerMode")
    XCTAssertTrue(mode.message.contains("top"), mode.message)
  }
}
