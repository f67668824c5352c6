// Handlers of user events from viewers, checked and forwarded to the list's owner.
import JSON
import JSONRPC
import ListModel
import ListProtocol

/// A viewer reports what its user did; the daemon checks it against the current version and
/// forwards it to the owner as `owner/event`. Select and deselect also change the selection
/// (the daemon owns it, as a collection view does); the owner decides about everything else.
enum EventHandlers {
  static let requests: [RequestMethod] = [
    .change("event/select") { context, request in try selection(context, request, select: true) },
    .change("event/deselect") { context, request in try selection(context, request, select: false) },
    .query("event/toggle", toggle),
    .query("event/action", action),
    .query("event/delete", delete),
    .query("event/move", move),
    .query("event/refresh", refresh),
  ]

  /// `{list, event, item?, …, session, version}`, as the owner receives it. An event on a view
  /// goes to the owner of the list the view comes from (``LiveList/eventTarget``): `list` and
  /// `version` are that list's, and `view` names the view (its rows are the source's items).
  private static func event(
    _ kind: String, list: LiveList, item: String?, session: Session, version: Int,
    _ operands: [(key: String, value: OwnerEvent.Operand)] = []
  ) -> OwnerEvent {
    let target = list.eventTarget
    return OwnerEvent(
      kind: kind, list: target.id, view: target !== list ? list.id : nil, item: item, operands: operands,
      session: session.id, version: target !== list ? target.committed.version : version)
  }

  /// What a user event is about: the list at its current version, its owner, and the item.
  struct Target {
    let list: LiveList
    let owner: any ListOwner
    let committed: LiveList.Committed
    let item: String
    let payload: ItemPayload
  }

  /// Answers an event that only reports (toggle, action, delete, move) with `body`'s result:
  /// at once, or after this session's requests of the list still queued, so an event sees the
  /// session's own changes (an item it just added). Callers read their own members first, so a
  /// bad member is reported before an unknown list.
  private static func report(
    _ context: HandlerContext, _ request: IncomingRequest, keys: [String],
    _ body: @escaping @Sendable (Target) throws -> JSONValue
  ) throws {
    let p = request.params
    try p.requireKnown(["list", "item"] + keys)
    let item = try p.string("item")
    let list = try context.registry.list(try p.string("list"))
    context.afterOwnRequests(on: list) {
      request.answer { try body(try resolve(list, item)) }
    }
  }

  /// The target of an event, or the error a viewer should see.
  private static func resolve(_ list: LiveList, _ item: String) throws -> Target {
    let committed = try list.current(ifVersion: nil)
    guard let payload = committed.snapshot.payload(of: item) else {
      throw ResponseError.unknownItem(item, in: list.id)
    }
    guard let owner = list.eventTarget.owner else { throw noOwner(list.eventTarget) }
    return Target(list: list, owner: owner, committed: committed, item: item, payload: payload)
  }

  static func noOwner(_ list: LiveList) -> ResponseError {
    ResponseError(
      .noOwner, "list '\(list.id)' has no owner to receive user events", data: ["list": .string(list.id)])
  }

  /// `event/select` / `event/deselect`: changes the selection, then tells the owner (if any).
  static func selection(_ context: HandlerContext, _ request: IncomingRequest, select: Bool) throws {
    let p = request.params
    try p.requireKnown(["list", "item"])
    let item = try p.string("item")
    let list = try context.registry.list(try p.string("list"))
    let session = context.session
    context.changeOnQueue(of: list, request) {
      let change = try ListChanges.mutate(
        list, ifVersion: nil, source: ChangeSource(method: request.method, by: session.ownerInfo)
      ) { snapshot throws(ResponseError) -> (Changeset, DecodedEdits?) in
        guard snapshot.contains(item: item) else { throw ResponseError.unknownItem(item, in: list.id) }
        let edits: [ListEdit] =
          select && snapshot.selectionMode == .single && !snapshot.isSelected(item)
          ? [.deselectAll, .select([item])] : [select ? .select([item]) : .deselect([item])]
        do throws(ListModelError) {
          return (try snapshot.applyAndDiff(edits), DecodedEdits(edits: edits, origins: edits.map { _ in 0 }))
        } catch {
          throw ResponseError.model(ListModelError(error.kind), list: list.id)  // no edit to name
        }
      }
      let version = change.commit.version
      list.eventTarget.owner?.deliver(
        event: event(
          select ? "select" : "deselect", list: list, item: item, session: session, version: version),
        on: list.eventTarget)
      return DurableAnswer(
        ["list": .string(list.id), "version": .int(Int64(version))], after: change.commit.durabilityTicket)
    }
  }

  /// `event/toggle`: the item must have a toggle accessory.
  static func toggle(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let isOn = try request.params.bool("isOn")
    try report(context, request, keys: ["isOn"]) { r in
      guard
        r.payload.accessories.contains(where: { if case .toggle = $0 { return true } else { return false } })
      else {
        throw ResponseError(
          .invalidEdit, "item '\(r.item)' of list '\(r.list.id)' has no toggle accessory",
          data: ["item": .string(r.item), "reason": "no toggle accessory"])
      }
      return forward(r, "toggle", from: context.session, [("isOn", .bool(isOn))])
    }
  }

  /// `event/action`: the action must be one of the item's swipe, context-menu or pop-up actions
  /// (in a submenu too), and not disabled.
  static func action(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let action = try request.params.string("action")
    try report(context, request, keys: ["action"]) { r in
      var actions =
        r.payload.leadingSwipeActions + r.payload.trailingSwipeActions + r.payload.contextMenuActions
      for case .popUpMenu(let menu) in r.payload.accessories { actions += menu }
      // A submenu's actions count, the submenu itself does not; nor does a disabled action.
      var triggerable: [ListAction] = []
      while let next = actions.popLast() {
        if next.children.isEmpty { triggerable.append(next) } else { actions += next.children }
      }
      actions = triggerable.reversed().filter { !$0.isDisabled }
      guard actions.contains(where: { $0.id == action }) else {
        let known = actions.map { "'\($0.id)'" }.joined(separator: ", ")
        throw ResponseError(
          .invalidParams,
          "\"action\" '\(action)' is not an action of item '\(r.item)' (its actions: \(known.isEmpty ? "none" : known))",
          data: ["field": "action"])
      }
      return forward(r, "action", from: context.session, [("action", .string(action))])
    }
  }

  /// `event/delete`: the owner decides whether to delete.
  static func delete(_ context: HandlerContext, _ request: IncomingRequest) throws {
    try report(context, request, keys: []) { r in forward(r, "delete", from: context.session) }
  }

  /// `event/move`: the item must be movable; the target must exist.
  static func move(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    let key = try p.requireOne(of: ["before", "after", "section"], "event/move")
    let target = try p.string(key)
    try report(context, request, keys: ["before", "after", "section"]) { r in
      guard r.payload.isMovable else {
        throw ResponseError(
          .invalidEdit, "item '\(r.item)' of list '\(r.list.id)' is not movable",
          data: ["item": .string(r.item), "reason": "not movable"])
      }
      let snapshot = r.committed.snapshot
      if key == "section" {
        guard snapshot.contains(section: target) else {
          throw ResponseError.unknownSection(target, in: r.list.id)
        }
      } else {
        guard snapshot.contains(item: target) else { throw ResponseError.unknownItem(target, in: r.list.id) }
        guard target != r.item else {
          throw ResponseError(
            .invalidEdit, "item '\(r.item)' cannot be moved relative to itself",
            data: ["reason": "moved relative to itself"])
        }
      }
      return forward(r, "move", from: context.session, [(key, .string(target))])
    }
  }

  /// Sends the owner the `kind` event about the target (with its `operands`) and answers
  /// the viewer with the version the event was checked against.
  private static func forward(
    _ r: Target, _ kind: String, from session: Session,
    _ operands: [(key: String, value: OwnerEvent.Operand)] = []
  ) -> JSONValue {
    r.owner.deliver(
      event: event(
        kind, list: r.list, item: r.item, session: session, version: r.committed.version, operands),
      on: r.list.eventTarget)
    return ["list": .string(r.list.id), "version": .int(Int64(r.committed.version))]
  }

  /// `event/refresh`: asks the owner (`owner/refresh`) and answers once it has, or on timeout.
  static func refresh(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list", "timeoutMs"])
    var timeout = context.options.refreshTimeout
    if let ms = try p.optionalInt("timeoutMs") {
      let max = context.options.maxRefreshTimeout
      guard ms > 0 && Duration.milliseconds(ms) <= max else {
        throw p.invalid(
          "timeoutMs", "must be between 1 and \(LifecycleHandlers.milliseconds(max)), got \(ms)")
      }
      timeout = .milliseconds(ms)
    }
    let viewed = try context.registry.list(try p.string("list"))
    let list = viewed.eventTarget  // a view's refresh goes to the owner of its source
    guard let owner = list.owner else { throw noOwner(list) }
    owner.refresh(list, viewer: context.session.id, timeout: timeout) { error in
      if let error {
        request.respond(error: ResponseError(error))
      } else {
        // After every change the owner queued before answering.
        list.queue.async {
          request.answer { ["list": .string(list.id), "version": .int(Int64(list.committed.version))] }
        }
      }
    }
  }
}
