// Handlers that change content: list/replace, list/edit, outline/* and selection/*.
import JSON
import JSONRPC
import ListModel
import ListProtocol

enum ContentHandlers {
  static let requests: [RequestMethod] = [
    .change("list/replace", replace),
    .change("list/edit", edit),
    .change("outline/expand") { context, request in try expandOrCollapse(context, request, expand: true) },
    .change("outline/collapse") { context, request in try expandOrCollapse(context, request, expand: false) },
    .change("outline/expandToLevel", expandToLevel),
    .change("selection/select") { context, request in
      try selection(context, request, ids: true) { .select($0) }
    },
    .change("selection/deselect") { context, request in
      try selection(context, request, ids: true) { .deselect($0) }
    },
    .change("selection/selectAll") { context, request in
      try selection(context, request, ids: false) { _ in .selectAll }
    },
    .change("selection/deselectAll") { context, request in
      try selection(context, request, ids: false) { _ in .deselectAll }
    },
  ]

  /// Queues `edits` (decoded on the list's queue, so a large batch does not hold up the
  /// reading thread) as one atomic change of the list named in the params, honouring
  /// `ifVersion` and, for a `batch` (`list/edit`), `explain`. Only a batch names the failing
  /// edit in its errors (`data.editIndex`).
  private static func change(
    _ context: HandlerContext, _ request: IncomingRequest, batch: Bool = false,
    decode: @escaping @Sendable () throws(ResponseError) -> DecodedEdits
  ) throws {
    let p = request.params
    let ifVersion = try p.optionalInt("ifVersion")
    let explain = batch ? try p.optionalBool("explain") ?? false : false
    let list = try context.registry.list(try p.string("list"))
    try list.refuseEditIfView(request.method)
    let source = ChangeSource(method: request.method, by: context.session.ownerInfo)
    // The journal keeps a batch as sent; without a journal its tree is never built.
    let wireEdits = batch && list.journal != nil ? try p.member("edits") : nil
    let rows = try AnswerRows(p)
    context.changeOnQueue(of: list, request) {
      try ListChanges.mutate(list, ifVersion: ifVersion, source: source, wireEdits: wireEdits) {
        snapshot throws(ResponseError) in
        let edits = try decode()
        return (try edits.applyAndDiff(to: &snapshot, list: list.id, batch: batch), edits)
      }.answer(rows: rows, explain: explain)
    }
  }

  /// `list/edit`: a batch of wire edits, atomically.
  static func edit(_ context: HandlerContext, _ request: IncomingRequest) throws {
    try request.params.requireKnown(["list", "edits", "ifVersion", "explain", "rows", "workDoneToken"])
    // A type error is answered before queuing. Edits kept as bytes are decoded from them.
    let text = request.params.memberText("edits").flatMap { $0.isArray ? $0 : nil }
    if text == nil { _ = try request.params.array("edits") }
    try change(context, request, batch: true) { () throws(ResponseError) in
      if let text { return try EditDecoding.edits(text) }
      return try EditDecoding.edits(request.params)
    }
  }

  /// `list/replace`: the whole content. Items that stay keep their expansion (unless the
  /// content says) and their selection.
  static func replace(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list", "content", "ifVersion", "explain", "rows", "workDoneToken"])
    let ifVersion = try p.optionalInt("ifVersion")
    let rows = try AnswerRows(p)
    let explain = try p.optionalBool("explain") ?? false
    let source = ChangeSource(method: request.method, by: context.session.ownerInfo)
    let content = try contentSource(p)
    let list = try context.registry.list(try p.string("list"))
    try list.refuseEditIfView(request.method)
    context.changeOnQueue(of: list, request) {
      var progress = Progress(context, request, title: "Replacing the content of list '\(list.id)'")
      let current = try list.current(ifVersion: ifVersion)
      let old = current.snapshot
      let sections = try ContentDecoding.content(content, inherit: true, current: old)
      progress.begin(itemCount: ContentDecoding.itemCount(sections))
      defer { progress.end() }
      let snapshot = try replaced(old, by: sections, list: list.id)
      LateRelease.later(sections, items: snapshot.numberOfItems(includingHidden: true))  // (freed after the answer)
      defer { MemoryTrim.afterLargeWork(items: snapshot.numberOfItems(includingHidden: true)) }
      return try ListChanges.commit(
        list, snapshot, changeset: diff(old, snapshot), from: current, source: source,
        journaled: list.journal == nil ? nil : content.json.map(JournaledChange.content)
      ).answer(rows: rows, explain: explain)
    }
  }

  /// The required content object `key` of `p`: its bytes when the params are kept as bytes,
  /// else its tree. Throws as ``Params/object(_:)`` does (missing, or not an object).
  static func contentSource(_ p: Params, _ key: String = "content") throws(ResponseError) -> ContentSource {
    if let text = p.memberText(key), text.isObject { return .bytes(text, path: p.path(of: key)) }
    return .tree(try p.object(key))
  }

  /// What `list/replace` makes of `old` with `sections` (decoded inheriting expansion): the
  /// new snapshot, keeping the selected items that stay visible and selectable. O(content).
  static func replaced(_ old: ListSnapshot, by sections: [ContentDecoding.SectionContent], list: String)
    throws(ResponseError)
    -> ListSnapshot
  {
    do throws(ListModelError) {
      var snapshot = try ContentDecoding.snapshot(
        sections, sharingWith: old, selectionMode: old.selectionMode)
      let kept = old.selectedItems.filter {
        snapshot.isVisible($0) && snapshot.payload(of: $0)?.isSelectable == true
      }
      if !kept.isEmpty { try snapshot.select(old.selectionMode == .single ? [kept[0]] : kept) }
      return snapshot
    } catch {
      throw ResponseError.model(error, list: list)
    }
  }

  /// `outline/expand` and `outline/collapse`: one item, its subtree (`recursive`), or everything.
  static func expandOrCollapse(_ context: HandlerContext, _ request: IncomingRequest, expand: Bool) throws {
    let p = request.params
    try p.requireKnown(["list", "item", "recursive", "ifVersion", "rows"])
    let item = try p.optionalString("item")
    let recursive = try p.optionalBool("recursive") ?? false
    let edit: ListEdit
    switch (item, recursive, expand) {
    case (nil, _, true): edit = .expandAll(section: nil)
    case (nil, _, false): edit = .collapseAll(section: nil)
    case (let id?, false, true): edit = .expand([id])
    case (let id?, false, false): edit = .collapse([id])
    case (let id?, true, true): edit = .expandSubtree(id)
    case (let id?, true, false): edit = .collapseSubtree(id)
    }
    try change(context, request) { DecodedEdits(edits: [edit], origins: [0]) }
  }

  /// `outline/expandToLevel`: rows of levels 0…level-1 expanded, the rest collapsed.
  static func expandToLevel(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list", "level", "section", "ifVersion", "rows"])
    let level = try p.int("level")
    guard level >= 0 else { throw p.invalid("level", "must be 0 or more, got \(level)") }
    let section = try p.optionalString("section")
    try change(context, request) {
      DecodedEdits(edits: [.expandToLevel(level, section: section)], origins: [0])
    }
  }

  /// `selection/*`: `items` when `ids`, else no operands.
  static func selection(
    _ context: HandlerContext, _ request: IncomingRequest, ids: Bool,
    _ make: @escaping @Sendable ([String]) -> ListEdit
  ) throws {
    let p = request.params
    try p.requireKnown(ids ? ["list", "items", "ifVersion", "rows"] : ["list", "ifVersion", "rows"])
    let items = ids ? try p.strings("items") : []
    try change(context, request) { DecodedEdits(edits: [make(items)], origins: [0]) }
  }
}
