// The registry as handlers use it: a missing list as its JSON-RPC error, notifications to every session.
import JSON
import JSONRPC

extension ListRegistry {
  /// The list named `id`, or -32010. O(1).
  func list(_ id: String) throws(ResponseError) -> LiveList {
    try mappingListErrors { () throws(ListError) in try existingList(id) }
  }

  /// Sends the same notification to every initialized session but those in `excluded`.
  func broadcast(_ method: String, _ params: JSONValue, excluding excluded: Set<Int> = []) {
    let body = Session.encodeNotification(method, params)
    for session in initializedSessions where !excluded.contains(session.id) { session.send(encoded: body) }
  }
}
