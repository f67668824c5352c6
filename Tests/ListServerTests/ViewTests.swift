// Live views against an in-process server: a view follows random source edits over the wire, refuses edits, forwards events, goes with its source.
import Foundation
import JSON
import JSONRPC
import ListClient
import ListModel
import SeededRandom
import XCTest

final class ViewTests: InProcessServerTestCase {
  static let words = ["apple", "Äpfel", "banana", "Bär", "cherry", "éclair", "Eclair", "date", "Zebra"]

  static func item(_ id: String, _ random: inout SplitMix64) -> JSONValue {
    [
      "id": .string(id), "text": .string(random.element(words)!),
      "data": ["n": .int(Int64(random.int(0..<10)))],
    ]
  }

  /// The view's expected sections from the source's snapshot on the wire: rows with n ≥ 3,
  /// grouped by initial, sorted by text, ties in source order.
  static func expected(_ source: JSONValue, _ definition: ViewDefinition) -> [[String]] {
    var members: [(id: String, order: Int, key: [ViewValue], group: ViewValue)] = []
    for section in source["snapshot"]?["sections"]?.arrayValue ?? [] {
      for row in section["rows"]?.arrayValue ?? [] {
        let id = row["id"]?.stringValue ?? ""
        let payload = ItemPayload(content: ItemContent(text: row["text"]?.stringValue, data: row["data"]))
        guard definition.includes(id: id, payload: payload) else { continue }
        members.append(
          (
            id, members.count, definition.sortValues(id: id, payload: payload),
            definition.group?.key(id: id, payload: payload) ?? .null
          ))
      }
    }
    members.sort { a, b in
      let g = definition.compareGroups(a.group, b.group)
      if g != 0 { return g < 0 }
      let k = definition.compareSortValues(a.key, b.key)
      return k != 0 ? k < 0 : a.order < b.order
    }
    var sections: [[String]] = []
    var last: ViewValue?
    for member in members {
      if last == member.group, !sections.isEmpty {
        sections[sections.count - 1].append(member.id)
      } else {
        sections.append([member.id])
      }
      last = member.group
    }
    return sections
  }

  func testAViewFollowsRandomSourceEditsOverTheWire() throws {
    let seed = PropertySeeds.seed("LISTD_VIEW_WIRE_SEED", default: 16)
    var random = SplitMix64(seed: seed)
    var next = 0
    func fresh() -> String {
      next += 1
      return "i\(next)"
    }
    let sections: [JSONValue] = ["a", "b"].map { section in
      ["id": .string(section), "items": .array((0..<30).map { _ in Self.item(fresh(), &random) })]
    }
    try client.request("list/create", ["list": "src", "content": ["sections": .array(sections)]])
    try client.request(
      "view/create",
      [
        "view": "v", "source": "src", "filter": ["predicates": [["field": "data.n", "op": "≥", "value": 3]]],
        "sort": [["field": "text"]], "group": ["field": "text", "by": "initial"],
      ])
    let definition = ViewDefinition(
      filter: ViewFilter(predicates: [
        FieldPredicate(field: .data(["n"]), op: .greaterOrEqual, value: .number(3))
      ]),
      sort: [SortKey(field: .text)], group: ViewGrouping(field: .text, byInitial: true))
    let subscribed = try client.request("list/subscribe", ["list": "v"])
    var mirror = try WireMirror(subscribed: try XCTUnwrap(subscribed["lists"]?.arrayValue?.first))
    var ids = (1...next).map { "i\($0)" }
    for step in 0..<150 {
      var edit: JSONValue
      switch random.int(0..<10) {
      case 0..<5:
        let id = random.element(ids)!
        edit = ["op": "patchItems", "items": [Self.item(id, &random)]]
      case 5..<7:
        let id = fresh()
        ids.append(id)
        edit = [
          "op": "appendItems", "section": .string(random.element(["a", "b"])!),
          "items": [Self.item(id, &random)],
        ]
      case 7..<9:
        guard ids.count > 5 else { continue }
        let id = ids.remove(at: random.int(0..<ids.count))
        edit = ["op": "deleteItems", "items": [.string(id)]]
      default:
        edit = [
          "op": "moveItem", "item": .string(random.element(ids)!),
          "section": .string(random.element(["a", "b"])!),
        ]
      }
      do {
        try client.request("list/edit", ["list": "src", "edits": [edit]])
      } catch {
        XCTFail("seed \(seed) step \(step): \(edit): \(error)")
        return
      }
    }
    let version = try XCTUnwrap(try client.request("view/info", ["view": "v"])["version"]?.intValue)
    while mirror.version < Int(version) {
      let change = try XCTUnwrap(
        client.next("list/didChange") { $0["list"] == "v" }, "seed \(seed): a didChange of v")
      try mirror.apply(didChange: change)
    }
    let now = try client.request("list/subscribe", ["list": "v"])
    let daemonView = try WireMirror(subscribed: try XCTUnwrap(now["lists"]?.arrayValue?.first))
    XCTAssertNil(mirror.firstDifference(from: daemonView), "seed \(seed): the mirror of v's changesets")
    let source = try client.request("list/subscribe", ["list": "src"])
    let expected = Self.expected(try XCTUnwrap(source["lists"]?.arrayValue?.first), definition)
    XCTAssertEqual(
      daemonView.sections.map { $0.rows.map { $0["id"]?.stringValue ?? "" } }, expected, "seed \(seed)")
    XCTAssertGreaterThan(expected.count, 1)
    client.assertConformance()
  }

  func testAViewRefusesEditsForwardsEventsAndGoesWithItsSource() throws {
    try client.request(
      "list/create",
      [
        "list": "src",
        "content": [
          "sections": [["id": "s", "items": [["id": "x", "text": "X"], ["id": "y", "text": "Y"]]]]
        ],
      ])
    try client.request("view/create", ["view": "v", "source": "src", "filter": ["query": "x"]])
    let refused = client.error("list/edit", ["list": "v", "edits": [["op": "deleteItems", "items": ["x"]]]])
    XCTAssertEqual(refused.code, -32014)
    XCTAssertTrue(refused.message.contains("'v' is a view of 'src'"), refused.message)
    XCTAssertEqual(refused.data?["view"], "v")
    XCTAssertEqual(client.error("list/replace", ["list": "v", "content": ["sections": []]]).code, -32014)
    try client.request("event/select", ["list": "v", "item": "x"])
    let event = try XCTUnwrap(client.next("owner/event"))
    XCTAssertEqual(event["list"], "src")
    XCTAssertEqual(event["view"], "v")
    XCTAssertEqual(event["item"], "x")
    XCTAssertEqual(client.error("event/select", ["list": "v", "item": "y"]).code, -32012)  // not in the view
    let bad = client.error(
      "view/update", ["view": "v", "filter": ["predicates": [["field": "text", "op": "~", "value": 1]]]])
    XCTAssertEqual(bad.code, -32602)
    XCTAssertTrue(bad.message.contains("\"~\""), bad.message)
    XCTAssertEqual(client.error("view/update", ["view": "src"]).code, -32010)
    try client.request("view/create", ["view": "vv", "source": "v"])  // a view of a view
    try client.request("list/dispose", ["list": "src"])
    XCTAssertEqual(client.error("list/info", ["list": "v"]).code, -32010)
    XCTAssertEqual(client.error("list/info", ["list": "vv"]).code, -32010)
    client.assertConformance()
  }

  /// A cell field (`cells.X` or a bare `X`) that is not a column of the source is refused by
  /// view/create and view/update, naming the field's path and the name; columns and built-in
  /// fields pass, and nothing is made by a refused create.
  func testACellFieldThatIsNotAColumnIsRefused() throws {
    try client.request(
      "list/create",
      [
        "list": "t", "columns": [["id": "cpu", "title": "CPU %"]],
        "content": ["sections": [["id": "s", "items": [["id": "x", "text": "X", "cells": ["cpu": 2]]]]]],
      ])
    let sort = client.error("view/create", ["view": "v", "source": "t", "sort": [["field": "nonsense"]]])
    XCTAssertEqual(sort.code, -32602)
    XCTAssertEqual(sort.data?["field"], "sort[0].field")
    XCTAssertEqual(sort.data?["value"], "nonsense")
    XCTAssertTrue(
      sort.message.contains("\"sort[0].field\"") && sort.message.contains("nonsense"), sort.message)
    let filter = client.error(
      "view/create",
      [
        "view": "v", "source": "t",
        "filter": [
          "predicates": [
            ["field": "cpu", "op": ">", "value": 1], ["field": "cells.CPU", "op": ">", "value": 1],
          ]
        ],
      ])
    XCTAssertEqual(filter.data?["field"], "filter.predicates[1].field")
    XCTAssertTrue(filter.message.contains("cells.CPU"), filter.message)
    XCTAssertEqual(client.error("list/info", ["list": "v"]).code, -32010)
    try client.request(
      "view/create",
      ["view": "v", "source": "t", "sort": [["field": "cells.cpu"], ["field": "text"], ["field": "data.a"]]])
    let group = client.error("view/update", ["view": "v", "group": ["field": "memory"]])
    XCTAssertEqual(group.code, -32602)
    XCTAssertEqual(group.data?["field"], "group.field")
    // A list without columns has no cells: any cell field names nothing.
    try client.request("list/create", ["list": "plain"])
    XCTAssertEqual(
      client.error("view/create", ["view": "w", "source": "plain", "sort": [["field": "size"]]]).code, -32602)
    client.assertConformance()
  }

  /// A view of a list whose selection mode is none can be redefined (its rebuild selects nothing).
  func testAViewOfAListWithoutSelectionCanBeUpdated() throws {
    try client.request(
      "list/create",
      [
        "list": "src", "selectionMode": "none",
        "content": [
          "sections": [["id": "s", "items": [["id": "x", "text": "B"], ["id": "y", "text": "A"]]]]
        ],
      ])
    try client.request("view/create", ["view": "v", "source": "src"])
    let updated = try client.request("view/update", ["view": "v", "sort": [["field": "text"]]])
    XCTAssertEqual(updated["version"], 1, "\(updated)")
    XCTAssertEqual(
      try client.request("view/info", ["view": "v"])["sort"]?.arrayValue?.first?["field"], "text")
    client.assertConformance()
  }

  /// A view whose text filter matches nothing reports the search empty state, in its info and in
  /// the changesets that start and end it (as `ContentUnavailableView.search`).
  func testAViewWhoseQueryMatchesNothingReportsTheSearchEmptyState() throws {
    try client.request(
      "list/create",
      ["list": "src", "content": ["sections": [["id": "s", "items": [["id": "x", "text": "Apple"]]]]]])
    let created = try client.request(
      "view/create", ["view": "v", "source": "src", "filter": ["query": "zzz"]])
    XCTAssertEqual(created["changeset"]?["emptyState"]?["kind"], "search", "\(created)")
    let info = try client.request("list/info", ["list": "v"])
    XCTAssertEqual(info["emptyState"]?["query"], "zzz")
    XCTAssertEqual(info["source"], "src")  // a view says what it derives from
    XCTAssertNil(try client.request("list/info", ["list": "src"])["source"])
    try client.request("list/subscribe", ["list": "v", "snapshot": "none"])
    try client.request(
      "list/edit",
      [
        "list": "src",
        "edits": [["op": "appendItems", "section": "s", "items": [["id": "z", "text": "zzz"]]]],
      ])
    let found = try XCTUnwrap(client.next("list/didChange"))
    XCTAssertEqual(found["changeset"]?["emptyState"], .null, "\(found)")
    XCTAssertNil(try client.request("list/info", ["list": "v"])["emptyState"])
    try client.request("view/update", ["view": "v", "filter": ["query": "nothing"]])
    let none = try XCTUnwrap(client.next("list/didChange"))
    XCTAssertEqual(none["changeset"]?["emptyState"]?["title"], "No Results for “nothing”", "\(none)")
    client.assertConformance()
  }
}
