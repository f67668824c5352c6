// A seeded random history of a list, made through ListClient with every kind of change, for record/replay tests.
import JSON
import JSONRPC
import ListClient
import SeededRandom

/// Changes a list at random through a ``ListClient``: `list/edit` batches of every op (some of
/// them invalid, which change nothing), `list/replace`, `outline/*` and `selection/*`. Ids are
/// drawn from the list's content as the daemon answers it (`query/content`).
struct RandomHistory {
  var random: SplitMix64
  private var counter = 0

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  private mutating func fresh(_ prefix: String) -> String {
    counter += 1
    return "\(prefix)\(counter)"
  }

  /// Content for `list/create`: a flat section and an outline section.
  mutating func initialContent() -> JSONValue {
    [
      "sections": [
        ["id": "flat", "header": "Flat", "items": .array((0..<5).map { _ in item(depth: 2) })],
        ["id": "tree", "footer": "end", "items": .array((0..<4).map { _ in item(depth: 0) })],
      ]
    ]
  }

  /// Makes `steps` changes to `list`; returns the changeset each new version was answered with.
  mutating func run(_ client: ListClient, list: String, steps: Int) async throws -> [Int: JSONValue] {
    var answers: [Int: JSONValue] = [:]
    var version = Int(try await client.info(list)["version"]?.intValue ?? 0)
    for _ in 0..<steps {
      let content = try await client.content(list)
      let change: Change
      do {
        change = try await self.change(client, list, content)
      } catch is ResponseError {
        continue  // an invalid change: nothing happened
      }
      if change.version > version {
        version = change.version
        answers[version] = change.changeset
      }
    }
    return answers
  }

  private mutating func change(_ client: ListClient, _ list: String, _ content: ListContent) async throws
    -> Change
  {
    let items = Self.items(content.content)
    let sections = (content.content["sections"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    switch random.int(in: 0...19) {
    case 0:
      return try await client.replace(list, content: replaced(content.content))
    case 1:
      return try await client.expand(list, item: random.element(items), recursive: random.chance(0.3))
    case 2:
      return try await client.collapse(list, item: random.chance(0.5) ? random.element(items) : nil)
    case 3:
      return try await client.select(list, [random.element(items) ?? "none"])
    default:
      let edits = (0..<random.int(in: 1...3)).map { _ in edit(items: items, sections: sections) }
      return try await client.edit(list, edits)
    }
  }

  /// Every item id of a content, hidden ones too.
  static func items(_ content: JSONValue) -> [String] {
    func walk(_ items: [JSONValue]) -> [String] {
      items.flatMap { item in [item["id"]?.stringValue ?? ""] + walk(item["children"]?.arrayValue ?? []) }
    }
    return (content["sections"]?.arrayValue ?? []).flatMap { walk($0["items"]?.arrayValue ?? []) }
  }

  private mutating func payload(into object: inout JSONObject) {
    object.append("text", .string(random.element(["A", "B", "C", "Δ"])!))
    if random.chance(0.3) { object.append("secondaryText", .string("s\(random.int(in: 0...2))")) }
    if random.chance(0.2) { object.append("data", ["n": .int(Int64(random.int(in: 0...2)))]) }
    if random.chance(0.2) {
      object.append("accessories", [["type": "badge", "text": .string("\(random.int(in: 1...3))")]])
    }
    if random.chance(0.05) { object.append("selectable", false) }
  }

  private mutating func item(depth: Int) -> JSONValue {
    var object: JSONObject = ["id": .string(fresh("i"))]
    payload(into: &object)
    if depth < 2 && random.chance(0.35) {
      object.append("children", .array((0..<random.int(in: 1...3)).map { _ in item(depth: depth + 1) }))
      if random.chance(0.5) { object.append("expanded", true) }
    }
    return .object(object)
  }

  /// The content with some items' text changed, one section's roots shuffled, one item dropped.
  private mutating func replaced(_ content: JSONValue) -> JSONValue {
    var sections = content["sections"]?.arrayValue ?? []
    guard !sections.isEmpty else { return content }
    let index = random.int(0..<sections.count)
    var roots = sections[index]["items"]?.arrayValue ?? []
    roots = random.shuffled(roots)
    if !roots.isEmpty && random.chance(0.5) { roots.removeLast() }
    roots = roots.map { random.chance(0.3) ? $0.setting("text", .string("R\(random.int(in: 0...3))")) : $0 }
    sections[index] = sections[index].setting("items", .array(roots))
    return ["sections": .array(sections)]
  }

  private mutating func edit(items: [String], sections: [String]) -> JSONValue {
    func someItem() -> JSONValue { .string(random.element(items) ?? "missing") }
    func someSection() -> JSONValue { .string(random.element(sections) ?? "missing") }
    let anchor = random.chance(0.5) ? "before" : "after"
    switch random.int(in: 0...21) {
    case 0, 1:
      return ["op": "appendItems", "section": someSection(), "items": [item(depth: 1)]]
    case 2: return .object(["op": "insertItems", "items": [item(depth: 2)], (anchor): someItem()])
    case 3: return ["op": "appendChildren", "parent": someItem(), "items": [item(depth: 2)]]
    case 4: return ["op": "deleteItems", "items": [someItem()]]
    case 5, 6: return .object(["op": "moveItem", "item": someItem(), (anchor): someItem()])
    case 7: return ["op": "moveItem", "item": someItem(), "parent": someItem()]
    case 8: return ["op": "moveItem", "item": someItem(), "section": someSection()]
    case 9:
      var object: JSONObject = ["id": someItem()]
      payload(into: &object)
      return ["op": "updateItems", "items": [.object(object)]]
    case 10: return ["op": "patchItems", "items": [["id": someItem(), "text": "P", "data": ["m": 1]]]]
    case 11: return ["op": "reloadItems", "items": [someItem()]]
    case 12: return ["op": "reconfigureItems", "items": [someItem()]]
    case 13: return ["op": random.chance(0.5) ? "expand" : "collapse", "item": someItem()]
    case 14: return ["op": "select", "items": [someItem()]]
    case 15: return ["op": "deselect", "items": [someItem()]]
    case 16: return ["op": random.chance(0.5) ? "selectAll" : "deselectAll"]
    case 17:
      let new: JSONValue = [["id": .string(fresh("s")), "header": "New", "items": [item(depth: 1)]]]
      return .object(["op": "insertSections", "sections": new, (anchor): someSection()])
    case 18:
      return sections.count > 2
        ? ["op": "deleteSections", "sections": [someSection()]] : ["op": "deselectAll"]
    case 19: return .object(["op": "moveSection", "section": someSection(), (anchor): someSection()])
    case 20:
      return [
        "op": "updateSection", "section": someSection(),
        "header": random.chance(0.3) ? .null : .string("H\(random.int(in: 0...2))"),
      ]
    default: return ["op": "reloadSections", "sections": [someSection()]]
    }
  }
}
