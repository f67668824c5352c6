// The controller: reduces keys, notifications and answers to state changes and requests.
import JSON

/// The whole TUI as a value: which screen, the picker, the open list's view state, overlays,
/// messages and the connection — and the reducer that advances it. ``handle(_:now:)`` takes one
/// event and returns the requests to send; the runner sends them and feeds the answers back.
/// No I/O happens here, so every behaviour is testable without a terminal or a daemon.
public struct TUIApp: Sendable {
  /// The screens.
  public enum Screen: Equatable, Sendable {
    /// Every list.
    case picker
    /// The open list (``TUIApp/view``).
    case list
  }

  /// The current screen.
  public internal(set) var screen = Screen.picker
  /// The picker's state (kept live on every screen).
  public internal(set) var picker = PickerState()
  /// The open list, when ``screen`` is `.list`.
  public internal(set) var view: ListViewState?
  /// The overlay on top of the screen.
  public internal(set) var overlay: Overlay?
  /// The connection state.
  public internal(set) var connection = ConnectionState.connecting
  /// A message for the status line, an error or not, shown until `until`.
  public internal(set) var message: (text: String, error: Bool, until: Double)?
  /// When the pending `event/refresh` started, nil when none is pending.
  public internal(set) var refreshingSince: Double?
  /// The terminal width in cells.
  public internal(set) var width: Int
  /// The terminal height in lines.
  public internal(set) var height: Int
  /// Where the app is connected to, for the title line.
  public let endpoint: String
  /// The clock of the last event (seconds).
  public internal(set) var now = 0.0
  /// Bumped on every open, so answers for a previously open list are dropped.
  var generation = 0
  /// A list to open as soon as it is known (`--list ID`).
  var pendingOpen: String?
  /// Picker row counts being fetched, and lists changed again while fetching.
  var infoInFlight = Set<String>()
  var infoStale = Set<String>()

  /// An app for a terminal of `width`×`height`, connected to `endpoint` (for display), opening
  /// `list` as soon as the daemon has it.
  public init(width: Int, height: Int, endpoint: String, open list: String? = nil) {
    self.width = max(20, width)
    self.height = max(5, height)
    self.endpoint = endpoint
    pendingOpen = list
  }

  /// The lines the open list's rows get: the screen minus the title and status lines.
  public var listHeight: Int { max(1, height - 2) }

  /// Advances the app by one event; returns what the runner must do.
  public mutating func handle(_ event: AppEvent, now: Double) -> [AppEffect] {
    self.now = now
    var effects: [AppEffect]
    switch event {
    case .key(let key): effects = handle(key: key)
    case .notification(let method, let params): effects = handle(notification: method, params)
    case .answer(let tag, let result): effects = handle(answer: tag, result)
    case .connected: effects = connected()
    case .disconnected(let reason):
      connection = .disconnected(reason)
      refreshingSince = nil
      view?.windowFailed()
      infoInFlight = []
      effects = []
    case .resize(let width, let height):
      self.width = max(20, width)
      self.height = max(5, height)
      let lines = listHeight
      view?.resize(height: lines)
      effects = [.redraw]
    case .inputClosed:
      return [.quit]
    case .tick:
      view?.expireFlashes(now: now)
      if let message, message.until <= now { self.message = nil }
      effects = []
    }
    return effects + fetchWindow()
  }

  /// The window the open list needs, if connected and not already fetching.
  mutating func fetchWindow() -> [AppEffect] {
    guard screen == .list, connection == .connected, let list = view?.list,
      let window = view?.nextWindowRequest()
    else { return [] }
    return [
      .request(
        .window(generation: generation), method: "query/window",
        params: [
          "list": .string(list), "offset": .int(Int64(window.offset)), "limit": .int(Int64(window.limit)),
        ])
    ]
  }

  // MARK: - Connection

  mutating func connected() -> [AppEffect] {
    connection = .connected
    var effects: [AppEffect] = [
      .request(.subscribeAll, method: "list/subscribe", params: ["snapshot": "none"])
    ]
    if screen == .list, let list = view?.list {
      // Resync the open list from scratch, keeping the cursor on its item.
      let keep = view
      generation += 1
      view = ListViewState(list: list, height: listHeight)
      view?.restoreCursor(from: keep)
      effects += loadRequests(list)
    }
    return effects
  }

  // MARK: - Opening lists

  /// Opens `list`: a fresh view state, its sections and selection requested.
  mutating func open(_ list: String) -> [AppEffect] {
    generation += 1
    screen = .list
    overlay = nil
    picker.select(list)
    view = ListViewState(list: list, height: listHeight)
    return loadRequests(list)
  }

  func loadRequests(_ list: String) -> [AppEffect] {
    [
      .request(.sections(generation: generation), method: "query/sections", params: ["list": .string(list)]),
      .request(
        .selection(generation: generation), method: "query/selection", params: ["list": .string(list)]),
    ]
  }

  /// Back to the picker, on the list that was open.
  mutating func closeList() {
    if let list = view?.list { picker.select(list) }
    screen = .picker
    view = nil
    overlay = nil
    refreshingSince = nil
  }

  // MARK: - Messages

  mutating func say(_ text: String, error: Bool = false) {
    message = (text, error, now + (error ? 6 : 3))
  }

  /// A request about item `item` of the open list, answered as a user event described by `what`.
  func itemRequest(_ method: String, _ item: String, what: String, _ extra: [(String, JSONValue)] = [])
    -> AppEffect
  {
    var params: JSONObject = ["list": .string(view?.list ?? ""), "item": .string(item)]
    for (key, value) in extra { params.append(key, value) }
    // The view follows the notifications: an expand's answer need not repeat its rows.
    if method.hasPrefix("outline/") { params.append("rows", "none") }
    return .request(.userEvent(what: what), method: method, params: .object(params))
  }
}
