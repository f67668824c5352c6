// list/replace over near-equal content through the server: each single-field change is one reconfigure, respellings are no change.
import Foundation
import JSON
import JSONRPC
import SeededRandom
import XCTest

/// A list of payload-rich items is replaced, over a seeded run, by content that differs from
/// it in one field of one item (a new version reconfiguring or reloading exactly that row),
/// and by content that only reorders object members or writes integral numbers of `data` as
/// `1.0` (no version, `{}`), with the equal content in between (no version).
///
/// `LISTD_NEAR_EQUAL_SEED=n` replays a run.
final class NearEqualReplaceTests: InProcessServerTestCase {
  func testReplacingWithNearEqualContentReportsExactlyTheChangedRow() throws {
    let seed = ProcessInfo.processInfo.environment["LISTD_NEAR_EQUAL_SEED"].flatMap(UInt64.init) ?? 2_027
    print("NearEqualReplaceTests: seed \(seed) (LISTD_NEAR_EQUAL_SEED=\(seed) replays it)")
    var random = SplitMix64(seed: seed)
    let sections = (0..<3).map { s in (id: "s\(s)", items: (0..<8).map { Self.item(s * 8 + $0, &random) }) }
    func content(_ sections: [(id: String, items: [JSONValue])]) -> JSONValue {
      ["sections": .array(sections.map { ["id": .string($0.id), "items": .array($0.items)] })]
    }
    let created = try client.request(
      "list/create",
      ["list": "l", "columns": [["id": "size", "title": "Size"]], "content": content(sections)])
    var version = created["version"]?.intValue ?? -1
    func replace(_ sent: JSONValue) throws -> JSONValue {
      try client.request("list/replace", ["list": "l", "content": sent])
    }
    for round in 0..<Self.fields.count {
      let s = random.int(0..<sections.count)
      let i = random.int(0..<sections[s].items.count)
      let field = Self.fields[round % Self.fields.count]
      var changed = sections
      changed[s].items[i] = Self.changing(field, of: sections[s].items[i], &random)
      let label = "seed \(seed), round \(round): \(field) of \(changed[s].items[i])"
      // One field of one item: a new version whose changeset touches that row alone.
      let answer = try replace(content(changed))
      XCTAssertEqual(answer["version"]?.intValue, version + 1, label)
      version += 1
      let changeset = answer["changeset"] ?? [:]
      let key = field == "kind" ? "itemReloads" : "itemReconfigures"
      XCTAssertEqual(changeset.objectValue?.keys.sorted(), [key], label)
      XCTAssertEqual(changeset[key]?[0]?["at"], [.int(Int64(s)), .int(Int64(i))], label)
      XCTAssertEqual(changeset[key]?[0]?["rows"]?.arrayValue?.count, 1, label)
      // The same again, respelled: members in another order, integral data numbers as 1.0.
      let respelled = changed.map { (id: $0.id, items: $0.items.map { Self.respelled($0, &random) }) }
      let same = try replace(content(respelled))
      XCTAssertEqual(same["version"]?.intValue, version, label + " (respelled)")
      XCTAssertEqual(same["changeset"], [:], label + " (respelled)")
      // Back to the original: one more version; then the original again: none.
      let back = try replace(content(sections))
      XCTAssertEqual(back["version"]?.intValue, version + 1, label + " (back)")
      version += 1
      let again = try replace(content(sections))
      XCTAssertEqual(again["version"]?.intValue, version, label + " (again)")
      XCTAssertEqual(again["changeset"], [:], label + " (again)")
      if testRun?.failureCount ?? 0 > 0 { return }
    }
  }

  /// A `data` object that repeats a member name is read by its first occurrence, as any object
  /// of a request is: the later ones are no part of the value.
  func testARepeatedMemberOfDataIsReadByItsFirstOccurrence() throws {
    func content(_ members: (String, JSONValue)...) -> JSONValue {
      ["sections": [["id": "s", "items": [["id": "a", "data": .object(JSONObject(members))]]]]]
    }
    let created = try client.request("list/create", ["list": "d", "content": content(("k", 1), ("k", 2))])
    let version = try XCTUnwrap(created["version"]?.intValue)
    for same in [content(("k", 1)), content(("k", 1), ("k", 3)), content(("k", 1.0), ("k", 2))] {
      let answer = try client.request("list/replace", ["list": "d", "content": same])
      XCTAssertEqual(answer["version"]?.intValue, version, "\(same)")
      XCTAssertEqual(answer["changeset"], [:], "\(same)")
    }
    let changed = try client.request("list/replace", ["list": "d", "content": content(("k", 2), ("k", 1))])
    XCTAssertEqual(changed["version"]?.intValue, version + 1)
    let rows = changed["changeset"]?["itemReconfigures"]?[0]?["rows"]
    XCTAssertEqual(rows?[0]?["data"], ["k": 2])
  }

  static let fields = [
    "text", "secondaryText", "image", "data", "accessories", "leadingSwipeActions", "trailingSwipeActions",
    "contextMenuActions", "selectable", "movable", "kind", "cells", "topSeparator", "bottomSeparator",
  ]

  static func item(_ n: Int, _ random: inout SplitMix64) -> JSONValue {
    var item: JSONObject = [
      "id": .string("item-\(n)"), "text": .string("Item \(n)"),
      "data": ["count": .int(Int64(n)), "score": 1, "tags": ["a", "b"], "nested": ["z": 0, "y": 2]],
      "accessories": [["type": "disclosureIndicator"], ["type": "badge", "text": .string("\(n % 9)")]],
      "leadingSwipeActions": [["id": "pin", "title": "Pin"]],
      "trailingSwipeActions": [["id": "delete", "title": "Delete", "style": "destructive"]],
      "cells": ["size": .int(Int64(n))],
    ]
    if random.chance(percent: 50) { item["secondaryText"] = .string("second \(n)") }
    if random.chance(percent: 50) { item["image"] = "doc" }
    if random.chance(percent: 30) { item["contextMenuActions"] = [["id": "copy", "title": "Copy"]] }
    return .object(item)
  }

  /// `item` with `field` set to another value.
  static func changing(_ field: String, of item: JSONValue, _ random: inout SplitMix64) -> JSONValue {
    guard case .object(var object) = item else { return item }
    switch field {
    case "text": object["text"] = .string("Changed \(random.int(0..<1000))")
    case "secondaryText": object["secondaryText"] = object["secondaryText"] == nil ? "now here" : nil
    case "image": object["image"] = object["image"] == nil ? "star" : nil
    case "data": object["data"] = ["count": -1]
    case "accessories":
      object["accessories"] = [["type": "disclosureIndicator"], ["type": "badge", "text": "new"]]
    case "leadingSwipeActions": object["leadingSwipeActions"] = [["id": "pin", "title": "Unpin"]]
    case "trailingSwipeActions":
      object["trailingSwipeActions"] = [["id": "delete", "title": "Delete", "style": "normal"]]
    case "contextMenuActions":
      object["contextMenuActions"] = object["contextMenuActions"] == nil ? [["id": "x", "title": "X"]] : nil
    case "selectable": object["selectable"] = false
    case "movable": object["movable"] = true
    case "kind": object["kind"] = "card"
    case "cells": object["cells"] = ["size": 1.5]
    case "topSeparator": object["topSeparator"] = "hidden"
    default: object["bottomSeparator"] = "visible"
    }
    return .object(object)
  }

  /// `value` with every object's members in another order and integral `data` numbers as doubles.
  static func respelled(_ value: JSONValue, _ random: inout SplitMix64, inData: Bool = false) -> JSONValue {
    switch value {
    case .object(let object):
      var members = object.map { ($0.key, respelled($0.value, &random, inData: inData || $0.key == "data")) }
      for k in members.indices.reversed() {
        let j = random.int(in: 0...k)
        members.swapAt(k, j)
      }
      return .object(JSONObject(members))
    case .array(let elements): return .array(elements.map { respelled($0, &random, inData: inData) })
    case .int(let int) where inData: return .double(Double(int))
    default: return value
    }
  }
}
