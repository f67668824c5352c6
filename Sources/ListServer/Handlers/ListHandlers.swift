// Handlers of list lifetime: list/create, list/dispose, list/all and list/info.
import Dispatch
import JSON
import JSONRPC
import ListModel
import ListProtocol

enum ListHandlers {
  static let requests: [RequestMethod] = [
    .change("list/create", create),
    .change("list/dispose", dispose),
    .change("list/claim", claim),
    .query("list/all", all),
    .query("list/info") { context, request in
      try request.params.requireKnown(["list", "atVersion"])
      let atVersion = try request.params.atVersion()
      let list = try context.registry.list(try request.params.string("list"))
      context.afterOwnRequests(on: list) {
        request.answer {
          _ = try list.current(ifVersion: nil)  // disposed by a request of this session before
          guard let atVersion else { return ListInfo.encode(list) }
          return ListInfo.encode(list, version: atVersion, try list.snapshot(atVersion: atVersion))
        }
      }
    },
  ]

  /// `list/all {offset?, limit?}` → `{lists, total}`: the lists in creation order, paged;
  /// after this session's requests still queued on any list, so it sees their effect.
  /// O(page + lists this session has changes queued on).
  static func all(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["offset", "limit"])
    let offset = try p.optionalInt("offset") ?? 0
    guard offset >= 0 else { throw p.invalid("offset", "must be 0 or more, got \(offset)") }
    let max = context.options.maxWindow
    let limit = try p.optionalInt("limit")
    if let limit, limit < 0 || limit > max {
      throw p.invalid("limit", "must be between 0 and \(max), got \(limit)")
    }
    let group = DispatchGroup()
    for id in context.session.listsWithPendingChanges {
      guard let list = try? context.registry.list(id) else { continue }
      group.enter()
      list.queue.async { group.leave() }
    }
    group.notify(queue: .global()) {
      let (page, total) = context.registry.lists(offset: offset, limit: limit ?? .max)
      request.respond(["lists": .array(page.map(ListInfo.encode)), "total": .int(Int64(total))])
    }
  }

  /// `list/create`: a new list owned by the caller, at version 0 with its initial content.
  /// Answers the changeset from an empty list to that content, without its rows unless asked
  /// (`rows: "all"`): the creator knows its content, and a large one is not echoed.
  static func create(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(
      ["list", "title", "appearance", "selectionMode", "content", "rows", "workDoneToken"]
        + ListAttributeCoding.keys)
    let rows = try AnswerRows(p, default: .none)
    let id = try p.string("list")
    guard !id.isEmpty else { throw p.invalid("list", "must not be empty") }
    let metadata = ListMetadata(
      title: try p.optionalString("title") ?? id,
      appearance: try p.optionalEnumeration("appearance", as: Appearance.self) ?? .plain)
    let mode = try p.optionalEnumeration("selectionMode", as: SelectionMode.self) ?? .single
    // A taken id is reported before problems in the content, as for every method the list
    // comes before its content (Protocol/README.md, "Which error wins").
    if (try? context.registry.list(id)) != nil { throw ResponseError.duplicateList(id) }
    let empty = ListSnapshot(selectionMode: mode)
    var snapshot = empty
    try ListAttributeCoding.decode(p, into: &snapshot, list: id)
    // A null content is absent. (Looked at in its bytes when it has some: not parsed.)
    if try p.memberText("content").map({ !$0.isNull }) ?? p.contains("content") {
      let content = try ContentHandlers.contentSource(p)
      // Without progress to report (which needs the item count first), content in bytes is
      // built as it is read: no array of every decoded item next to the snapshot (the peak).
      if case .bytes(let text, _) = content, (try? p.contains("workDoneToken")) == false,
        let streamed = ContentDecoding.streamedSnapshot(text, sharingWith: snapshot, selectionMode: mode)
      {
        snapshot = streamed
      } else {
        snapshot = try decodeAndBuild(content, context, request, list: id, base: snapshot, mode: mode)
      }
    }
    let created = try context.server.createList(
      id: id, snapshot: snapshot, metadata: metadata, owner: context.session)
    // Without rows the answer counts them: no `Row` of every item is built and freed (at the
    // top of the heap, where a trim does not reach it: 55 bytes an item stayed resident).
    let changes = ListSnapshot.diff(from: empty, to: snapshot, rowsOfInsertedSections: rows == .all)
    let changeset = ChangesetEncoding.changeset(changes, rows: rows.encoding)
    // In `--sync batch` mode the creation is answered once the journal has made it durable.
    request.answer(
      DurableAnswer(
        ListChanges.result(list: id, version: 0, changeset: changeset), after: created.durabilityTicket))
    MemoryTrim.afterLargeWork(items: snapshot.numberOfItems(includingHidden: true))
  }

  /// Create's content decoded whole, then built (with `$/progress` around the build when asked).
  private static func decodeAndBuild(
    _ content: ContentSource, _ context: HandlerContext, _ request: IncomingRequest, list id: String,
    base: ListSnapshot, mode: SelectionMode
  ) throws -> ListSnapshot {
    var progress = Progress(context, request, title: "Loading list '\(id)'")
    let sections = try ContentDecoding.content(content, inherit: false)
    progress.begin(itemCount: ContentDecoding.itemCount(sections))
    defer { progress.end() }
    do {
      return try ContentDecoding.snapshot(sections, sharingWith: base, selectionMode: mode)
    } catch {
      throw ResponseError.model(error, list: id)
    }
  }

  /// `list/dispose`: after every change queued before it; every session gets `list/didDispose`.
  /// A list another live session owns needs `force`, and that owner gets `owner/lost`.
  static func dispose(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let (list, force) = try listAndForce(context, request)
    context.changeOnQueue(of: list, request) {
      _ = try list.current(ifVersion: nil)
      let displaced = try list.checkOwnership(by: context.session, force: force, action: "dispose")
      // Told before the list/didDispose that everybody gets, so the owner knows why it comes.
      displaced?.lost(list, reason: "disposed", by: context.session.identity)
      return try context.server.dispose(list)
    }
  }

  /// `list/claim`: the caller becomes the owner of a list whose owner's session closed (or of a
  /// list the daemon loaded). A list another live session owns needs `force`, and that owner
  /// gets `owner/lost`. Answers `{list, owner}`.
  static func claim(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let (list, force) = try listAndForce(context, request)
    context.onQueue(of: list, request) {
      _ = try list.current(ifVersion: nil)
      let displaced = try list.checkOwnership(by: context.session, force: force, action: "claim")
      list.setOwner(context.session)
      if context.session.isDetached { context.server.orphan(list, from: context.session) }
      displaced?.lost(list, reason: "claimed", by: context.session.identity)
      return ["list": .string(list.id), "owner": context.session.ownerInfo]
    }
  }

  /// The `{list, force?}` params of `list/dispose` and `list/claim`, checked before the list.
  private static func listAndForce(
    _ context: HandlerContext, _ request: IncomingRequest
  ) throws -> (LiveList, force: Bool) {
    let p = request.params
    try p.requireKnown(["list", "force"])
    let id = try p.string("list")
    let force = try p.optionalBool("force") ?? false
    return (try context.registry.list(id), force)
  }
}
