// Content, edits and frames read straight from bytes, in one pass over a tree, or checked: equal values and errors.
import Foundation
import JSON
import JSONRPC
import ListModel
import ListProtocol
import SeededRandom
import XCTest

/// For thousands of random `list/create` / `list/replace` contents and `list/edit` batches,
/// valid and mutated (wrong types, unknown and repeated members, non-objects, accessories,
/// escapes, big numbers), decoding from the bytes gives exactly what decoding the parsed tree
/// gives, and what the checked decoder alone gives: equal values or equal errors. Random frames, whole or with bytes broken, read with
/// their params kept as bytes equal the fully parsed message, or fail with the same -32700.
///
/// `LISTD_BYTES_SEED=n` replays a run.
final class BytesDecodingPropertyTests: XCTestCase {
  private func seed(_ test: String) -> UInt64 {
    let environment = ProcessInfo.processInfo.environment
    let seed = environment["LISTD_BYTES_SEED"].flatMap(UInt64.init) ?? 2311
    print("\(test): seed \(seed) (LISTD_BYTES_SEED=\(seed) replays it)")
    return seed
  }

  func testContentFromBytesDecodesLikeTheTree() throws {
    let seed = seed("testContentFromBytesDecodesLikeTheTree")
    var random = SplitMix64(seed: seed)
    var fastCount = 0
    for run in 0..<2_000 {
      var generator = WireGenerator(random: random)
      let content = generator.content(mutate: run % 3 != 0)
      random = generator.random
      let bytes = content.jsonBytes()
      let text = try JSONText(validating: bytes)
      for inherit in [false, true] {
        let fromBytes = Self.result { () throws(ResponseError) in
          try ContentDecoding.content(text, path: "content", inherit: inherit)
        }
        let fromTree = Self.result { () throws(ResponseError) in
          try ContentDecoding.content(
            Params(try! JSONValue(parsing: bytes), path: "content"), inherit: inherit)
        }
        let checked = Self.result { () throws(ResponseError) in
          try ContentDecoding.checkedContent(
            Params(try! JSONValue(parsing: bytes), path: "content"), inherit: inherit)
        }
        let context =
          "seed \(seed), run \(run), inherit \(inherit): \(String(decoding: bytes, as: UTF8.self))"
        XCTAssertEqual(fromBytes, checked, context)
        XCTAssertEqual(fromTree, checked, context)
        if case .success = fromBytes { fastCount += 1 }
      }
      if testRun?.failureCount ?? 0 > 0 { return }
    }
    XCTAssertGreaterThan(fastCount, 500, "too few valid contents to compare")
  }

  /// The one-pass item reader takes the same items over a parsed tree as over their bytes, and
  /// reads them as the checked decoder does.
  func testItemsReadInOnePassOverTheTreeAsOverTheBytes() throws {
    let seed = seed("testItemsReadInOnePassOverTheTreeAsOverTheBytes")
    var random = SplitMix64(seed: seed)
    var taken = 0
    for run in 0..<1_500 {
      var generator = WireGenerator(random: random)
      let items = generator.items(mutate: run % 3 != 0)
      random = generator.random
      let bytes = items.jsonBytes()
      let context = "seed \(seed), run \(run): \(String(decoding: bytes, as: UTF8.self))"
      for inherit in [false, true] {
        let fromBytes = ContentDecoding.fastTrees(try JSONText(validating: bytes), inherit: inherit)
        let fromTree = ContentDecoding.fastTrees(items.arrayValue ?? [], inherit: inherit)
        XCTAssertEqual(fromBytes, fromTree, context)
        guard let fromTree else { continue }
        let checked = try Params(["items": items]).objects("items").map { item throws(ResponseError) in
          try ContentDecoding.tree(item, inherit: inherit)
        }
        XCTAssertEqual(fromTree, checked, context)
        taken += 1
      }
      if testRun?.failureCount ?? 0 > 0 { return }
    }
    XCTAssertGreaterThan(taken, 500, "too few item arrays read in one pass")
  }

  func testEditsFromBytesDecodeLikeTheTree() throws {
    let seed = seed("testEditsFromBytesDecodeLikeTheTree")
    var random = SplitMix64(seed: seed)
    var valid = 0
    for run in 0..<3_000 {
      var generator = WireGenerator(random: random)
      let edits = generator.edits(mutate: run % 3 != 0)
      random = generator.random
      let bytes = edits.jsonBytes()
      let text = try JSONText(validating: bytes)
      let fromBytes = Self.result { () throws(ResponseError) in Self.comparable(try EditDecoding.edits(text))
      }
      let fromTree = Self.result { () throws(ResponseError) in
        Self.comparable(try EditDecoding.edits(Params(["edits": try! JSONValue(parsing: bytes)])))
      }
      XCTAssertEqual(
        fromBytes, fromTree, "seed \(seed), run \(run): \(String(decoding: bytes, as: UTF8.self))")
      if case .success = fromBytes { valid += 1 }
      if testRun?.failureCount ?? 0 > 0 { return }
    }
    XCTAssertGreaterThan(valid, 500, "too few valid batches to compare")
  }

  func testFramesWithParamsKeptAsBytesReadLikeParsedFrames() throws {
    let seed = seed("testFramesWithParamsKeptAsBytesReadLikeParsedFrames")
    var random = SplitMix64(seed: seed)
    var parser = JSONParser()
    var deferred = 0
    for run in 0..<3_000 {
      var generator = WireGenerator(random: random)
      var bytes = generator.frame().jsonBytes()
      random = generator.random
      if run % 2 == 1 { bytes = Self.broken(bytes, &random) }
      let kept = bytes.withUnsafeBytes { Incoming(body: $0, reusing: &parser) }
      let parsed = Incoming(body: bytes)
      XCTAssertEqual(
        Self.materialized(kept), parsed, "seed \(seed), run \(run): \(String(decoding: bytes, as: UTF8.self))"
      )
      if case .single(.success(.request(let request))) = kept, request.deferredParams != nil { deferred += 1 }
      // The validator fails exactly where the parser does.
      let validated = bytes.withUnsafeBytes { body in
        Result { () throws(JSONParseError) in try JSONParser().validate(body) }
      }
      let full = Result { () throws(JSONParseError) in _ = try JSONParser().parse(bytes) }
      XCTAssertEqual(validated.error, full.error, "seed \(seed), run \(run)")
      if testRun?.failureCount ?? 0 > 0 { return }
    }
    XCTAssertGreaterThan(deferred, 500, "too few frames kept their params as bytes")
  }

  // MARK: - Comparing

  private static func result<T>(_ body: () throws(ResponseError) -> T) -> Result<T, ResponseError> {
    Result(catching: body)
  }

  private struct ComparableEdits: Hashable {
    var edits: [ListEdit]
    var origins: [Int]
    var ops: [String]
    var patches: [Int: [String]]
  }

  private static func comparable(_ decoded: DecodedEdits) -> ComparableEdits {
    ComparableEdits(
      edits: decoded.edits, origins: decoded.origins, ops: decoded.ops,
      patches: decoded.patches.mapValues {
        [$0.item, $0.path, String(decoding: JSONValue.object($0.members).jsonBytes(), as: UTF8.self)]
      })
  }

  /// A read frame with deferred params turned back into a parsed request, to compare.
  private static func materialized(_ incoming: Incoming) -> Incoming {
    guard case .single(.success(.request(var request))) = incoming, let params = request.deferredParams else {
      return incoming
    }
    request.params = params.text.parsed()
    request.deferredParams = nil
    return .single(.success(.request(request)))
  }

  /// `bytes` with one to three bytes deleted, inserted or changed.
  private static func broken(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
    var bytes = bytes
    let noise: [UInt8] = Array("{}[],:\"\\ -0123456789.eEtrufalsn".utf8) + [0x00, 0x1F, 0x80, 0xC0, 0xFF]
    for _ in 0..<random.int(in: 1...3) where !bytes.isEmpty {
      let at = random.int(0..<bytes.count)
      switch random.int(0..<3) {
      case 0: bytes.remove(at: at)
      case 1: bytes.insert(random.element(noise)!, at: at)
      default: bytes[at] = random.element(noise)!
      }
    }
    return bytes
  }
}

extension Result where Success == Void {
  fileprivate var error: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

extension ContentDecoding.SectionContent: Equatable {
  public static func == (a: Self, b: Self) -> Bool { a.spec == b.spec && a.trees == b.trees }
}

/// Random wire values: content, edits and frames, valid or with mutations.
struct WireGenerator {
  var random: SplitMix64
  private var mutate = false

  init(random: SplitMix64) {
    self.random = random
  }

  private mutating func chance(_ percent: Int) -> Bool { random.chance(percent: percent) }

  /// A mutation, a few times in a hundred when mutating.
  private mutating func mutation() -> Bool { mutate && chance(4) }

  mutating func string() -> JSONValue {
    let pool = [
      "a", "b", "i1", "i2", "x y", "é", "line\nbreak", "q\"uote", "tab\t", "😀", "\u{1}",
      "long-" + String(repeating: "z", count: 40),
    ]
    return .string(random.element(pool)! + (chance(50) ? "\(random.int(0..<50))" : ""))
  }

  private mutating func wrongValue() -> JSONValue {
    switch random.int(0..<7) {
    case 0: return .int(Int64(random.int(-5..<5)))
    case 1: return .double(2.5)
    case 2: return .bool(true)
    case 3: return .array([.int(1)])
    case 4: return .object(["k": .int(1)])
    case 5: return .null
    default: return string()
    }
  }

  mutating func freeForm(depth: Int = 0) -> JSONValue {
    switch random.int(0..<(depth > 2 ? 6 : 8)) {
    case 0: return .null
    case 1: return .bool(chance(50))
    case 2: return .int(Int64(random.int(-1000..<1000)))
    case 3: return .double([1.0, -0.0, 1e3, 0.5, 1e300, 12345678901234567890.0][random.int(0..<6)])
    case 4: return .int(Int64.max)
    case 5: return string()
    case 6: return .array((0..<random.int(0..<4)).map { _ in freeForm(depth: depth + 1) })
    default:
      let keys = ["z", "a", "m", "a", "é", "B"]
      return .object(
        JSONObject((0..<random.int(0..<4)).map { _ in (random.element(keys)!, freeForm(depth: depth + 1)) }))
    }
  }

  /// An object with the members given, mutated at times: unknown, repeated, dropped members, a
  /// wrong type.
  private mutating func object(_ members: [(String, JSONValue)], required: String? = nil) -> JSONValue {
    var object = JSONObject()
    for (key, value) in members {
      if mutation() && key == required { continue }
      object.append(key, mutation() ? wrongValue() : value)
      if mutation() { object.append(key, chance(50) ? value : wrongValue()) }
    }
    if mutation() { object.append("bogus", .int(1)) }
    if mutation() { return wrongValue() }
    return .object(object)
  }

  mutating func item(depth: Int = 0) -> JSONValue {
    var members: [(String, JSONValue)] = [("id", string())]
    if chance(70) { members.append(("text", chance(90) ? string() : .null)) }
    if chance(30) { members.append(("secondaryText", chance(90) ? string() : .null)) }
    if chance(20) { members.append(("image", string())) }
    if chance(30) { members.append(("data", freeForm())) }
    if chance(20) { members.append(("selectable", chance(90) ? .bool(chance(50)) : .null)) }
    if chance(20) { members.append(("movable", chance(90) ? .bool(chance(50)) : .null)) }
    if chance(30) { members.append(("expanded", chance(90) ? .bool(chance(50)) : .null)) }
    if chance(20) { members.append(("kind", chance(90) ? string() : .null)) }
    if chance(25) {
      var cells = JSONObject()
      for _ in 0..<random.int(0..<4) {
        let value: JSONValue = [.string("s"), .int(3), .double(2.5), .bool(false), .null, .double(1e3)][
          random.int(0..<6)]
        cells.append(["c1", "c2", "c3"][random.int(0..<3)], value)
      }
      members.append(("cells", chance(95) ? .object(cells) : .null))
    }
    if chance(3) {
      let key = ["accessories", "leadingSwipeActions", "trailingSwipeActions", "contextMenuActions"][
        random.int(0..<4)]
      let value: JSONValue
      switch random.int(0..<5) {
      case 0: value = .array([])
      case 1: value = .null
      case 2: value = key == "accessories" ? [["type": "checkmark"]] : [["id": "a", "title": "A"]]
      // Two of one system accessory: both paths refuse it alike.
      case 3: value = key == "accessories" ? [["type": "checkmark"], ["type": "checkmark"]] : [["id": "a"]]
      default: value = key == "accessories" ? [["type": "progress", "value": 2]] : [["id": "a"]]
      }
      members.append((key, value))
    }
    if chance(5) {
      members.append(("accessories", .array((0..<random.int(1..<3)).map { _ in accessory() })))
    }
    if chance(5) {
      let key = ["leadingSwipeActions", "trailingSwipeActions", "contextMenuActions"][random.int(0..<3)]
      members.append((key, actions(depth: key == "contextMenuActions" ? 0 : 2)))
    }
    if chance(1) {
      members.append((chance(50) ? "topSeparator" : "bottomSeparator", chance(50) ? "hidden" : "sideways"))
    }
    if depth < 2 && chance(20) {
      members.append(
        ("children", chance(95) ? .array((0..<random.int(0..<4)).map { _ in item(depth: depth + 1) }) : .null)
      )
    }
    return object(random.shuffled(members), required: "id")
  }

  /// An accessory of any type, with its fields, `placement` and `displayed` at times.
  mutating func accessory() -> JSONValue {
    let type = [
      "disclosureIndicator", "checkmark", "delete", "reorder", "outlineDisclosure", "detail", "multiselect",
      "activityIndicator", "label", "badge", "image", "custom", "progress", "toggle", "popUpMenu", "gauge",
    ][random.int(0..<16)]
    var members: [(String, JSONValue)] = [("type", .string(type))]
    switch type {
    case "label", "badge": members.append(("text", string()))
    case "image", "custom": members.append(("name", string()))
    case "progress":
      members.append(("value", [.double(0.5), .int(1), .int(0), .double(1.5)][random.int(0..<4)]))
    case "toggle": members.append(("isOn", .bool(chance(50))))
    case "popUpMenu": members.append(("actions", actions(depth: 0)))
    default: break
    }
    if chance(20) { members.append(("placement", chance(90) ? "leading" : "middle")) }
    if chance(20) { members.append(("displayed", chance(90) ? "always" : .null)) }
    return object(random.shuffled(members), required: "type")
  }

  /// Actions, with submenus below `depth` 2 (swipe actions take none).
  mutating func actions(depth: Int) -> JSONValue {
    .array(
      (0..<random.int(1..<3)).map { _ in
        var members: [(String, JSONValue)] = [("id", string()), ("title", string())]
        if chance(20) { members.append(("style", ["normal", "destructive", "loud"][random.int(0..<3)])) }
        if chance(20) { members.append(("image", chance(90) ? string() : .null)) }
        if chance(20) { members.append(("disabled", .bool(chance(50)))) }
        if chance(20) { members.append(("checked", chance(90) ? .bool(chance(50)) : .null)) }
        if depth < 2 && chance(20) {
          members.append(("children", chance(90) ? actions(depth: depth + 1) : []))
        }
        return object(random.shuffled(members), required: "id")
      })
  }

  mutating func items(mutate: Bool) -> JSONValue {
    self.mutate = mutate
    return items()
  }

  mutating func items() -> JSONValue {
    // Now and then enough items to make an edit large (kept as bytes).
    let count = chance(20) ? random.int(20..<60) : random.int(0..<5)
    return .array((0..<count).map { _ in item() })
  }

  mutating func section() -> JSONValue {
    var members: [(String, JSONValue)] = [("id", string())]
    if chance(30) { members.append(("header", chance(80) ? string() : .null)) }
    if chance(20) { members.append(("footer", string())) }
    if chance(20) { members.append(("kind", string())) }
    if chance(20) { members.append(("headerMode", chance(80) ? "firstItemInSection" : "middle")) }
    if chance(85) { members.append(("items", chance(95) ? items() : .null)) }
    return object(random.shuffled(members), required: "id")
  }

  mutating func content(mutate: Bool) -> JSONValue {
    self.mutate = mutate
    return object(
      [("sections", .array((0..<random.int(0..<4)).map { _ in section() }))], required: "sections")
  }

  mutating func edit() -> JSONValue {
    let op = [
      "appendItems", "insertItems", "appendChildren", "replaceItems", "deleteItems", "updateItems", "select",
      "appendSections", "expand", "updateSection", "fly",
    ][random.int(0..<11)]
    var members: [(String, JSONValue)] = [("op", .string(op))]
    switch op {
    case "appendItems":
      members.append(("items", items()))
      if chance(50) { members.append(("section", string())) }
    case "insertItems":
      members.append(("items", items()))
      members.append((chance(50) ? "before" : "after", string()))
    case "appendChildren":
      members.append(("items", items()))
      members.append(("parent", string()))
    case "replaceItems":
      members.append(("items", items()))
      members.append(("section", string()))
    case "deleteItems", "select": members.append(("items", .array([string(), string()])))
    case "updateItems": members.append(("items", .array([item()])))
    case "appendSections": members.append(("sections", .array([section()])))
    case "expand": members.append(("item", string()))
    case "updateSection":
      members.append(("section", string()))
      if chance(50) { members.append(("header", chance(50) ? string() : .null)) }
      if chance(50) { members.append(("kind", chance(50) ? string() : .null)) }
      if chance(70) {
        members.append(("headerMode", [.null, "none", "firstItemInSection", "middle"][random.int(0..<4)]))
      }
    default: break
    }
    return object(random.shuffled(members), required: "op")
  }

  mutating func edits(mutate: Bool) -> JSONValue {
    self.mutate = mutate
    return .array((0..<random.int(1..<5)).map { _ in edit() })
  }

  /// A request frame of list/create, list/replace or list/edit (or a notification, a batch).
  mutating func frame() -> JSONValue {
    mutate = chance(50)
    let params: JSONValue
    let method: String
    switch random.int(0..<3) {
    case 0:
      method = "list/replace"
      params = ["list": string(), "content": content(mutate: mutate)]
    case 1:
      method = "list/create"
      params = ["list": string(), "title": string(), "content": content(mutate: mutate)]
    default:
      method = "list/edit"
      params = ["list": string(), "edits": edits(mutate: mutate)]
    }
    var members: [(String, JSONValue)] = [
      ("jsonrpc", "2.0"), ("id", .int(Int64(random.int(0..<100)))), ("method", .string(method)),
      ("params", params),
    ]
    if chance(5) { members.append(("params", ["other": 1])) }
    if chance(5) { members.insert(("params", chance(50) ? .null : .int(3)), at: 0) }
    if chance(5) { members.removeAll { $0.0 == "id" } }
    let frame = JSONValue.object(JSONObject(random.shuffled(members)))
    return chance(5) ? .array([frame]) : frame
  }
}
