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
  /// A message for the status line, an error or not, shown until `until` while the screen it
  /// is about (`scope`: the list shown, nil for the picker, on one visit) is the one shown.
  public internal(set) var message: (text: String, error: Bool, until: Double, scope: MessageScope)?
  /// Counts the screens shown (each open of a list, each return to the picker): a message
  /// belongs to one visit, so it does not reappear when its list is opened again.
  var visit = 0
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
  /// The list asked for again after the daemon did not know it although the picker did (once per
  /// list, so a stale picker cannot loop).
  var reopened: String?
  /// Picker row counts being fetched, and lists changed again while fetching.
  var infoInFlight = Set<String>()
  var infoStale = Set<String>()
  /// Lists closed whose window is still to be emptied (`list/setWindow` with limit 0).
  var released: [String] = []
  /// Views the TUI made that are no longer shown, still to be disposed.
  var disposed: [String] = []
  /// The live view shown in the open list's place to sort or filter it, if any.
  public internal(set) var derived: DerivedView?
  /// Makes this app's view ids its own.
  let viewToken = String(UInt32.random(in: 0...UInt32.max), radix: 16)
  /// The views made so far (each gets a new id: one made before a reconnect may live on).
  var viewsMade = 0

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
    return effects + releaseWindows() + fetchWindow()
  }

  /// Moves the open list's window (`list/setWindow`) when the screen nears its edge, if
  /// connected and no window is in flight.
  mutating func fetchWindow() -> [AppEffect] {
    guard screen == .list, connection == .connected, let list = view?.list,
      let window = view?.nextWindowRequest()
    else { return [] }
    return [
      .request(
        .window(generation: generation), method: "list/setWindow",
        params: [
          "list": .string(list), "offset": .int(Int64(window.offset)), "limit": .int(Int64(window.limit)),
        ])
    ]
  }

  /// Empties the window of the lists closed since the last event: the picker needs only their
  /// structure (row counts), not their rows.
  mutating func releaseWindows() -> [AppEffect] {
    defer {
      released = []
      disposed = []
    }
    guard connection == .connected else { return [] }
    let releases: [AppEffect] = released.filter { $0 != view?.list }.map { list in
      .request(
        .release(list), method: "list/setWindow", params: ["list": .string(list), "offset": 0, "limit": 0])
    }
    return releases
      + disposed.map { .request(.dispose($0), method: "list/dispose", params: ["list": .string($0)]) }
  }

  /// Every list is subscribed to with an empty window: changes carry their structure, not their
  /// rows (the picker shows counts and versions); the open list's window is its screen.
  static let subscribeAllParams: JSONValue = ["window": ["offset": 0, "limit": 0]]

  // MARK: - Connection

  mutating func connected() -> [AppEffect] {
    var reconnected = false
    if case .disconnected = connection { reconnected = true }
    connection = .connected
    if var derived {
      // A restarted daemon lost the view; one that lived on keeps it (a view outlives its
      // session): dispose it, show the list, and make the view again, under a new id, once the
      // list is loaded.
      disposed.append(derived.view)
      derived.view = newViewID(derived.source)
      derived.created = false
      derived.remake = true
      self.derived = derived
    }
    if screen == .list, let list = shownList {
      // Resync the open list from scratch, keeping the cursor on its item — subscribed once the
      // subscription to every list has answered, so that its empty window does not replace this.
      let keep = view
      generation += 1
      view = ListViewState(list: list, height: listHeight)
      view?.restoreCursor(from: keep)
    }
    if reconnected { say("reconnected") }
    return [.request(.subscribeAll, method: "list/subscribe", params: Self.subscribeAllParams)]
  }

  // MARK: - Opening lists

  /// Opens `list`: a fresh view state, subscribed to with a window.
  mutating func open(_ list: String) -> [AppEffect] {
    if let derived {
      disposed.append(derived.view)
      self.derived = nil
    } else if let previous = view?.list, previous != list {
      released.append(previous)
    }
    if pendingOpen != nil {
      // The user chose: a list waited for no longer takes the screen when it is created.
      pendingOpen = nil
      if message?.until == .infinity { message = nil }
    }
    generation += 1
    beginVisit()
    screen = .list
    picker.select(list)
    view = ListViewState(list: list, height: listHeight)
    return subscribeRequest(list)
  }

  /// `list/subscribe {list, window}` for the open list: its window, sections and selection at
  /// one version, then every change filtered to the window.
  mutating func subscribeRequest(_ list: String) -> [AppEffect] {
    guard let window = view?.subscribeWindow() else { return [] }
    return [
      .request(
        .subscribe(generation: generation), method: "list/subscribe",
        params: [
          "list": .string(list),
          "window": ["offset": .int(Int64(window.offset)), "limit": .int(Int64(window.limit))],
        ])
    ]
  }

  /// Back to the picker, on the list that was open.
  mutating func closeList() {
    if let derived {
      picker.select(derived.source)
      disposed.append(derived.view)
      self.derived = nil
    } else if let list = view?.list {
      picker.select(list)
      released.append(list)
    }
    screen = .picker
    beginVisit()
    view = nil
  }

  /// A new screen is shown (a list opened, from the picker or with Tab, or the picker again):
  /// what belonged to the last one — its overlay, its messages (scoped to its visit), its refresh
  /// in flight — stays behind with it.
  mutating func beginVisit() {
    visit += 1
    overlay = nil
    refreshingSince = nil
  }

  // MARK: - Messages

  /// Says `text` about `scope` (default: what is shown now); a message about a screen no longer
  /// shown (an answer that arrives after the user moved on, even to the same list again) is not
  /// said.
  mutating func say(_ text: String, error: Bool = false, about scope: MessageScope? = nil) {
    let scope = scope ?? messageScope
    guard scope == messageScope else { return }
    message = (text, error, now + (error ? 6 : 3), scope)
  }

  /// Says `text` until the user moves on (or it is replaced).
  mutating func sayUntilMoved(_ text: String, error: Bool = false) {
    message = (text, error, .infinity, messageScope)
  }

  /// What a message said now is about: the list shown (a view's source), nil on the picker, on
  /// this visit.
  public var messageScope: MessageScope {
    MessageScope(list: screen == .list ? shownList : nil, visit: visit)
  }

  /// The message to show now: one about the screen shown, not expired.
  public func shownMessage(at time: Double) -> (text: String, error: Bool)? {
    guard let message, message.until > time, message.scope == messageScope else { return nil }
    return (message.text, message.error)
  }

  /// A request about item `item` of the open list, answered as a user event described by `what`.
  func itemRequest(_ method: String, _ item: String, what: String, _ extra: [(String, JSONValue)] = [])
    -> AppEffect
  {
    var params: JSONObject = ["list": .string(view?.list ?? ""), "item": .string(item)]
    for (key, value) in extra { params.append(key, value) }
    // The view follows the notifications: an expand's answer need not repeat its rows.
    if method.hasPrefix("outline/") { params.append("rows", "none") }
    return .request(
      .userEvent(what: what, list: shownList, visit: visit), method: method, params: .object(params))
  }
}

/// The screen a message is about: the list shown (a view's source; nil for the picker) on one
/// visit (each open of a list and each return to the picker is a new one).
public struct MessageScope: Equatable, Sendable {
  /// The list shown, nil for the picker.
  public var list: String?
  /// The visit (``TUIApp`` counts them).
  public var visit: Int
}
