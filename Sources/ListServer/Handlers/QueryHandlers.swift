// Handlers of queries: sections, items, window, item, itemAt, selection, outline, search, counts (and content).
import JSON
import JSONRPC
import ListModel
import ListProtocol

/// Every answer names the list and the version it describes.
enum QueryHandlers {
  static let requests: [RequestMethod] = [
    .query("query/sections", sections),
    .query("query/items", items),
    .query("query/window", window),
    .query("query/item", item),
    .query("query/itemAt", itemAt),
    .query("query/selection", selection),
    .query("query/outline", inline: false, outline),
    .query("query/search", inline: false, search),
    .query("query/counts", counts),
    .query("query/content", inline: false, VersionHandlers.content),
  ]

  /// Resolves the list and answers `body`'s members after `{list, version}`; `body` gets the
  /// snapshot — the committed one, or the one at `atVersion` when the params give it — the
  /// params and the list id. Callers read their other members before calling this, so a bad
  /// member is reported before an unknown list.
  static func query(
    _ context: HandlerContext, _ request: IncomingRequest, keys: [String],
    _ body: @escaping @Sendable (ListSnapshot, Params, _ list: String) throws -> [(String, JSONValue)]
  ) throws {
    let p = request.params
    try p.requireKnown(["list", "atVersion"] + keys)
    let atVersion = try p.atVersion()
    let list = try context.registry.list(try p.string("list"))
    context.read(list, request, atVersion: atVersion) { version, snapshot in
      var object: JSONObject = ["list": .string(list.id), "version": .int(Int64(version))]
      for (key, value) in try body(snapshot, p, list.id) { object.append(key, value) }
      return .object(object)
    }
  }

  /// O(sections).
  static func sections(_ context: HandlerContext, _ request: IncomingRequest) throws {
    try query(context, request, keys: []) { snapshot, _, _ in
      let sections = snapshot.sectionIdentifiers.enumerated().map { index, id -> JSONValue in
        var object = RowEncoding.sectionHeader(
          id: id, header: snapshot.header(ofSection: id), footer: snapshot.footer(ofSection: id),
          kind: snapshot.kind(ofSection: id), headerMode: snapshot.headerMode(ofSection: id))
        object.append("index", .int(Int64(index)))
        object.append("items", .int(Int64(snapshot.numberOfItems(inSection: id, includingHidden: true) ?? 0)))
        object.append("rows", .int(Int64(snapshot.numberOfItems(inSection: id) ?? 0)))
        return .object(object)
      }
      return [("sections", .array(sections))]
    }
  }

  /// The `offset`/`limit` of a paged query, checked against the server's window limit.
  private static func page(_ p: Params, _ context: HandlerContext, defaultLimit: Int?) throws -> (Int, Int) {
    let offset = try p.optionalInt("offset") ?? 0
    guard offset >= 0 else { throw p.invalid("offset", "must be 0 or more, got \(offset)") }
    let max = context.options.maxWindow
    let limit = try defaultLimit.map { try p.optionalInt("limit") ?? $0 } ?? p.int("limit")
    guard limit >= 0 && limit <= max else {
      throw p.invalid("limit", "must be between 0 and \(max), got \(limit)")
    }
    return (offset, limit)
  }

  /// A section's visible rows, paged. O(log n + rows returned).
  static func items(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let (offset, limit) = try page(request.params, context, defaultLimit: context.options.maxWindow)
    let section = try request.params.string("section")
    try query(context, request, keys: ["section", "offset", "limit"]) { snapshot, _, list in
      guard let index = snapshot.index(ofSection: section) else {
        throw ResponseError.unknownSection(section, in: list)
      }
      let total = snapshot.numberOfItems(inSection: section) ?? 0
      let rows = snapshot.rows(inSectionAt: index, range: offset..<(offset + limit))
      return [
        ("section", .string(section)), ("total", .int(Int64(total))), ("offset", .int(Int64(offset))),
        ("rows", RowEncoding.rows(rows)),
      ]
    }
  }

  /// A window of the flattened visible rows across sections. O(sections + log n + rows returned).
  static func window(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let (offset, limit) = try page(request.params, context, defaultLimit: nil)
    try query(context, request, keys: ["offset", "limit"]) { snapshot, _, _ in
      WindowEncoding.window(snapshot, offset: offset, limit: limit).map { ($0.key, $0.value) }
    }
  }

  /// Everything about one item: its row plus section, index path, children, visibility, selection.
  static func itemInfo(_ id: String, in snapshot: ListSnapshot) -> JSONValue? {
    guard let row = snapshot.row(ofItem: id), let section = snapshot.sectionIdentifier(containingItem: id),
      case .object(var object) = RowEncoding.row(row)
    else { return nil }
    object.append("section", .string(section))
    object.append(
      "indexPath",
      snapshot.indexPath(for: id).map { [.int(Int64($0.section)), .int(Int64($0.item))] } ?? .null)
    object.append("children", .array(snapshot.children(of: id).map { .string($0) }))
    object.append("visible", .bool(snapshot.isVisible(id)))
    object.append("selected", .bool(snapshot.isSelected(id)))
    return .object(object)
  }

  /// O(log n + children).
  static func item(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let id = try request.params.string("item")
    try query(context, request, keys: ["item"]) { snapshot, _, list in
      guard let info = itemInfo(id, in: snapshot) else { throw ResponseError.unknownItem(id, in: list) }
      return [("item", info)]
    }
  }

  /// O(log n + children).
  static func itemAt(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    let path = try p.array("indexPath")
    guard path.count == 2, let section = path[0].intValue, let row = path[1].intValue else {
      throw p.mismatch("indexPath", "[section, row] (two integers)", .array(path))
    }
    try query(context, request, keys: ["indexPath"]) { snapshot, _, list in
      guard let id = snapshot.item(at: ListIndexPath(section: Int(section), item: Int(row))),
        let info = itemInfo(id, in: snapshot)
      else {
        throw ResponseError(
          .invalidParams, "\"indexPath\" [\(section), \(row)] is not a visible row of the list",
          data: ["field": "indexPath"])
      }
      return [("item", info)]
    }
  }

  /// O(s log n) for s selected items.
  static func selection(_ context: HandlerContext, _ request: IncomingRequest) throws {
    try query(context, request, keys: []) { snapshot, _, _ in
      let items = snapshot.selectedItems.map { id -> JSONValue in
        let path = snapshot.indexPath(for: id).map {
          JSONValue.array([.int(Int64($0.section)), .int(Int64($0.item))])
        }
        return ["id": .string(id), "indexPath": path ?? .null]
      }
      return [("mode", .string(snapshot.selectionMode.rawValue)), ("items", .array(items))]
    }
  }

  /// Outline state down to `depth`: of an item's subtree, a section's roots, or every section's
  /// roots in section order. Each top-level node names its `section`. O(nodes returned).
  static func outline(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    if try p.contains("item") && p.contains("section") {
      throw p.invalid("section", "cannot be given with \"item\" (an item's subtree is in its own section)")
    }
    let depth = try p.optionalInt("depth") ?? Int.max
    guard depth >= 0 else { throw p.invalid("depth", "must be 0 or more, got \(depth)") }
    let item = try p.optionalString("item")
    let section = try p.optionalString("section")
    try query(context, request, keys: ["item", "section", "depth"]) { snapshot, _, list in
      func node(_ id: String, _ remaining: Int, section: String? = nil) -> JSONValue {
        var object: JSONObject = ["id": .string(id)]
        if let section { object.append("section", .string(section)) }
        if let text = snapshot.payload(of: id)?.content.text { object.append("text", .string(text)) }
        object.append("expanded", .bool(snapshot.isExpanded(id)))
        if snapshot.hasChildren(id) { object.append("hasChildren", true) }
        let children = remaining > 0 ? snapshot.children(of: id).map { node($0, remaining - 1) } : []
        object.append("children", .array(children))
        return .object(object)
      }
      let sections: [String]
      if let item {
        guard let section = snapshot.sectionIdentifier(containingItem: item) else {
          throw ResponseError.unknownItem(item, in: list)
        }
        return [("nodes", [node(item, depth, section: section)])]
      } else if let section {
        guard snapshot.contains(section: section) else {
          throw ResponseError.unknownSection(section, in: list)
        }
        sections = [section]
      } else {
        sections = snapshot.sectionIdentifiers
      }
      let nodes = sections.flatMap { section in
        snapshot.rootItems(inSection: section).map { node($0, depth, section: section) }
      }
      return [("nodes", .array(nodes))]
    }
  }

  /// Items whose text or secondary text contains `text`, in list order, hidden ones included.
  /// O(items × text length).
  static func search(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let maxWindow = context.options.maxWindow
    let p = request.params
    let needle = try p.string("text")
    let caseSensitive = try p.optionalBool("caseSensitive") ?? false
    let limit = try p.optionalInt("limit") ?? 1_000
    guard limit >= 0 && limit <= maxWindow else {
      throw p.invalid("limit", "must be between 0 and \(maxWindow), got \(limit)")
    }
    try query(context, request, keys: ["text", "caseSensitive", "limit"]) { snapshot, _, _ in
      let folded = caseSensitive ? needle : needle.lowercased()
      func matches(_ text: String?) -> Bool {
        guard let text else { return false }
        return (caseSensitive ? text : text.lowercased()).contains(folded)
      }
      var found: [JSONValue] = []
      var truncated = false
      search: for section in snapshot.sectionIdentifiers {
        for id in snapshot.itemIdentifiers(inSection: section, includingHidden: true) {
          guard let content = snapshot.payload(of: id)?.content,
            needle.isEmpty || matches(content.text) || matches(content.secondaryText)
          else { continue }
          if found.count == limit {
            truncated = true
            break search
          }
          let path = snapshot.indexPath(for: id).map {
            JSONValue.array([.int(Int64($0.section)), .int(Int64($0.item))])
          }
          found.append(["id": .string(id), "section": .string(section), "indexPath": path ?? .null])
        }
      }
      return [("matches", .array(found)), ("truncated", .bool(truncated))]
    }
  }

  /// O(sections).
  static func counts(_ context: HandlerContext, _ request: IncomingRequest) throws {
    try query(context, request, keys: []) { snapshot, _, _ in
      [
        ("sections", .int(Int64(snapshot.numberOfSections))),
        ("items", .int(Int64(snapshot.numberOfItems(includingHidden: true)))),
        ("rows", .int(Int64(snapshot.numberOfItems()))),
        ("selected", .int(Int64(snapshot.selectedItems.count))),
      ]
    }
  }
}
