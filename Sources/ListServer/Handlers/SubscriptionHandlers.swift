// Handlers of subscriptions: list/subscribe, list/unsubscribe and list/changesSince.
import Dispatch
import JSON
import JSONRPC
import ListModel
import Synchronization

enum SubscriptionHandlers {
  static let requests: [RequestMethod] = [
    .query("list/subscribe", subscribe),
    .query("list/unsubscribe", unsubscribe),
    .query("list/changesSince", changesSince),
  ]

  /// What a subscribe answer carries for each list.
  enum SnapshotKind: String, CaseIterable {
    case full, window, none
  }

  /// `list/subscribe`: one list, or every list (present and future). Each list's registration
  /// runs on its queue, atomically with the state answered, so the session receives every
  /// change after the answered version and none before.
  static func subscribe(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list", "snapshot", "window"])
    let kind = try p.optionalEnumeration("snapshot", as: SnapshotKind.self) ?? .full
    var requestedWindow: (offset: Int, limit: Int)?
    if let w = try p.optionalObject("window") {
      try w.requireKnown(["offset", "limit"])
      let offset = try w.int("offset")
      let limit = try w.int("limit")
      guard offset >= 0 else { throw w.invalid("offset", "must be 0 or more, got \(offset)") }
      guard limit >= 0 && limit <= context.options.maxWindow else {
        throw w.invalid("limit", "must be between 0 and \(context.options.maxWindow), got \(limit)")
      }
      requestedWindow = (offset, limit)
    }
    let window = requestedWindow
    if kind == .window && window == nil { throw p.missing("window") }
    let session = context.session
    let lists: [LiveList]
    if let id = try p.optionalString("list") {
      lists = [try context.registry.list(id)]
    } else {
      session.setSubscribedToAll(true)
      lists = context.registry.subscribeToAll(session)
    }
    let answers = AnswerSlots(count: lists.count)
    let group = DispatchGroup()
    for (index, list) in lists.enumerated() {
      group.enter()
      list.queue.async {
        defer { group.leave() }
        guard let committed = try? list.subscribe(session) else { return }  // disposed meanwhile
        session.addSubscription(list.id)
        var object: JSONObject = [
          "list": .string(list.id), "version": .int(Int64(committed.version)), "info": list.info(),
        ]
        switch kind {
        case .full: object.append("snapshot", RowEncoding.snapshot(committed.snapshot.rows))
        case .window:
          if let window {
            object.append(
              "window",
              .object(WindowEncoding.window(committed.snapshot, offset: window.offset, limit: window.limit)))
          }
        case .none: break
        }
        answers.set(index, .object(object))
      }
    }
    let single = try p.optionalString("list")
    group.notify(queue: .global()) {
      let results = answers.values
      if let single, results.isEmpty {
        request.respond(error: .unknownList(single))
      } else {
        request.respond(["lists": .array(results)])
      }
    }
  }

  /// `list/unsubscribe`: one list, or everything (including the subscription to all).
  static func unsubscribe(_ context: HandlerContext, _ request: IncomingRequest) throws {
    request.answer {
      let p = request.params
      try p.requireKnown(["list"])
      let session = context.session
      if let id = try p.optionalString("list") {
        let list = try context.registry.list(id)
        list.unsubscribe(session.id)
        session.removeSubscription(id)
      } else {
        session.setSubscribedToAll(false)
        context.registry.unsubscribeFromAll(session)
        for id in session.subscriptions {
          (try? context.registry.list(id))?.unsubscribe(session.id)
          session.removeSubscription(id)
        }
      }
      return [:]
    }
  }

  /// `list/changesSince`: from the bounded history, on the list's queue (so it is consistent
  /// with the notifications the session receives).
  static func changesSince(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list", "version"])
    let list = try context.registry.list(try p.string("list"))
    let version = try p.int("version")
    guard version >= 0 else { throw p.invalid("version", "must be 0 or more, got \(version)") }
    list.queue.async {
      request.answer {
        let (current, changes) = try list.changes(since: version)
        return ["list": .string(list.id), "version": .int(Int64(current)), "changes": .array(changes)]
      }
    }
  }
}

/// Results gathered from several queues, in a fixed order.
final class AnswerSlots: Sendable {
  private let slots: Mutex<[JSONValue?]>

  init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

  func set(_ index: Int, _ value: JSONValue) { slots.withLock { $0[index] = value } }

  /// The values set so far, in index order.
  var values: [JSONValue] { slots.withLock { $0.compactMap { $0 } } }
}
