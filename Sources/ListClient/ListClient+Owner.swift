// ListClient as a list's owner: answering the daemon's refresh requests.
import JSON
import JSONRPC

extension ListClient {
  /// Answers `owner/refresh` for the lists this session owns: `handler` gets the list id, updates
  /// the list (with ``edit(_:_:ifVersion:)`` or ``replace(_:content:ifVersion:)``) and returns —
  /// only then does the viewer's `event/refresh` complete. A thrown ``ResponseError`` reaches the
  /// viewer. User events (`owner/event`) arrive on ``notifications``.
  public func onRefresh(_ handler: @escaping @Sendable (_ list: String) async throws -> Void) {
    connection.onRequestAsync("owner/refresh") { request in
      try await handler(try request.params.string("list"))
      return .null
    }
  }
}
