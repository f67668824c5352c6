// What drives the app (keys, notifications, answers, connection changes) and what it asks for.
import JSON

/// An answer that is an error: the daemon's code and message, or a connection failure (no code).
public struct RequestFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The JSON-RPC error code, nil for a connection failure.
  public var code: Int?
  /// The message.
  public var message: String

  /// A failure.
  public init(code: Int?, message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { code.map { "\(message) (\($0))" } ?? message }
}

/// Which request an answer belongs to. Answers of a list opened before (`generation`) or of a
/// visit left (`visit`) are dropped, failures too.
public enum RequestTag: Equatable, Sendable {
  /// `list/subscribe` to every list.
  case subscribeAll
  /// `list/info` of a list, for the picker's row count.
  case info(String)
  /// The windowed `list/subscribe` of the open list.
  case subscribe(generation: Int)
  /// `list/setWindow` of the open list, as it scrolls.
  case window(generation: Int)
  /// `list/setWindow` with an empty window, of a list no longer open: only its structure follows.
  case release(String)
  /// `view/create` of a sorted or filtered table (``DerivedView``).
  case viewCreate(generation: Int)
  /// `view/update` of the open view: a new sort or filter.
  case viewUpdate(generation: Int)
  /// `list/dispose` of a view the TUI made, no longer shown.
  case dispose(String)
  /// `query/search` of the open list.
  case search(generation: Int, text: String)
  /// `query/item` to put the cursor on an item.
  case locate(generation: Int, item: String)
  /// A user event or an outline change about `list` (the list shown: a view's source) on the
  /// screen's `visit` (``MessageScope``; nil for the visit shown when it is answered); `what`
  /// describes it for the status line.
  case userEvent(what: String, list: String? = nil, visit: Int? = nil)
  /// `event/refresh` of the open list on the screen's `visit`: a resync of the list (a new
  /// generation) still awaits its answer; leaving the list does not.
  case refresh(visit: Int)
  /// `list/explain {list, item}` for the explanation panel (kept across a resync of the list).
  case explain(list: String, item: String)
}

/// An input of ``TUIApp/handle(_:now:)``.
public enum AppEvent: Sendable {
  /// A key press.
  case key(Key)
  /// A notification from the daemon.
  case notification(method: String, params: JSONValue)
  /// The answer of a request the app asked for.
  case answer(RequestTag, Result<JSONValue, RequestFailure>)
  /// The connection is up (initialized).
  case connected
  /// The connection is down; the runner retries.
  case disconnected(String)
  /// The terminal's size changed.
  case resize(width: Int, height: Int)
  /// Time passed (animations, message expiry).
  case tick
  /// The terminal's input ended (the terminal went away): quit.
  case inputClosed
}

/// What the app asks its runner to do.
public enum AppEffect: Equatable, Sendable {
  /// Send a request; deliver its answer as ``AppEvent/answer(_:_:)`` with `tag`.
  case request(RequestTag, method: String, params: JSONValue)
  /// Redraw the whole screen (Ctrl-L).
  case redraw
  /// Exit with status 0.
  case quit
}
