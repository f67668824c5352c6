// MirrorRun: seeded random list/edit batches and the model's expected outcome of each, for the mirror property tests in and out of process.
import Foundation
import JSON
import JSONRPC
import ListClient
import ListModel
import ListProtocol
import SeededRandom

/// The random side of the mirror test: a seeded generator of `list/edit` batches, and the
/// expected outcome of each, from the model run in-process on the same wire edits (decoded by the
/// daemon's own decoder). It predicts which batches fail, each batch's version, and the rows of
/// every version; the daemon's answers and state are checked against it.
public struct MirrorRun {
  /// What a batch must answer.
  public enum Expectation {
    /// A new version, with this changeset (round-tripped wire JSON).
    case changed(version: Int, changeset: JSONValue)
    /// Success that changes nothing: the current version and `{}`.
    case unchanged(version: Int)
    /// An error of this code; the list stays as it was.
    case failed(ErrorCode)
  }

  public var random: SplitMix64
  public let list: String
  public private(set) var version = 0
  public private(set) var model = ListSnapshot(selectionMode: .multiple)
  /// The model's changeset of the last batch that changed the list.
  public private(set) var lastChangeset: Changeset?
  /// Whether new sections get a random `kind` and `headerMode` (off by default: it would change
  /// the histories other seeds replay).
  public var styledSections = false
  /// Whether ``expected(at:)`` answers: each version's state is encoded as a client reads it,
  /// O(the list) per batch (tests that check only the model's changesets turn it off).
  public var recordsStates = true
  private var content: JSONValue = [:]
  private var expectedStates: [Int: WireMirror] = [:]
  /// The model at each version kept, for ``rewind(to:)``.
  private var models: [Int: ListSnapshot] = [:]
  private var answered: [Int: JSONValue] = [:]
  private var counter = 0

  public init(seed: UInt64, list: String) {
    random = SplitMix64(seed: seed)
    self.list = list
  }

  // MARK: - Initial content

  /// Content for `list/create`: two plain sections and two outline sections. Call once.
  public mutating func initialContent() -> JSONValue {
    var sections: [JSONValue] = []
    for (index, outline) in [false, true, false, true].enumerated() {
      var section: JSONObject = [
        "id": .string("s\(index)"), "items": .array((0..<12).map { _ in item(depth: outline ? 0 : 9) }),
      ]
      if index.isMultiple(of: 2) { section.append("header", .string("Section \(index)")) }
      if index == 1 { section.append("footer", "Footer") }
      if styledSections && index == 1 { section.append("kind", "group") }
      if styledSections && index == 2 { section.append("headerMode", "none") }
      sections.append(.object(section))
    }
    content = ["sections": .array(sections)]
    return content
  }

  /// Builds the model from the initial content, as `list/create` does.
  public mutating func createReference() throws {
    let sections = try ContentDecoding.content(Params(content, path: "content"))
    var base = ListSnapshot(selectionMode: .multiple)
    try ListAttributeCoding.decode(Params(["columns": Self.columns]), into: &base, list: list)
    model = try ContentDecoding.snapshot(sections, sharingWith: base, selectionMode: .multiple)
    cachedItems = nil
    expectedStates[0] = try state()
    models[0] = model
  }

  /// Goes back to `version` (kept: not forgotten), as if the batches after it were never made:
  /// a daemon killed before committing them recovers there.
  public mutating func rewind(to version: Int) throws {
    guard let kept = models[version] else { throw TestFailure("version \(version) is not kept") }
    model = kept
    self.version = version
    cachedItems = nil
    models = models.filter { $0.key <= version }
    expectedStates = expectedStates.filter { $0.key <= version }
    answered = answered.filter { $0.key <= version }
  }

  // MARK: - Batches

  /// The next batch's `list/edit` params and its expected outcome; the model moves on.
  public mutating func nextBatch() throws -> (params: JSONValue, expectation: Expectation) {
    var edits: [JSONValue] = (0..<random.int(in: 1...4)).map { _ in edit() }
    if random.chance(0.05) {
      edits.insert(invalidEdit(), at: random.int(in: 0...edits.count))
    }
    let params: JSONValue = ["list": .string(list), "edits": .array(edits)]
    let before = model
    var after = model
    do {
      let decoded = try EditDecoding.edits(Params(params))
      let changeset: Changeset
      do throws(ListModelError) {
        changeset = try after.applyAndDiff(decoded.edits)
      } catch {
        return (params, .failed(ResponseError.model(error, list: list).code))
      }
      if changeset.isEmpty && after == before { return (params, .unchanged(version: version)) }
      model = after
      lastChangeset = changeset
      cachedItems = nil
      version += 1
      if recordsStates { expectedStates[version] = try state() }
      models[version] = model
      return (
        params, .changed(version: version, changeset: try roundTrip(ChangesetEncoding.changeset(changeset)))
      )
    } catch let error as ResponseError {
      return (params, .failed(error.code))
    }
  }

  /// Checks the daemon's answer to batch `batch` against its expectation.
  public mutating func check(
    _ result: Result<JSONValue, any Error>, against expectation: Expectation, batch: Int, seed: UInt64
  ) throws {
    let context = "seed \(seed), batch #\(batch)"
    switch (expectation, result) {
    case (.changed(let version, let changeset), .success(let answer)):
      guard answer["version"] == .int(Int64(version)) else {
        throw TestFailure("\(context): answered version \(answer["version"] ?? .null), expected \(version)")
      }
      guard answer["changeset"] == changeset else {
        throw TestFailure(
          "\(context): answered changeset \(answer["changeset"] ?? .null), the model's \(changeset)")
      }
      answered[version] = changeset
    case (.unchanged(let version), .success(let answer)):
      guard answer["version"] == .int(Int64(version)), answer["changeset"] == [:] else {
        throw TestFailure("\(context): expected no change at v\(version), got \(answer)")
      }
    case (.failed(let code), .failure(let error as ResponseError)):
      guard error.code == code else {
        throw TestFailure("\(context): failed with \(error.code) (\(error.message)), expected \(code)")
      }
    default:
      throw TestFailure("\(context): expected \(expectation), got \(result)")
    }
  }

  /// The expected rows and selection at `version` (kept until ``forget(before:)``).
  public func expected(at version: Int) -> WireMirror? { expectedStates[version] }

  /// The changeset the owner was answered for the change to `version`.
  public func answeredChangeset(at version: Int) -> JSONValue? { answered[version] }

  /// Drops what is kept for versions before `version`.
  public mutating func forget(before version: Int) {
    expectedStates = expectedStates.filter { $0.key >= version }
    models = models.filter { $0.key >= version }
    answered = answered.filter { $0.key > version }
  }

  private func state() throws -> WireMirror {
    try WireMirror(list: list, version: version, snapshot: roundTrip(RowEncoding.snapshot(model)))
  }

  /// The value as a client reads it: written and parsed again.
  private func roundTrip(_ value: JSONValue) throws -> JSONValue {
    try JSONValue(parsing: value.jsonBytes())
  }

  // MARK: - Random edits

  private var sections: [String] { model.sectionIdentifiers }
  /// Every item id (hidden ones too), cached until the model changes.
  private var items: [String] {
    mutating get {
      if let cachedItems { return cachedItems }
      let all = model.sectionIdentifiers.flatMap {
        model.itemIdentifiers(inSection: $0, includingHidden: true)
      }
      cachedItems = all
      return all
    }
  }
  private var cachedItems: [String]?

  private mutating func freshID(_ prefix: String) -> String {
    counter += 1
    return "\(prefix)\(counter)"
  }

  private mutating func someItem() -> String { random.element(items) ?? "missing" }
  private mutating func someSection() -> String { random.element(sections) ?? "missing" }
  private mutating func someItems(_ range: ClosedRange<Int>) -> [JSONValue] {
    let all = items
    return (0..<random.int(in: range)).compactMap { _ in random.element(all).map { .string($0) } }
  }

  /// A random payload: texts, data, accessories, actions, flags.
  private mutating func payload(into object: inout JSONObject) {
    object.append("text", .string(random.element(["Alpha", "Beta", "Gamma", "Delta", "Ε", "日本"])!))
    if random.chance(0.3) { object.append("secondaryText", .string("detail \(random.int(in: 0...3))")) }
    if random.chance(0.15) { object.append("image", "folder") }
    if random.chance(0.2) {
      object.append("data", ["n": .int(Int64(random.int(in: 0...2))), "tags": ["a", "b"]])
    }
    if random.chance(0.25) {
      let accessory: JSONValue = random.element([
        ["type": "disclosureIndicator"], ["type": "checkmark"],
        ["type": "badge", "text": .string("\(random.int(in: 1...9))")],
        ["type": "toggle", "isOn": .bool(random.chance(0.5))], ["type": "progress", "value": 0.25],
        ["type": "popUpMenu", "actions": [["id": "a", "title": "A"]]], ["type": "custom", "name": "star"],
      ])!
      object.append("accessories", [accessory])
    }
    if random.chance(0.1) {
      object.append("trailingSwipeActions", [["id": "delete", "title": "Delete", "style": "destructive"]])
    }
    if random.chance(0.05) { object.append("contextMenuActions", [["id": "copy", "title": "Copy"]]) }
    if random.chance(0.05) { object.append("selectable", false) }
    if random.chance(0.1) { object.append("movable", true) }
    if random.chance(0.3) { object.append("kind", .string(random.element(["file", "folder"])!)) }
    if random.chance(0.1) {
      object.append("bottomSeparator", .string(random.element(["visible", "hidden"])!))
    }
    if random.chance(0.1), object["accessories"] == nil {
      object.append(
        "accessories",
        [
          ["type": "delete", "placement": .string(random.element(["leading", "trailing"])!)],
          [
            "type": "reorder",
            "displayed": .string(random.element(["always", "whenEditing", "whenNotEditing"])!),
          ],
        ])
    }
    if random.chance(0.05), object["contextMenuActions"] == nil {
      object.append(
        "contextMenuActions",
        [
          [
            "id": "m", "title": "More",
            "children": [["id": "x", "title": "X", "checked": .bool(random.chance(0.5))]],
          ]
        ])
    }
    if random.chance(0.4) {
      var cells: JSONObject = ["size": .int(Int64(random.int(in: 0...3)))]
      if random.chance(0.5) {
        cells.append("name", random.chance(0.2) ? .null : .string("n\(random.int(in: 0...2))"))
      }
      object.append("cells", .object(cells))
    }
  }

  /// The columns lists are created with; cells name `size` and `name`.
  public static let columns: JSONValue = [
    ["id": "name", "title": "Name"],
    ["id": "size", "title": "Size", "alignment": "trailing", "sortable": true],
  ]

  /// A new item; below `depth` 2 it may carry children (and be expanded).
  private mutating func item(depth: Int) -> JSONValue {
    var object: JSONObject = ["id": .string(freshID("i"))]
    payload(into: &object)
    if depth < 2 && random.chance(0.3) {
      object.append("children", .array((0..<random.int(in: 1...3)).map { _ in item(depth: depth + 1) }))
      if random.chance(0.5) { object.append("expanded", true) }
    }
    return .object(object)
  }

  /// A random item for decoding tests.
  public mutating func randomItem() -> JSONValue { item(depth: random.int(in: 0...2)) }

  private mutating func newItems(_ range: ClosedRange<Int>) -> JSONValue {
    .array((0..<random.int(in: range)).map { _ in item(depth: random.chance(0.5) ? 0 : 2) })
  }

  private mutating func anchor(_ id: String) -> (String, JSONValue) {
    (random.chance(0.5) ? "before" : "after", .string(id))
  }

  /// One edit, mostly valid, drawn from every op of Protocol/README.md §5, weighted to keep the
  /// list between a few dozen and a few hundred items.
  private mutating func edit() -> JSONValue {
    let count = model.numberOfItems(includingHidden: true)
    let grow = count < 60 ? 3 : count > 300 ? 0 : 1
    let shrink = count > 300 ? 3 : 1
    let sectionCount = model.numberOfSections
    let weighted: [(Int, String)] = [
      (8 * grow, "appendItems"), (6 * grow, "insertItems"), (5 * grow, "appendChildren"),
      (7 * shrink, "deleteItems"), (12, "moveItem"), (6, "expand"), (5, "collapse"), (8, "updateItems"),
      (2, "reloadItems"), (2, "reconfigureItems"), (3, "replaceItems"), (6, "select"), (4, "deselect"),
      (1, "selectAll"), (1, "deselectAll"),
      (sectionCount < 3 ? 6 : sectionCount < 8 ? 1 : 0, "appendSections"),
      (sectionCount < 3 ? 4 : sectionCount < 8 ? 1 : 0, "insertSections"),
      (sectionCount > 8 ? 4 : sectionCount > 4 ? 2 : 0, "deleteSections"),
      (3, "moveSection"), (3, "updateSection"), (1, "reloadSections"), (1, "setColumns"),
      (1, "setEmptyState"), (1, "setEditing"),
    ]
    var pick = random.int(in: 0...(weighted.reduce(0) { $0 + $1.0 } - 1))
    var op = weighted[0].1
    for (weight, name) in weighted {
      if pick < weight {
        op = name
        break
      }
      pick -= weight
    }
    if random.int(in: 0...1999) == 0 { op = "deleteAllItems" }
    switch op {
    case "appendItems":
      var object: JSONObject = ["op": "appendItems", "items": newItems(1...3)]
      if random.chance(0.7) { object.append("section", .string(someSection())) }
      return .object(object)
    case "insertItems":
      let (key, id) = anchor(someItem())
      return .object(["op": "insertItems", "items": newItems(1...3), (key): id])
    case "appendChildren":
      return ["op": "appendChildren", "parent": .string(someItem()), "items": newItems(1...2)]
    case "deleteItems":
      return ["op": "deleteItems", "items": .array(Array(Set(someItems(1...3))))]
    case "moveItem":
      let item = someItem()
      switch random.int(in: 0...9) {
      case 0...5:
        let (key, id) = anchor(someItem())
        return .object(["op": "moveItem", "item": .string(item), (key): id])
      case 6...7: return ["op": "moveItem", "item": .string(item), "section": .string(someSection())]
      default: return ["op": "moveItem", "item": .string(item), "parent": .string(someItem())]
      }
    case "expand", "collapse":
      let all = items
      let withChildren = all.filter { model.hasChildren($0) }
      let id = random.element(withChildren) ?? someItem()
      var object: JSONObject = ["op": .string(op), "item": .string(id)]
      if random.chance(0.25) { object.append("recursive", true) }
      return .object(object)
    case "updateItems":
      let ids = Set(someItems(1...3).compactMap(\.stringValue))
      return [
        "op": "updateItems",
        "items": .array(
          ids.sorted().map { id in
            var object: JSONObject = ["id": .string(id)]
            payload(into: &object)
            return .object(object)
          }),
      ]
    case "reloadItems", "reconfigureItems":
      return ["op": .string(op), "items": .array(Array(Set(someItems(1...2))))]
    case "replaceItems":
      let section = someSection()
      var kept: [JSONValue] = model.rootItems(inSection: section).filter { _ in random.chance(0.7) }.map {
        id in
        var object: JSONObject = ["id": .string(id)]
        if let payload = model.payload(of: id), !random.chance(0.3) {
          if let text = payload.content.text { object.append("text", .string(text)) }
        } else {
          payload(into: &object)
        }
        return .object(object)
      }
      if let extra = newItems(0...2).arrayValue { kept += extra }
      return ["op": "replaceItems", "section": .string(section), "items": .array(random.shuffled(kept))]
    case "select", "deselect":
      let visible = model.itemIdentifiers
      let ids = (0..<random.int(in: 1...3)).compactMap { _ in random.element(visible) }
      return ["op": .string(op), "items": .array(Array(Set(ids)).sorted().map { .string($0) })]
    case "appendSections", "insertSections":
      let new: JSONValue = .array(
        (0..<random.int(in: 1...2)).map { _ in
          var object: JSONObject = ["id": .string(freshID("s"))]
          if random.chance(0.5) { object.append("header", .string("H\(counter)")) }
          if styledSections && random.chance(0.4) {
            object.append("kind", .string(random.element(["group", "card"])!))
          }
          if styledSections && random.chance(0.4) {
            object.append("headerMode", .string(random.element(["none", "firstItemInSection"])!))
          }
          if random.chance(0.7) { object.append("items", newItems(1...4)) }
          return .object(object)
        })
      if op == "appendSections" || sectionCount == 0 { return ["op": "appendSections", "sections": new] }
      let (key, id) = anchor(someSection())
      return .object(["op": "insertSections", "sections": new, (key): id])
    case "deleteSections":
      return ["op": "deleteSections", "sections": [.string(someSection())]]
    case "moveSection":
      let (key, id) = anchor(someSection())
      return .object(["op": "moveSection", "section": .string(someSection()), (key): id])
    case "updateSection":
      var object: JSONObject = ["op": "updateSection", "section": .string(someSection())]
      if random.chance(0.7) {
        object.append("header", random.chance(0.2) ? .null : .string("H\(random.int(in: 0...5))"))
      }
      if random.chance(0.5) {
        object.append("footer", random.chance(0.3) ? .null : .string("F\(random.int(in: 0...5))"))
      }
      if random.chance(0.3) { object.append("kind", random.chance(0.3) ? .null : "group") }
      if random.chance(0.3) {
        object.append(
          "headerMode",
          random.chance(0.25)
            ? .null : .string(random.element(["none", "supplementary", "firstItemInSection"])!))
      }
      return .object(object)
    case "reloadSections":
      return ["op": "reloadSections", "sections": [.string(someSection())]]
    case "setColumns":
      // Mostly a superset of the columns cells use; `[]` fails while any item has cells.
      let date: JSONValue = ["id": "date", "title": "Date", "width": 10.0]
      let choices: [JSONValue] = [
        Self.columns, .array((Self.columns.arrayValue ?? []) + [date]),
        .array((Self.columns.arrayValue ?? []).reversed()), [],
      ]
      return ["op": "setColumns", "columns": random.element(choices)!]
    case "setEmptyState":
      let states: [JSONValue] = [
        .null, ["title": "Nothing here"],
        ["title": "No files", "image": "folder", "description": "Add one."],
        ["kind": "search", "query": .string("q\(random.int(in: 0...2))")],
      ]
      return ["op": "setEmptyState", "emptyState": random.element(states)!]
    case "setEditing":
      return ["op": "setEditing", "editing": .bool(random.chance(0.5))]
    default:
      return .object(JSONObject([("op", .string(op))]))
    }
  }

  /// An edit that must fail the whole batch.
  private mutating func invalidEdit() -> JSONValue {
    switch random.int(in: 0...6) {
    case 0: return ["op": "deleteItems", "items": [.string(freshID("missing"))]]
    case 1:  // a duplicate id
      return [
        "op": "appendItems", "items": [["id": .string(random.element(items) ?? "x")]],
        "section": .string(someSection()),
      ]
    case 2:  // into its own subtree
      let all = items
      let id = random.element(all.filter { model.hasChildren($0) }) ?? someItem()
      return ["op": "moveItem", "item": .string(id), "parent": .string(model.children(of: id).first ?? id)]
    case 3: return ["op": "frobnicate"]
    case 4: return ["op": "select", "items": "everything"]
    case 5:
      return [
        "op": "insertSections", "sections": [["id": .string(freshID("s"))]], "before": "no-such-section",
      ]
    default: return ["op": "moveItem", "item": .string(someItem())]  // no anchor
    }
  }
}
