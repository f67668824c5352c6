// Decodes check/batchUpdate and check/snapshot params (counts, contents, changesets, UIKit index paths) and encodes their answers.
import JSON
import JSONRPC
import ListModel

/// Wire ↔ model for the checks, with -32602 errors that name the field path and value.
/// Everything is O(size of the input) (rows a changeset carries are counted, not decoded).
public enum CheckDecoding {
  public static let changesetKeys = [
    "sectionDeletes", "sectionInserts", "sectionMoves", "sectionReloads", "itemDeletes", "itemInserts",
    "itemMoves", "itemReloads", "itemReconfigures", "enter", "selected", "deselected", "expanded",
    "collapsed", "selectionMode", "columns", "emptyState", "editing",
  ]
  public static let uikitKeys = [
    "deleteSections", "insertSections", "moveSections", "reloadSections", "deleteItems", "insertItems",
    "moveItems", "reloadItems", "reconfigureItems",
  ]

  // MARK: Counts

  /// Section item counts: an array of non-negative integers, or a content in `list/create`'s
  /// format, whose counts are its visible rows per section (roots, and the children of expanded
  /// items, `expanded` omitted meaning collapsed).
  public static func counts(_ params: Params, _ key: String) throws(ResponseError) -> [Int] {
    let value = try params.value(key)
    switch value {
    case .array(let elements):
      var counts: [Int] = []
      counts.reserveCapacity(elements.count)
      for (index, element) in elements.enumerated() {
        counts.append(try natural(element, "\(params.path(of: key))[\(index)]"))
      }
      return counts
    case .object:
      return try ContentDecoding.content(try params.object(key)).map { visibleRows($0.trees) }
    default:
      throw params.mismatch(key, "an array of item counts or a content object", value)
    }
  }

  /// Visible rows of item trees. O(nodes).
  public static func visibleRows(_ trees: [OutlineNode]) -> Int {
    trees.reduce(0) { $0 + 1 + ($1.isExpanded ? visibleRows($1.children) : 0) }
  }

  // MARK: Updates

  /// A batch update: listd's changeset format (Protocol/README.md §4; runs may carry `rows` or
  /// a `count`) or UIKit's index paths (`deleteItems: [[0, 1]]`, …) — one or the other.
  public static func update(_ params: Params) throws(ResponseError) -> BatchUpdate {
    let keys = try params.object().keys
    let changeset = keys.filter { changesetKeys.contains($0) }
    let uikit = keys.filter { uikitKeys.contains($0) }
    if let first = changeset.first, let other = uikit.first {
      throw .invalidParams(
        "\"\(params.path)\" mixes the changeset format (\"\(first)\") and UIKit index paths (\"\(other)\"): use one",
        field: params.path)
    }
    if !uikit.isEmpty {
      try params.requireKnown(uikitKeys)
      return try uikitUpdate(params)
    }
    try params.requireKnown(changesetKeys + uikitKeys)
    return try changesetUpdate(params)
  }

  private static func changesetUpdate(_ p: Params) throws(ResponseError) -> BatchUpdate {
    var update = BatchUpdate()
    for (path, value) in try elements(p, "sectionDeletes") {
      let range = try naturals(value, path, count: 2)
      update.deleteSections += Array(range[0]..<(range[0] + range[1]))
    }
    for insert in try p.optionalObjects("sectionInserts") ?? [] {
      try insert.requireKnown(["index", "section", "count"])
      let index = try natural(try insert.value("index"), insert.path(of: "index"))
      update.insertSections.append(index)
      if let count = try insert.optionalInt("count") {
        guard count >= 0, count <= maxValue else {
          throw insert.mismatch("count", "a non-negative integer of at most \(maxValue)", .int(Int64(count)))
        }
        update.insertedSectionCounts[index] = count
      } else if let section = try insert.optionalObject("section") {
        update.insertedSectionCounts[index] = try insertedSectionCount(section)
      }
    }
    for (path, value) in try elements(p, "sectionMoves") {
      let move = try naturals(value, path, count: 2)
      update.moveSections.append(.init(from: move[0], to: move[1]))
    }
    for reload in try p.optionalObjects("sectionReloads") ?? [] {
      try reload.requireKnown(["index", "id", "header", "footer", "kind", "headerMode"])
      update.reloadSections.append(try natural(try reload.value("index"), reload.path(of: "index")))
    }
    for (path, value) in try elements(p, "itemDeletes") {
      let run = try naturals(value, path, count: 3)
      try positive(run[2], path)
      update.deleteItems.append(.init(section: run[0], row: run[1], count: run[2]))
    }
    update.insertItems = try runs(p, "itemInserts")
    for (path, value) in try elements(p, "itemMoves") {
      let move = try naturals(value, path, count: 5)
      try positive(move[4], path)
      update.moveItems.append(
        .init(
          from: ListIndexPath(section: move[0], item: move[1]),
          to: ListIndexPath(section: move[2], item: move[3]),
          count: move[4]))
    }
    update.reloadItems = try runs(p, "itemReloads")
    update.reconfigureItems = try runs(p, "itemReconfigures")
    // A windowed subscriber's rows entering its window: rows already in their sections, which
    // UIKit never sees as changes; only their form is checked.
    _ = try runs(p, "enter")
    _ = try p.optionalStrings("selected")
    _ = try p.optionalStrings("deselected")
    _ = try p.optionalStrings("expanded")
    _ = try p.optionalStrings("collapsed")
    _ = try p.optionalEnumeration("selectionMode", as: SelectionMode.self)
    // What a changeset says of the list beside its rows: no batch update of UIKit's, but
    // checked for its form like the members above (`emptyState: null` removes one).
    _ = try p.optionalObjects("columns")
    _ = try p.optionalObject("emptyState")
    _ = try p.optionalBool("editing")
    return update
  }

  /// The rows an inserted section brings: a full section's `rows`, or a counted section's
  /// `rowCount` (a lean answer carries none of its rows, a windowed subscriber only those from
  /// `rowsAt` inside its window).
  private static func insertedSectionCount(_ section: Params) throws(ResponseError) -> Int {
    try section.requireKnown(["id", "header", "footer", "kind", "headerMode", "rows", "rowCount", "rowsAt"])
    let rows = try section.optionalArray("rows")?.count ?? 0
    guard try section.contains("rowCount") else {
      if try section.contains("rowsAt") {
        throw section.invalid("rowsAt", "is only allowed beside \"\(section.path(of: "rowCount"))\"")
      }
      return rows
    }
    let count = try natural(try section.value("rowCount"), section.path(of: "rowCount"))
    // `rowsAt` is present exactly when `rows` is not empty, as listd emits it.
    let hasAt = try section.contains("rowsAt")
    if hasAt && rows == 0 {
      throw section.invalid("rowsAt", "is only allowed beside a non-empty \"\(section.path(of: "rows"))\"")
    }
    if !hasAt && rows > 0 {
      throw section.invalid(
        "rows", "carries \(rows) rows of a counted section without \"\(section.path(of: "rowsAt"))\"")
    }
    let at = hasAt ? try natural(try section.value("rowsAt"), section.path(of: "rowsAt")) : 0
    guard at + rows <= count else {
      throw section.invalid(
        "rows", "carries \(rows) rows from row \(at), beyond the section's rowCount \(count)")
    }
    return count
  }

  /// `[{"at": [section, start], "rows": [row…]} | {"at": …, "count": n}]`.
  private static func runs(_ p: Params, _ key: String) throws(ResponseError) -> [BatchUpdate.ItemRun] {
    var result: [BatchUpdate.ItemRun] = []
    for run in try p.optionalObjects(key) ?? [] {
      try run.requireKnown(["at", "rows", "count"])
      let at = try naturals(try run.value("at"), run.path(of: "at"), count: 2)
      let which = try run.requireOne(of: ["rows", "count"], "a run")
      let count = which == "rows" ? try run.array("rows").count : try run.int("count")
      try positive(count, run.path(of: which))
      result.append(.init(section: at[0], row: at[1], count: count))
    }
    return result
  }

  private static func uikitUpdate(_ p: Params) throws(ResponseError) -> BatchUpdate {
    var update = BatchUpdate()
    func sections(_ key: String) throws(ResponseError) -> [Int] {
      var result: [Int] = []
      for (path, value) in try elements(p, key) { result.append(try natural(value, path)) }
      return result
    }
    func paths(_ key: String) throws(ResponseError) -> [BatchUpdate.ItemRun] {
      var result: [BatchUpdate.ItemRun] = []
      for (path, value) in try elements(p, key) {
        let indexPath = try naturals(value, path, count: 2)
        result.append(.init(section: indexPath[0], row: indexPath[1]))
      }
      return result
    }
    update.deleteSections = try sections("deleteSections")
    update.insertSections = try sections("insertSections")
    update.reloadSections = try sections("reloadSections")
    for (path, value) in try elements(p, "moveSections") {
      let move = try naturals(value, path, count: 2)
      update.moveSections.append(.init(from: move[0], to: move[1]))
    }
    update.deleteItems = try paths("deleteItems")
    update.insertItems = try paths("insertItems")
    update.reloadItems = try paths("reloadItems")
    update.reconfigureItems = try paths("reconfigureItems")
    for (path, value) in try elements(p, "moveItems") {
      guard case .array(let pair) = value, pair.count == 2 else {
        throw .invalidParams(
          "\"\(path)\" must be a pair of index paths [[section, item], [section, item]], got \(value.abbreviatedJSON)",
          field: path)
      }
      let from = try naturals(pair[0], path + "[0]", count: 2)
      let to = try naturals(pair[1], path + "[1]", count: 2)
      update.moveItems.append(
        .init(
          from: ListIndexPath(section: from[0], item: from[1]), to: ListIndexPath(section: to[0], item: to[1])
        ))
    }
    return update
  }

  // MARK: Snapshots

  /// The identifiers `check/snapshot` checks: from `content` (every item, children included,
  /// in its section) or from `flat` (`{sections: [id], items: [{id, section?}]}`, where an
  /// item can name a missing section or none).
  /// With `content`, also the problems of its cells: an item with more than one instance of a
  /// system accessory (`duplicateSystemAccessory`, one problem per item and type).
  public static func snapshotIdentifiers(_ p: Params) throws(ResponseError) -> (
    sections: [String], items: [SnapshotCheckItem], cellProblems: [CheckProblem]
  ) {
    if try p.requireOne(of: ["content", "flat"], "check/snapshot") == "content" {
      let object = try p.object("content")
      let decoded = ContentDecoding.$acceptsRepeatedSystemAccessories.withValue(true) {
        Result { () throws(ResponseError) in try ContentDecoding.content(object) }
      }
      let content = try decoded.get()
      var items: [SnapshotCheckItem] = []
      var problems: [CheckProblem] = []
      func add(_ trees: [OutlineNode], _ section: String) {
        for tree in trees {
          items.append(SnapshotCheckItem(id: tree.item.id, section: section))
          let accessories = tree.item.payload.placedAccessories.map(\.accessory)
          for type in ListAccessory.repeatedSystemTypes(accessories) {
            problems.append(
              CheckProblem(
                .duplicateSystemAccessory, UIKitMessages.duplicateSystemAccessory(type, item: tree.item.id),
                at: .identifiers([tree.item.id])))
          }
          add(tree.children, section)
        }
      }
      for section in content { add(section.trees, section.spec.id) }
      return (content.map(\.spec.id), items, problems)
    }
    let flat = try p.object("flat")
    try flat.requireKnown(["sections", "items"])
    let sections = try flat.optionalStrings("sections") ?? []
    var items: [SnapshotCheckItem] = []
    for item in try flat.optionalObjects("items") ?? [] {
      try item.requireKnown(["id", "section"])
      items.append(SnapshotCheckItem(id: try item.string("id"), section: try item.optionalString("section")))
    }
    return (sections, items, [])
  }

  // MARK: Answers

  /// `{valid: true, after}` or `{valid: false, problems}`.
  public static func answer(_ result: BatchUpdateCheckResult) -> JSONValue {
    switch result {
    case .valid(let after): return ["valid": true, "after": .array(after.map { .int(Int64($0)) })]
    case .invalid(let problems): return ["valid": false, "problems": .array(problems.map(problem))]
    }
  }

  /// `{valid: true}` or `{valid: false, problems}`.
  public static func answer(_ problems: [CheckProblem]) -> JSONValue {
    problems.isEmpty ? ["valid": true] : ["valid": false, "problems": .array(problems.map(problem))]
  }

  /// `{rule, message, at?}`: `at` is a section index, an index path `[section, item]`, or
  /// identifiers; absent for the section-count rule.
  public static func problem(_ problem: CheckProblem) -> JSONValue {
    var object: JSONObject = ["rule": .string(problem.rule.rawValue), "message": .string(problem.message)]
    switch problem.at {
    case .section(let section)?: object.append("at", .int(Int64(section)))
    case .indexPath(let path)?: object.append("at", [.int(Int64(path.section)), .int(Int64(path.item))])
    case .identifiers(let ids)?: object.append("at", .array(ids.map { .string($0) }))
    case nil: break
    }
    return .object(object)
  }

  // MARK: Numbers

  /// The elements of an optional array member, each with its path.
  private static func elements(_ p: Params, _ key: String) throws(ResponseError) -> [(String, JSONValue)] {
    let base = p.path(of: key)
    return (try p.optionalArray(key) ?? []).enumerated().map { ("\(base)[\($0.offset)]", $0.element) }
  }

  /// The largest count or index accepted (UIKit's are 32-bit too); sums of them cannot overflow.
  public static let maxValue = Int(Int32.max)

  private static func natural(_ value: JSONValue, _ path: String) throws(ResponseError) -> Int {
    guard let int = value.intValue.flatMap({ Int(exactly: $0) }), int >= 0, int <= maxValue else {
      throw .invalidParams(
        "\"\(path)\" must be a non-negative integer of at most \(maxValue), got \(value.abbreviatedJSON)",
        field: path)
    }
    return int
  }

  private static func naturals(_ value: JSONValue, _ path: String, count: Int) throws(ResponseError) -> [Int]
  {
    guard case .array(let elements) = value, elements.count == count else {
      throw .invalidParams(
        "\"\(path)\" must be an array of \(count) non-negative integers, got \(value.abbreviatedJSON)",
        field: path)
    }
    var result: [Int] = []
    for (index, element) in elements.enumerated() { result.append(try natural(element, "\(path)[\(index)]")) }
    return result
  }

  private static func positive(_ count: Int, _ path: String) throws(ResponseError) {
    guard count > 0, count <= maxValue else {
      throw .invalidParams(
        "\"\(path)\" must count between 1 and \(maxValue) rows, got \(count)", field: path)
    }
  }
}
