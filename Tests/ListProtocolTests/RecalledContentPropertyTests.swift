// list/replace content read against the current version: items sent as canonical bytes take its payloads, with the result of decoding them.
import Foundation
import JSON
import JSONRPC
import ListModel
import SeededRandom
import XCTest

@testable import ListProtocol

/// For hundreds of random contents, the content replacing them is read with the current version
/// recalled (an item whose members after its `id` are exactly its payload's canonical bytes
/// takes that payload, undecoded) and without: the sections, the snapshot built and its diff
/// from the current version are the same. Each item is re-sent at random as the canonical bytes
/// (which must be recognised unless it is text alone: the payload is the current one, shared), respelled (members
/// reordered, whitespace, `data` integers as `1.0`, `text` with an escape), with one field
/// changed, with `data` alone respelled (and maybe one field changed), with its children, or not
/// at all, and new items come in between.
///
/// `LISTD_RECALL_SEED=n` replays a run.
final class RecalledContentPropertyTests: XCTestCase {
  func testContentReadAgainstTheCurrentVersionIsContentDecoded() throws {
    let seed = PropertySeeds.seed("LISTD_RECALL_SEED", default: 2_027, test: "RecalledContentPropertyTests")
    var random = SplitMix64(seed: seed)
    var recognised = 0
    for run in 0..<250 {
      var generator = WireGenerator(random: random)
      // Most items with more than text (text alone is decoded, never recognised).
      let original = Self.enriched(generator.content(mutate: false), &generator)
      random = generator.random
      guard let sections = try? ContentDecoding.content(Params(original, path: "content")),
        let current = try? ContentDecoding.snapshot(
          sections, sharingWith: ListSnapshot(), selectionMode: .multiple)
      else { continue }
      var canonical: [String: ItemPayload] = [:]
      var text: [UInt8] = Array(#"{"sections":["#.utf8)
      for (s, section) in sections.enumerated() {
        if s > 0 { text.append(UInt8(ascii: ",")) }
        text +=
          JSONValue.string(section.spec.id).jsonBytes().prefixed(#"{"id":"#) + Array(#","items":["#.utf8)
        var first = true
        for tree in section.trees {
          let variant = random.int(0..<6)
          if variant == 5 { continue }  // left out
          if !first { text.append(UInt8(ascii: ",")) }
          first = false
          if random.chance(percent: 10) {  // a new item before it
            text += Array(#"{"id":"new-\#(run)-\#(random.int(0..<1_000_000))","text":"n"},"#.utf8)
          }
          let id = tree.item.id
          var object: JSONObject = ["id": .string(id)]
          RowEncoding.appendPayload(tree.item.payload, to: &object)
          switch variant {
          case 0:
            // Recognised: a payload with more than text (text alone keeps no bytes).
            let textAlone = object.count == 2 && object["text"] != nil
            if tree.children.isEmpty && object.count > 1 && !textAlone { canonical[id] = tree.item.payload }
            text += JSONValue.object(object).jsonBytes()
          case 1: text += Self.respelled(object, &random)
          case 2: text += JSONValue.object(Self.changed(object, &random)).jsonBytes()
          case 3:
            object.append("children", .array(tree.children.map(Self.json)))
            text += JSONValue.object(object).jsonBytes()
          default:
            // As a client that keeps its own `data` spelling sends it: every other member as
            // the row has it, sometimes with one of them changed.
            var members = random.chance(percent: 50) ? Self.changed(object, &random) : object
            if let data = members["data"] { members["data"] = Self.respelledData(data) }
            text += JSONValue.object(members).jsonBytes()
          }
        }
        text += Array("]}".utf8)
      }
      text += Array("]}".utf8)
      let context = "seed \(seed), run \(run): \(String(decoding: text, as: UTF8.self))"
      let json = try JSONText(validating: text)
      let recall = ContentRecall(current)
      let recalled = ContentDecoding.onePassContent(json, inherit: true, recall: recall)
      let decoded = try? ContentDecoding.content(json, path: "content", inherit: true)
      XCTAssertEqual(recalled, decoded, context)
      // Every item sent as its canonical bytes was recognised by them (others may be too: items
      // sent without their children).
      XCTAssertGreaterThanOrEqual(recall.recognised, canonical.count, context)
      recognised += canonical.count
      guard let recalled, let decoded else { continue }
      for tree in recalled.flatMap({ $0.trees }) {
        guard let payload = canonical[tree.item.id] else { continue }
        XCTAssertTrue(
          tree.item.payload.isIdentical(to: payload), "not the current payload: \(tree.item.id), " + context)
      }
      let built = try? ContentDecoding.snapshot(recalled, sharingWith: current, selectionMode: .multiple)
      let rebuilt = try? ContentDecoding.snapshot(decoded, sharingWith: current, selectionMode: .multiple)
      XCTAssertEqual(built.map { diff(current, $0) }, rebuilt.map { diff(current, $0) }, context)
      if testRun?.failureCount ?? 0 > 0 { return }
    }
    XCTAssertGreaterThan(recognised, 50, "too few items sent as canonical bytes")
  }

  /// Items of text alone keep no bytes, so they are no misses: a rich item after a hundred of them
  /// is still recognised. Rich items that miss in every member do count: after 64 of them, no
  /// more are compared.
  func testOnlyRichItemsThatMissCountTowardsGivingUp() throws {
    func content(textAlone: Int, rich: Int, respelled: Bool) -> [UInt8] {
      var items = (0..<textAlone).map { #"{"id":"t\#($0)","text":"t"}"# }
      // Respelled in every member, so that none is recognised by its bytes.
      items += (0..<rich).map {
        respelled
          ? #"{"id":"r\#($0)","text":"\u0072","data":{"n":1.0}}"#
          : #"{"id":"r\#($0)","text":"r","data":{"n":1}}"#
      }
      return Array(#"{"sections":[{"id":"s","items":[\#(items.joined(separator: ","))]}]}"#.utf8)
    }
    func recognised(current: [UInt8], sent: [UInt8]) throws -> Int {
      let sections = try ContentDecoding.content(
        JSONText(validating: current), path: "content", inherit: false)
      let snapshot = try ContentDecoding.snapshot(
        sections, sharingWith: ListSnapshot(), selectionMode: .single)
      let recall = ContentRecall(snapshot)
      XCTAssertNotNil(
        ContentDecoding.onePassContent(try JSONText(validating: sent), inherit: true, recall: recall))
      return recall.recognised
    }
    let mixed = content(textAlone: 100, rich: 1, respelled: false)
    XCTAssertEqual(try recognised(current: mixed, sent: mixed), 1)
    // 70 rich items respelled (misses), then one in another section sent as its bytes: given up by then.
    let tail = Array(#"},{"id":"s2","items":[{"id":"x","text":"x","data":{"n":1}}]}]}"#.utf8)
    let current = Array(content(textAlone: 0, rich: 70, respelled: false).dropLast(3)) + tail
    let sent = Array(content(textAlone: 0, rich: 70, respelled: true).dropLast(3)) + tail
    XCTAssertEqual(try recognised(current: current, sent: sent), 0)
    XCTAssertEqual(try recognised(current: current, sent: current), 71)
  }

  /// `content` with unique ids (the generator's repeat, and such content is refused), no cells, and `data`
  /// given to most of its top-level items that have none.
  static func enriched(_ content: JSONValue, _ generator: inout WireGenerator) -> JSONValue {
    guard case .object(var object) = content, case .array(let sections)? = object["sections"] else {
      return content
    }
    var next = 0
    func unique(_ item: JSONValue, top: Bool) -> JSONValue {
      guard case .object(var fields) = item else { return item }
      next += 1
      fields["id"] = .string("item-\(next)")
      fields["cells"] = nil  // the list has no columns
      if case .array(let children)? = fields["children"] {
        fields["children"] = .array(children.map { unique($0, top: false) })
      }
      if top, fields["data"] == nil, generator.random.chance(percent: 70) {
        fields.append("data", ["n": .int(Int64(generator.random.int(0..<9))), "more": generator.freeForm()])
      }
      return .object(fields)
    }
    object["sections"] = .array(
      sections.map { section in
        guard case .object(var members) = section else { return section }
        next += 1
        members["id"] = .string("section-\(next)")
        if case .array(let items)? = members["items"] {
          members["items"] = .array(items.map { unique($0, top: true) })
        }
        return .object(members)
      })
    return .object(object)
  }

  /// An item tree as content sends it (payload members as rows carry them, then its children).
  static func json(_ tree: OutlineNode) -> JSONValue {
    var object: JSONObject = ["id": .string(tree.item.id)]
    RowEncoding.appendPayload(tree.item.payload, to: &object)
    if !tree.children.isEmpty { object.append("children", .array(tree.children.map(json))) }
    return .object(object)
  }

  /// The same item in other bytes: members reordered, spaces, small integers of `data` as `n.0`,
  /// an escaped `/` in a string (or, when none of those changes a byte, a space after the id).
  static func respelled(_ object: JSONObject, _ random: inout SplitMix64) -> [UInt8] {
    func respell(_ value: JSONValue) -> JSONValue {
      switch value {
      case .int(let n) where abs(n) < 1 << 40: .double(Double(n))
      case .array(let elements): .array(elements.map(respell))
      case .object(let members): .object(JSONObject(members.map { ($0.key, respell($0.value)) }))
      default: value
      }
    }
    var members = Array(object)
    if let d = members.firstIndex(where: { $0.key == "data" }) {
      members[d].value = respell(members[d].value)
    }
    let id = members.removeFirst()
    members = random.shuffled(members)
    members.insert(id, at: random.int(0..<(members.count + 1)))
    let spaced = random.chance(percent: 50)
    var bytes: [UInt8] = [UInt8(ascii: "{")]
    for (k, member) in members.enumerated() {
      if k > 0 { bytes += Array((spaced ? ", " : ",").utf8) }
      bytes += JSONValue.string(member.key).jsonBytes() + Array((spaced ? ": " : ":").utf8)
      bytes += member.value.jsonBytes()
    }
    bytes.append(UInt8(ascii: "}"))
    if bytes == JSONValue.object(object).jsonBytes(), let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
      bytes.insert(UInt8(ascii: " "), at: colon + 1)
    }
    return bytes
  }

  /// `data` as a client may spell it: members in reverse order, integers as `n.0`.
  static func respelledData(_ value: JSONValue) -> JSONValue {
    switch value {
    case .int(let n) where abs(n) < 1 << 40: .double(Double(n))
    case .array(let elements): .array(elements.map(respelledData))
    case .object(let members):
      .object(JSONObject(members.reversed().map { ($0.key, respelledData($0.value)) }))
    default: value
    }
  }

  /// The item with one field changed (or added).
  static func changed(_ object: JSONObject, _ random: inout SplitMix64) -> JSONObject {
    var members = Array(object)
    func set(_ key: String, _ value: JSONValue) {
      if let k = members.firstIndex(where: { $0.key == key }) {
        members[k].value = value
      } else {
        members.append((key, value))
      }
    }
    switch random.int(0..<6) {
    case 0: set("text", .string((object["text"]?.stringValue ?? "") + "x"))
    case 1: set("data", ["changed": .int(Int64(random.int(0..<100)))])
    case 2: set("selectable", false)
    case 3: set("kind", "other")
    case 4: set("image", "photo")
    default: set("accessories", [["type": "checkmark"]])
    }
    return JSONObject(members)
  }
}

extension [UInt8] {
  fileprivate func prefixed(_ head: String) -> [UInt8] { Array(head.utf8) + self }
}
