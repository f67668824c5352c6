// Columns, cells and kinds (Protocol/README.md §3 "Columns and kinds"), against an in-process server.
import JSON
import JSONRPC
import XCTest

final class ColumnsAndKindsTests: InProcessServerTestCase {
  private let columns: JSONValue = [
    ["id": "name", "title": "Name"],
    ["id": "size", "title": "Size", "alignment": "trailing", "width": 8.0, "sortable": true],
  ]

  @discardableResult
  private func edit(_ edits: JSONValue, list: String = "t") throws -> JSONValue? {
    try client.request("list/edit", ["list": .string(list), "edits": edits])["changeset"]
  }

  private func createTable() throws {
    try client.request(
      "list/create",
      [
        "list": "t", "columns": columns,
        "content": [
          "sections": [
            [
              "id": "files", "kind": "folderSection",
              "items": [
                ["id": "a", "text": "a.txt", "kind": "file", "cells": ["name": "a.txt", "size": 1024]],
                ["id": "b", "text": "b", "kind": "folder", "cells": ["name": "b", "size": nil]],
              ],
            ]
          ]
        ],
      ])
  }

  /// Columns come back from `list/info` and snapshots; rows carry `cells` (an integral number
  /// as an integer) and `kind`; sections their `kind`.
  func testColumnsCellsAndKindsRoundTrip() throws {
    try createTable()
    let info = try client.request("list/info", ["list": "t"])
    XCTAssertEqual(info["columns"], columns)
    let subscribed = try client.request("list/subscribe", ["list": "t"])
    XCTAssertEqual(subscribed["lists"]?[0]?["snapshot"]?["columns"], columns)
    let rows = try client.request("query/items", ["list": "t", "section": "files"])["rows"]
    XCTAssertEqual(rows?[0]?["cells"], ["name": "a.txt", "size": 1024])
    XCTAssertEqual(rows?[0]?["kind"], "file")
    XCTAssertEqual(rows?[1]?["cells"], ["name": "b", "size": nil])
    let sections = try client.request("query/sections", ["list": "t"])["sections"]
    XCTAssertEqual(sections?[0]?["kind"], "folderSection")
    // query/content then list/create makes an equal list, columns included.
    let content = try client.request("query/content", ["list": "t"])
    XCTAssertEqual(content["columns"], columns)
  }

  /// A change of cells is a reconfigure; a change of kind is a reload, even when the edit asks
  /// for a reconfigure, and even when the cells change too.
  func testKindChangeIsAReloadCellChangeAReconfigure() throws {
    try createTable()
    let cells = try edit([["op": "patchItems", "items": [["id": "a", "cells": ["size": 2048]]]]])
    XCTAssertEqual(cells?["itemReconfigures"]?[0]?["rows"]?[0]?["cells"], ["name": "a.txt", "size": 2048])
    XCTAssertNil(cells?["itemReloads"])
    let kind = try edit([
      ["op": "patchItems", "items": [["id": "a", "kind": "image", "cells": ["size": 1]]]],
      ["op": "reconfigureItems", "items": ["a"]],
    ])
    XCTAssertEqual(kind?["itemReloads"]?[0]?["at"], [0, 0])
    XCTAssertEqual(kind?["itemReloads"]?[0]?["rows"]?[0]?["kind"], "image")
    XCTAssertNil(kind?["itemReconfigures"])
    // A kind change of a moved item: a delete plus an insert, never a move (b, which stays,
    // is the one reloaded in place).
    try edit([["op": "appendItems", "items": [["id": "c"]]]])
    let moved = try edit([
      ["op": "patchItems", "items": [["id": "a", "kind": nil]]],
      ["op": "moveItem", "item": "a", "after": "c"],
    ])
    XCTAssertNil(moved?["itemMoves"])
    XCTAssertEqual(moved?["itemDeletes"], [[0, 0, 1]])
    XCTAssertEqual(moved?["itemInserts"]?[0]?["at"], [0, 2])
    // A section's kind change is a section reload.
    let section = try edit([["op": "updateSection", "section": "files", "kind": "plain"]])
    XCTAssertEqual(section?["sectionReloads"], [["id": "files", "kind": "plain", "index": 0]])
  }

  /// `setColumns` is part of the changeset; a cell naming an unknown column is -32602 naming the
  /// field, the item and the column — in content, edits and patches; removing a column cells
  /// still use fails the same way, until those cells are patched away in the same batch.
  func testColumnsChangesAndUnknownColumns() throws {
    try createTable()
    let added: JSONValue = [["id": "name", "title": "Name"], ["id": "kind", "title": "Kind"]]
    let refused = client.error(
      "list/edit", ["list": "t", "edits": [["op": "setColumns", "columns": added]]])
    XCTAssertEqual(refused.code, .invalidParams)
    XCTAssertEqual(refused.data?["field"], "cells.size")
    XCTAssertEqual(refused.data?["item"], "a")
    XCTAssertEqual(refused.data?["column"], "size")
    let changeset = try edit([
      [
        "op": "patchItems",
        "items": [["id": "a", "cells": ["size": nil]], ["id": "b", "cells": ["size": nil]]],
      ],
      ["op": "setColumns", "columns": added],
    ])
    XCTAssertEqual(changeset?["columns"], added)
    XCTAssertEqual(try client.request("list/info", ["list": "t"])["columns"], added)

    let unknown = client.error(
      "list/edit",
      ["list": "t", "edits": [["op": "appendItems", "items": [["id": "c", "cells": ["date": "today"]]]]]])
    XCTAssertEqual(unknown.code, .invalidParams)
    XCTAssertEqual(unknown.data?["field"], "cells.date")
    XCTAssertEqual(unknown.data?["editIndex"], 0)
    XCTAssertTrue(unknown.message.contains("'date'"), unknown.message)
    let inContent = client.error(
      "list/create",
      ["list": "u", "content": ["sections": [["id": "s", "items": [["id": "x", "cells": ["n": 1]]]]]]])
    XCTAssertEqual(inContent.code, .invalidParams)
    XCTAssertEqual(inContent.data?["field"], "cells.n")
    let badValue = client.error(
      "list/edit",
      ["list": "t", "edits": [["op": "patchItems", "items": [["id": "a", "cells": ["name": [1]]]]]]])
    XCTAssertEqual(badValue.code, .invalidParams)
    XCTAssertEqual(badValue.data?["field"], "edits[0].items[0].cells.name")
    let duplicate = client.error(
      "list/create", ["list": "v", "columns": [["id": "x", "title": "X"], ["id": "x", "title": "Y"]]])
    XCTAssertEqual(duplicate.code, .invalidParams)
    XCTAssertEqual(duplicate.data?["field"], "columns[1].id")
    let width = client.error(
      "list/create", ["list": "v", "columns": [["id": "x", "title": "X", "width": -1]]])
    XCTAssertEqual(width.data?["field"], "columns[0].width")
    let alignment = client.error(
      "list/create", ["list": "v", "columns": [["id": "x", "title": "X", "alignment": "left"]]])
    XCTAssertEqual(alignment.data?["field"], "columns[0].alignment")
    XCTAssertTrue(alignment.message.contains("left"), alignment.message)
  }
}
