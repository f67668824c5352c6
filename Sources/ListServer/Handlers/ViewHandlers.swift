// Handlers of live views: view/create, view/update and view/info.
import JSON
import JSONRPC
import ListModel
import ListProtocol

/// A view is a list derived from another list (or view) by filter, sort and group, kept live by
/// the daemon. Once created it is a list for every method that reads (`list/subscribe`,
/// `query/*`, `list/explain`, …); edits are refused; `list/dispose` disposes it.
enum ViewHandlers {
  static let requests: [RequestMethod] = [
    .change("view/create", create),
    .change("view/update", update),
    .query("view/info", info),
  ]

  /// `view/create {view, source, title?, filter?, sort?, group?}` → `{list, source, version: 0,
  /// changeset}`: a new list owned by the caller holding the source's rows as the definition says.
  static func create(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["view", "source", "title", "filter", "sort", "group"])
    let id = try p.string("view")
    guard !id.isEmpty else { throw p.invalid("view", "must not be empty") }
    let title = try p.optionalString("title") ?? id
    let definition = try ViewDecoding.definition(p)
    let source = try context.registry.list(try p.string("source"))
    if (try? context.registry.list(id)) != nil { throw ResponseError.duplicateList(id) }
    // Made synchronously (after everything queued on the source), so this session's next
    // requests find the view.
    onSourceQueue(source, request) {
      let committed = try source.current(ifVersion: nil)
      try ViewDecoding.checkColumns(p, columns: committed.snapshot.columns, source: source.id)
      let engine = ViewEngine(definition: definition, source: committed.snapshot)
      var snapshot = engine.makeSnapshot(selectionMode: committed.snapshot.selectionMode)
      snapshot.setEmptyState(ViewDerivation.emptyState(of: snapshot, definition: definition))
      let derivation = ViewDerivation(source: source, engine: engine)
      let metadata = ListMetadata(title: title, appearance: committed.metadata.appearance)
      let view = try context.server.createList(
        id: id, snapshot: snapshot, metadata: metadata, owner: context.session, derivation: derivation
      ).list
      source.addView(view)  // on the source's queue: no source change slips in between
      let empty = ListSnapshot(selectionMode: snapshot.selectionMode)
      return [
        "list": .string(id), "source": .string(source.id), "version": 0,
        "changeset": ChangesetEncoding.changeset(diff(empty, snapshot)),
      ]
    }
  }

  /// Runs `body` on `source`'s queue, waiting for it, and answers with its result: the view it
  /// makes or changes is there before this session's next request is read.
  private static func onSourceQueue(
    _ source: LiveList, _ request: IncomingRequest, _ body: @escaping @Sendable () throws -> JSONValue
  ) {
    let result = source.queue.sync { Result { try body() } }
    request.answer { try result.get() }
  }

  /// The view named `view` in the params, or -32010 (also for a list that is not a view).
  private static func view(_ context: HandlerContext, _ p: Params) throws -> (LiveList, ViewDerivation) {
    let id = try p.string("view")
    let list = try context.registry.list(id)
    guard let derivation = list.derivation else {
      throw ResponseError(
        .unknownList, "'\(id)' is a list, not a view (view/create makes one)", data: ["list": .string(id)])
    }
    return (list, derivation)
  }

  /// `view/update {view, filter?, sort?, group?}` → `{list, version, changeset}`: members given
  /// replace the definition's (null removes), in one changeset.
  static func update(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["view", "filter", "sort", "group"])
    let (view, derivation) = try view(context, p)
    let definition = try ViewDecoding.definition(p, base: derivation.definition)
    onSourceQueue(derivation.source, request) {
      _ = try view.current(ifVersion: nil)
      let source = try derivation.source.current(ifVersion: nil)
      try ViewDecoding.checkColumns(p, columns: source.snapshot.columns, source: derivation.source.id)
      return try derivation.redefine(definition, view: view, by: context.session)
    }
  }

  /// `view/info {view}` → `{view, source, filter, sort, group, version, rows}`.
  static func info(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["view"])
    let (view, derivation) = try view(context, p)
    context.afterOwnRequests(on: view) {
      request.answer {
        let committed = try view.current(ifVersion: nil)
        var answer: JSONObject = ["view": .string(view.id), "source": .string(derivation.source.id)]
        for (key, value) in ViewDecoding.encode(derivation.definition).objectValue ?? [:] {
          answer.append(key, value)
        }
        answer.append("version", .int(Int64(committed.version)))
        answer.append("rows", .int(Int64(committed.snapshot.numberOfItems())))
        return .object(answer)
      }
    }
  }
}
