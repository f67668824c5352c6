// The table of every method and notification the daemon serves, by name.
import JSON
import JSONRPC
import ListModel
import ListProtocol

/// What a handler gets: the server and the calling session.
struct HandlerContext: Sendable {
  let server: ListServer
  let session: Session
  var registry: ListRegistry { server.registry }
  var options: ServerOptions { server.options }
}

/// A request method: its name, how `$/cancelRequest` affects it, and its handler.
struct RequestMethod: Sendable {
  let name: String
  let cancellation: CancellationPolicy
  /// Whether the handler returns within microseconds, so the connection may run it on its
  /// reading thread when nothing is queued ahead of it.
  let inline: Bool
  let handler: MethodTable.RequestHandler

  /// A request answered -32800 at once when cancelled (queries, events). `inline: false` for
  /// the few whose work grows with the list (a search over every item).
  static func query(
    _ name: String, inline: Bool = true, _ handler: @escaping MethodTable.RequestHandler
  ) -> RequestMethod {
    RequestMethod(name: name, cancellation: .immediate, inline: inline, handler: handler)
  }

  /// A change: cancellation only stops it if it has not been applied yet, so an answer never
  /// claims "cancelled" for a change that happened. Not inline: decoding large content must not
  /// hold up the reading thread.
  static func change(_ name: String, _ handler: @escaping MethodTable.RequestHandler) -> RequestMethod {
    RequestMethod(name: name, cancellation: .cooperative, inline: false, handler: handler)
  }
}

/// Every request and notification the daemon handles. `initialize` lists these names as its
/// capabilities, and a test checks them against Protocol/protocol.json.
enum MethodTable {
  typealias RequestHandler = @Sendable (HandlerContext, IncomingRequest) throws -> Void
  typealias NotificationHandler = @Sendable (HandlerContext, IncomingNotification) throws -> Void

  /// Client → server requests. Each answers through `request.respond`, now or later.
  static let requests: [RequestMethod] =
    LifecycleHandlers.requests + ListHandlers.requests + ContentHandlers.requests + QueryHandlers.requests
    + SubscriptionHandlers.requests + EventHandlers.requests + PreviewHandlers.requests
    + ExplainHandlers.requests + CheckHandlers.requests + VersionHandlers.requests + ViewHandlers.requests

  /// Client → server notifications (`$/cancelRequest` is handled by the connection itself).
  static let notifications: [(String, NotificationHandler)] = LifecycleHandlers.notifications

  /// Server → client notifications and requests.
  static let serverToClient = [
    "list/didChange", "list/didCreate", "list/didDispose", "list/resync", "owner/event", "owner/lost",
    "owner/refresh",
    "daemon/stopping", "window/logMessage",
    "$/logTrace", "$/progress",
  ]

  /// Names of every client → server method, requests and notifications, including
  /// `$/cancelRequest`.
  static var clientMethods: [String] {
    requests.map(\.name) + notifications.map(\.0) + ["$/cancelRequest"]
  }
}

/// An answer and the journal ticket it waits for: in `--sync batch` mode a change is answered
/// once the journal has made it durable. The one way a handler's result carries its ticket
/// (Lists/DurabilityTicket.swift).
struct DurableAnswer: Sendable {
  var result: JSONValue
  var durabilityTicket: DurabilityTicket?

  init(_ result: JSONValue, after ticket: DurabilityTicket? = nil) {
    self.result = result
    self.durabilityTicket = ticket
  }
}

extension IncomingRequest {
  /// Answers with the result of `body`, or with the error it throws (a list's refusal as its
  /// JSON-RPC error).
  func answer(_ body: () throws -> JSONValue) {
    do {
      respond(try body())
    } catch {
      respond(throwing: ResponseError.mapping(error))
    }
  }

  /// Answers with `answer`'s result once its ticket is durable.
  func answer(_ answer: DurableAnswer) {
    DurabilityTicket.afterDurable(answer.durabilityTicket) { self.respond(answer.result) }
  }

  /// Throws -32800 if the peer cancelled this request.
  func checkCancelled() throws(ResponseError) {
    if isCancelled { throw .requestCancelled(id) }
  }
}

extension HandlerContext {
  /// Runs `body` on `list`'s queue (after every change queued before it, from any session) and
  /// answers with its result. Until it has run, this session's queries of the list wait too.
  func onQueue(
    of list: LiveList, _ request: IncomingRequest, _ body: @escaping @Sendable () throws -> JSONValue
  ) {
    changeOnQueue(of: list, request) { DurableAnswer(try body()) }
  }

  /// ``onQueue(of:_:_:)`` for a change: `body`'s answer is sent once its ticket is durable.
  func changeOnQueue(
    of list: LiveList, _ request: IncomingRequest, _ body: @escaping @Sendable () throws -> DurableAnswer
  ) {
    inOrder(on: list) {
      do {
        try request.checkCancelled()
        request.answer(try body())
      } catch {
        request.answer { throw error }
      }
    }
  }

  /// Runs `body` on `list`'s queue, after everything queued there before (from any session).
  /// Until it has run, this session's later reads of the list wait behind it
  /// (``afterOwnRequests(on:_:)``), so a session always sees the effect of its own requests.
  /// The turn ends by reclaiming the ids a change (or its failure, or a preview) left unused:
  /// the one place a request's change does.
  func inOrder(on list: LiveList, _ body: @escaping @Sendable () -> Void) {
    let session = self.session
    session.changeQueued(list.id)
    list.queue.async {
      body()
      session.changeFinished(list.id)
      list.reclaimIdentifiersIfNeeded()
    }
  }

  /// Runs `body` at once, or — if this session still has a request of `list` queued — on the
  /// list's queue after it.
  func afterOwnRequests(on list: LiveList, _ body: @escaping @Sendable () -> Void) {
    if session.hasPendingChange(list.id) {
      list.queue.async(execute: body)
    } else {
      body()
    }
  }

  /// Answers a query of `list` from its committed state, or from its snapshot at `atVersion`
  /// when given (LiveList+Versions.swift): at once, or — if this session still has a request of
  /// the list queued — on the list's queue after it, so a session always reads its own changes.
  /// `body` gets the version and the snapshot.
  func read(
    _ list: LiveList, _ request: IncomingRequest, atVersion: Int? = nil,
    _ body: @escaping @Sendable (_ version: Int, ListSnapshot) throws -> JSONValue
  ) {
    afterOwnRequests(on: list) {
      request.answer {
        guard let atVersion else {
          let committed = try list.current(ifVersion: nil)
          return try body(committed.version, committed.snapshot)
        }
        return try body(atVersion, try list.snapshot(atVersion: atVersion))  // (errors mapped by `answer`)
      }
    }
  }
}
