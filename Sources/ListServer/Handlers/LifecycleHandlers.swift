// Handlers of the lifecycle: initialize, initialized, shutdown, exit and $/setTrace.
import Dispatch
import JSON
import JSONRPC
import ListProtocol

enum LifecycleHandlers {
  static let requests: [RequestMethod] = [
    .query("initialize", initialize),
    .query("shutdown", shutdown),
  ]

  static let notifications: [(String, MethodTable.NotificationHandler)] = [
    ("initialized", { _, _ in }),
    ("exit", { context, _ in context.server.exit(context.session) }),
    (
      "$/setTrace",
      { context, notification in
        if let trace = try? notification.params.enumeration("value", as: Session.Trace.self) {
          context.session.setTrace(trace)
        }
      }
    ),
  ]

  /// `initialize`: records the client, answers server info, protocol version and capabilities.
  static func initialize(_ context: HandlerContext, _ request: IncomingRequest) throws {
    defer {
      // What startup found wrong in the state directory, for the first session only.
      for problem in context.server.takeStartupProblems() {
        context.session.logMessage(1, "listd --state: \(problem)")
      }
    }
    request.answer {
      let p = request.params
      try p.requireKnown(["clientInfo", "capabilities", "processId", "trace", "workDoneToken"])
      if let info = try p.optionalObject("clientInfo") {
        try info.requireKnown(["name", "version"])
        context.session.setClientName(try info.string("name"))
      }
      _ = try p.optionalObject("capabilities")
      _ = try p.optionalInt("processId")
      if let trace = try p.optionalEnumeration("trace", as: Session.Trace.self) {
        context.session.setTrace(trace)
      }
      let options = context.options
      let limits: JSONValue = [
        "maxFrameBytes": .int(Int64(options.maxFrameBytes)),
        "historyVersions": .int(Int64(options.historyLimit)),
        "explainVersions": .int(Int64(options.explainLimit)),
        "outgoingQueueBytes": .int(Int64(options.maxQueueBytes)),
        "refreshTimeoutMs": .int(Int64(milliseconds(options.refreshTimeout))),
        "maxWindow": .int(Int64(options.maxWindow)),
        "maxNestingDepth": .int(Int64(JSONParser.defaultMaxDepth)),
      ]
      var capabilities: JSONValue = [
        "methods": .array(MethodTable.clientMethods.map { .string($0) }),
        "notifications": .array(MethodTable.serverToClient.map { .string($0) }),
        "limits": limits,
      ]
      if let state = context.server.stateCapability { capabilities = capabilities.setting("state", state) }
      return [
        "serverInfo": ["name": .string(ServerInfo.name), "version": .string(ServerInfo.version)],
        "protocolVersion": .int(Int64(ServerInfo.protocolVersion)),
        "session": .int(Int64(context.session.id)),
        "capabilities": capabilities,
      ]
    }
  }

  /// `shutdown`: answers once every change queued before it (on any list) has been applied, so
  /// an `exit` right after it loses nothing.
  static func shutdown(_ context: HandlerContext, _ request: IncomingRequest) throws {
    try request.params.requireKnown([])
    let group = DispatchGroup()
    for list in context.registry.lists {
      group.enter()
      list.queue.async { group.leave() }
    }
    group.notify(queue: .global()) { request.respond(.null) }
  }

  static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
  }
}
