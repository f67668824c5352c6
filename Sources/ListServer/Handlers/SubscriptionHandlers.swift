// Handlers of subscriptions: list/subscribe, list/unsubscribe and list/changesSince.
import Dispatch
import JSON
import JSONRPC
import ListModel
import ListProtocol
import Synchronization

enum SubscriptionHandlers {
  static let requests: [RequestMethod] = [
    .query("list/subscribe", subscribe),
    .query("list/unsubscribe", unsubscribe),
    .query("list/changesSince", changesSince),
    .query("list/setWindow", setWindow),
  ]

  /// `list/subscribe`: one list, or every list (present and future). Each list's registration
  /// runs on its queue, atomically with the state answered, so the session receives every
  /// change after the answered version and none before; those committed before the answer is
  /// sent wait in the subscription's gate and follow the answer.
  static func subscribe(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list", "snapshot", "window", "atVersion"])
    let form = try SnapshotForm(p, maxWindow: context.options.maxWindow)
    let session = context.session
    let gate = SubscriptionGate(session: session)
    let single = try p.optionalString("list")
    if let atVersion = try p.atVersion() {
      guard let single else { throw p.invalid("atVersion", "needs \"list\": a past version is one list's") }
      return try VersionHandlers.subscribe(context, request, list: single, atVersion: atVersion, form: form)
    }
    let lists: [LiveList]
    if let single {
      lists = [try context.registry.list(single)]
    } else {
      session.setSubscribedToAll(true)
      lists = context.registry.subscribeToAll(AllListsSubscription(gate: gate, form: form))
    }
    let answers = AnswerSlots(count: lists.count)
    let group = DispatchGroup()
    for (index, list) in lists.enumerated() {
      group.enter()
      context.inOrder(on: list) {
        defer { group.leave() }
        guard let committed = try? list.subscribe(gate, window: form.window) else { return }  // disposed meanwhile
        session.addSubscription(list.id)
        var object: JSONObject = [
          "list": .string(list.id), "version": .int(Int64(committed.version)), "info": ListInfo.encode(list),
        ]
        form.append(committed.snapshot, to: &object)
        if form.window == nil { answers.carry(rows: committed.snapshot.numberOfItems()) }
        answers.set(index, .object(object))
      }
    }
    group.notify(queue: .global()) {
      let results = answers.values
      // The held notifications follow the answer, and count as part of it: a connection that
      // closes once everything is answered sends them first.
      let answer: Result<JSONValue, ResponseError>
      if let single, results.isEmpty {
        answer = .failure(.unknownList(single))
      } else {
        answer = .success(["lists": .array(results)])
      }
      if !request.respond(answer, then: { gate.release() }) { gate.release() }  // answered -32800 before
      // A subscribe answer of a million rows is hundreds of MB while it is built and written.
      MemoryTrim.afterLargeWork(items: answers.carriedRows)
    }
  }

  /// `list/unsubscribe`: one list, or everything (including the subscription to all). Runs on
  /// the lists' queues, after whatever the session asked of them before.
  static func unsubscribe(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list"])
    let session = context.session
    let lists: [LiveList]
    if let id = try p.optionalString("list") {
      lists = [try context.registry.list(id)]
    } else {
      session.setSubscribedToAll(false)
      context.registry.unsubscribeFromAll(session)
      lists = context.registry.lists
    }
    let group = DispatchGroup()
    for list in lists {
      group.enter()
      context.inOrder(on: list) {
        list.unsubscribe(session.id)
        session.removeSubscription(list.id)
        group.leave()
      }
    }
    group.notify(queue: .global()) { request.respond([:]) }
  }

  /// `list/setWindow {list, offset, limit}`: moves the session's window over the list (a full
  /// subscription becomes windowed) and answers the window it starts afresh from, on the list's
  /// queue after whatever the session asked of it before; later changes follow the answer.
  static func setWindow(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list", "offset", "limit"])
    let offset = try p.int("offset")
    let limit = try p.int("limit")
    guard offset >= 0 else { throw p.invalid("offset", "must be 0 or more, got \(offset)") }
    let maxWindow = context.options.maxWindow
    guard limit >= 0 && limit <= maxWindow else {
      throw p.invalid("limit", "must be between 0 and \(maxWindow), got \(limit)")
    }
    let list = try context.registry.list(try p.string("list"))
    let window = RowWindow(offset: offset, limit: limit)
    let session = context.session
    context.inOrder(on: list) {
      request.answer {
        let committed = try list.setWindow(window, session: session.id)
        var object: JSONObject = ["list": .string(list.id), "version": .int(Int64(committed.version))]
        WindowEncoding.appendWindowed(committed.snapshot, window: window, to: &object)
        return .object(object)
      }
    }
  }

  /// `list/changesSince`: from the bounded history, on the list's queue (so it is consistent
  /// with the notifications the session receives).
  static func changesSince(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list", "version", "explain"])
    let version = try p.int("version")
    let explain = try p.optionalBool("explain") ?? false
    guard version >= 0 else { throw p.invalid("version", "must be 0 or more, got \(version)") }
    let list = try context.registry.list(try p.string("list"))
    list.queue.async {
      request.answer {
        let (current, changes) = try list.changes(since: version, explain: explain)
        return [
          "list": .string(list.id), "version": .int(Int64(current)),
          "changes": .array(
            changes.map { change -> JSONValue in
              let params = ChangeFanout.params(list: list.id, change)
              // `changes(since:explain:)` checked that each has its record.
              guard explain, let record = change.record else { return params }
              return params.setting("explain", ExplanationEncoding.explain(record))
            }),
        ]
      }
    }
  }
}

/// Results gathered from several queues, in a fixed order.
final class AnswerSlots: Sendable {
  private let slots: Mutex<[JSONValue?]>
  private let rows = Mutex(0)

  init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

  func set(_ index: Int, _ value: JSONValue) { slots.withLock { $0[index] = value } }

  /// Counts rows an answer carries (so a large one is followed by a memory trim).
  func carry(rows count: Int) { rows.withLock { $0 += count } }

  /// The rows carried so far.
  var carriedRows: Int { rows.withLock { $0 } }

  /// The values set so far, in index order.
  var values: [JSONValue] { slots.withLock { $0.compactMap { $0 } } }
}
