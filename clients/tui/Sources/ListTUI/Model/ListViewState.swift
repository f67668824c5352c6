// The view state of one open list: layout, the subscription's window of rows, cursor by identity, selection, flashes.
import JSON
import ListProtocol

/// What the TUI knows of the open list and where the user is in it. A value type, driven by
/// the answers and notifications the controller feeds it; it never talks to the daemon itself,
/// it only says which window it subscribes with (``subscribeWindow()``) and where to move it
/// (``nextWindowRequest()``, a `list/setWindow`).
///
/// The subscription is windowed (Protocol/README.md, Windowed subscriptions): the daemon sends
/// the rows of the window — the viewport (`height`) plus ``margin`` on each side — and only the
/// structure of changes elsewhere, so a list of a million rows costs a few hundred rows of
/// memory and bytes, and one `list/setWindow` per scroll jump.
public struct ListViewState: Sendable {
  /// The list id.
  public let list: String
  /// The layout (sections and counts) at ``version``; nil until the windowed subscription answered.
  public private(set) var layout: ListLayout?
  /// The header line of a section without header text (``ListLayout/blankHeader``): set for a
  /// sorted or filtered view, whose one section says what it holds.
  public var blankHeader: String? {
    didSet {
      layout?.blankHeader = blankHeader
      clampTop()
      scrollToCursor()
    }
  }
  /// The version the layout, cache and cursor are at.
  public private(set) var version = -1
  /// The rows of the window, by flattened index: exactly `window ∩ [0, totalRows)`.
  public private(set) var rows: [Int: ListRow] = [:]
  /// The subscription's window `[offset, offset + limit)` at ``version`` (nil before loading).
  public private(set) var window: (offset: Int, limit: Int)?
  /// The flattened row of the cursor.
  public private(set) var cursorRow = 0
  /// The id of the cursor's item; nil until its row is fetched.
  public private(set) var cursorID: String?
  /// The first display line shown.
  public private(set) var top = 0
  /// The number of display lines the list area has (a table's header line included).
  public private(set) var height: Int
  /// The list's columns: drawn as a table when not empty (from `info.columns`, then each
  /// changeset's `columns`).
  public private(set) var columns: [TableColumn] = []
  /// Whether the list is in editing mode (`info.editing`, then each changeset's `editing`):
  /// accessories displayed `whenEditing` show only then, `whenNotEditing` only otherwise.
  public private(set) var isEditing = false
  /// The list's empty state `{kind?, query?, title?, image?, description?}` (`info.emptyState`,
  /// then each changeset's `emptyState`), if any.
  public private(set) var emptyState: JSONValue?
  /// The selected item ids.
  public private(set) var selection = Set<String>()
  /// The selection mode (`none`, `single`, `multiple`), once `query/selection` answered.
  public private(set) var selectionMode: String?
  /// Items drawn highlighted until the time given (seconds on the caller's clock).
  public private(set) var flashes: [String: Double] = [:]
  /// A short summary of the last change: `v12 +3 −1 ~2`.
  public private(set) var lastChange: String?
  /// Whether a windowed `list/subscribe` or `list/setWindow` is in flight (one at a time; a
  /// later need is asked for after it).
  public private(set) var windowInFlight = false
  /// How many rows the last window asked for (the limit its answer is for).
  public private(set) var lastWindowLimit = 0
  /// Search matches (ids and their flattened rows), kept current across changes.
  public private(set) var matches: [(id: String, row: Int)] = []

  /// How long a changed row stays highlighted, in seconds.
  public static let flashDuration = 0.6

  /// The columns to draw when the list's info names none: a view's source's.
  private var inheritedColumns: [TableColumn] = []

  /// A state for `list` with a list area of `height` lines; `columns` are drawn when the
  /// list's info names none (a view of a table).
  public init(list: String, height: Int, columns: [TableColumn] = []) {
    self.list = list
    self.height = max(1, height)
    inheritedColumns = columns
    self.columns = columns
  }

  /// Puts the cursor on `item` once loaded (located if the window does not hold it).
  public mutating func follow(item: String?) { cursorID = item }

  /// The display lines rows get: the list area less a table's header line.
  public var rowLines: Int { max(1, height - (columns.isEmpty ? 0 : 1)) }

  /// Rows subscribed to beyond each edge of the viewport.
  public var margin: Int { max(height, 8) }

  /// The largest window asked for (the daemon's default `limits.maxWindow`).
  public static let maxWindow = 10_000

  /// The number of visible rows, 0 before loading.
  public var totalRows: Int { layout?.totalRows ?? 0 }

  /// The cursor's row, if cached.
  public var cursor: ListRow? { rows[cursorRow] }

  // MARK: - Loading

  /// The window to subscribe with when the list is opened (or resubscribed): the rows around
  /// the cursor's screen. Marks it in flight.
  public mutating func subscribeWindow() -> (offset: Int, limit: Int) {
    let offset = max(0, top - margin)
    let limit = min(Self.maxWindow, height + 2 * margin)
    windowInFlight = true
    lastWindowLimit = limit
    return (offset, limit)
  }

  /// Loads the list from a windowed `list/subscribe` entry or a `list/setWindow` answer
  /// (`{version, info?, window, sections, selection}`), which starts the subscription afresh at
  /// its version: the layout, the window's rows and the selection are replaced. The cursor stays
  /// on its item when the window holds it, else on its row (clamped). Returns false if the
  /// answer is malformed.
  @discardableResult
  public mutating func load(windowed answer: JSONValue, now: Double) -> Bool {
    windowInFlight = false
    guard let layout = ListLayout(sectionsAnswer: answer), let version = answer["version"]?.intValue,
      let window = answer["window"], let offset = window["offset"]?.intValue,
      let windowRows = window["rows"]?.arrayValue, let selection = answer["selection"]?.arrayValue,
      window["totalRows"]?.intValue.map(Int.init) == layout.totalRows
    else {
      return false
    }
    self.layout = layout
    self.layout?.blankHeader = blankHeader
    self.version = Int(version)
    self.window = (Int(offset), lastWindowLimit)
    rows = [:]
    for (index, json) in windowRows.enumerated() {
      if let row = ListRow(json) { rows[Int(offset) + index] = row }
    }
    self.selection = Set(selection.compactMap(\.stringValue))
    if let info = answer["info"] {
      if let mode = info["selectionMode"]?.stringValue { selectionMode = mode }
      let named = TableColumn.list(info["columns"])
      columns = named.isEmpty ? inheritedColumns : named
      isEditing = info["editing"]?.boolValue == true
      emptyState = info["emptyState"].flatMap { $0.isNull ? nil : $0 }
    }
    if let id = cursorID, rows[cursorRow]?.id != id, let found = rows.first(where: { $0.value.id == id }) {
      cursorRow = found.key
    }
    cursorRow = max(0, min(cursorRow, layout.totalRows - 1))
    // An item the window does not hold keeps its id: the controller locates it (`query/item`).
    if cursorID == nil { cursorID = rows[cursorRow]?.id }
    clampTop()
    scrollToCursor()
    return true
  }

  // MARK: - Changes

  /// Applies a `list/didChange` params object: maps the layout, the cache and the cursor (by
  /// identity; on a deleted item, to its nearest surviving neighbour), the selection, and
  /// flashes the rows that arrived or changed. Old versions are ignored. Throws
  /// ``LayoutMismatch`` on a gap or a changeset that does not fit: the caller resyncs.
  /// O(entries + cached rows + sections).
  public mutating func apply(didChange params: JSONValue, now: Double) throws {
    guard let layout, let window else { return }
    guard let next = params["version"]?.intValue.map(Int.init),
      let previous = params["previousVersion"]?.intValue.map(Int.init)
    else { throw LayoutMismatch("didChange without versions") }
    guard next > version else { return }
    guard previous == version else { throw LayoutMismatch("didChange from v\(previous) on v\(version)") }
    let map = try ChangesetMap(old: layout, changeset: params["changeset"] ?? [:])

    var moved: [Int: ListRow] = [:]
    for (row, value) in rows {
      if let target = map.newRow(ofOld: row) { moved[target] = value }
    }
    for (row, json) in map.updatedRows {
      if let target = map.newRow(ofOld: row), let value = ListRow(json) { moved[target] = value }
    }
    for (row, json) in map.arrivedRows { if let value = ListRow(json) { moved[row] = value } }
    for (row, json) in map.enteredRows { if let value = ListRow(json) { moved[row] = value } }

    let screenOffset = layout.displayLine(ofRow: cursorRow) - top
    let cachedID = { (row: Int) in self.rows[row]?.id }
    if let survived = map.newRow(ofOld: cursorRow) {
      cursorRow = survived
    } else if let id = cursorID, let arrived = map.arrivedRow(ofItem: id) {
      // Deleted and inserted elsewhere (into a new section): the same item.
      cursorRow = arrived
    } else if let landing = map.landing(forOld: cursorRow, id: cachedID) {
      cursorRow = landing
      cursorID = moved[landing]?.id
    } else {
      cursorRow = 0
      cursorID = moved[0]?.id
    }
    if cursorID == nil { cursorID = moved[cursorRow]?.id }
    matches = matches.compactMap { match in
      (map.newRow(ofOld: match.row) ?? map.arrivedRow(ofItem: match.id)).map { (match.id, $0) }
    }

    self.layout = map.new
    self.layout?.blankHeader = blankHeader
    version = next
    // Only the window's rows are exact: the daemon says nothing of rows outside it.
    let kept = window.offset..<(window.offset + window.limit)
    rows = moved.filter { kept.contains($0.key) }
    top = map.new.displayLine(ofRow: cursorRow) - screenOffset
    clampTop()
    scrollToCursor()

    let until = now + Self.flashDuration
    for json in map.arrivedRows.values { if let id = json["id"]?.stringValue { flashes[id] = until } }
    for json in map.updatedRows.values { if let id = json["id"]?.stringValue { flashes[id] = until } }
    for id in map.deselected { selection.remove(id) }
    for id in map.selected { selection.insert(id) }
    let changeset = params["changeset"] ?? [:]
    if let mode = map.changeset.selectionMode { selectionMode = mode }
    if let columns = changeset["columns"] {
      self.columns = TableColumn.list(columns)
      clampTop()
      scrollToCursor()
    }
    if let editing = changeset["editing"]?.boolValue { isEditing = editing }
    if let empty = changeset["emptyState"] { emptyState = empty.isNull ? nil : empty }
    lastChange = Self.summary(map.changeset, version: next)
  }

  /// `v12 +3 −1 ~2 ↕1 ✓1`: rows inserted, deleted, changed and moved, selection changes.
  static func summary(_ changeset: WireChangeset, version: Int) -> String {
    // Counted runs (a windowed changeset's) count as the rows they stand for.
    let inserted =
      changeset.itemInserts.reduce(0) { $0 + $1.count } + changeset.sectionInserts.reduce(0) { $0 + $1.count }
    let deleted = changeset.itemDeletes.reduce(0) { $0 + $1.rows.count }
    let changed = (changeset.itemReconfigures + changeset.itemReloads).reduce(0) { $0 + $1.count }
    let moved = changeset.itemMoves.reduce(0) { $0 + $1.count }
    let selection = changeset.selected.count + changeset.deselected.count
    var parts = ["v\(version)"]
    if inserted > 0 { parts.append("+\(inserted)") }
    if deleted > 0 { parts.append("−\(deleted)") }
    if changed > 0 { parts.append("~\(changed)") }
    if moved > 0 { parts.append("↕\(moved)") }
    if selection > 0 { parts.append("✓\(selection)") }
    if !changeset.sectionInserts.isEmpty || !changeset.sectionDeletes.isEmpty
      || !changeset.sectionMoves.isEmpty
      || !changeset.sectionReloads.isEmpty
    {
      parts.append("§")
    }
    return parts.joined(separator: " ")
  }

  /// Drops the flashes that ended by `now`; returns whether any remain.
  @discardableResult
  public mutating func expireFlashes(now: Double) -> Bool {
    flashes = flashes.filter { $0.value > now }
    return !flashes.isEmpty
  }

  /// Whether item `id` is highlighted at `now`.
  public func isFlashing(_ id: String, now: Double) -> Bool { (flashes[id] ?? 0) > now }

  // MARK: - Moving the window

  /// The rows shown on screen.
  public var visibleRows: Range<Int> { layout?.rows(onDisplayLines: top..<(top + rowLines)) ?? 0..<0 }

  /// The `list/setWindow` to send now, `(offset, limit)`, or nil: when the rows on screen and
  /// half a margin around them are inside the window, or a window is already in flight. It
  /// asks for the screen plus ``margin`` rows on each side — never more. Marks it in flight.
  public mutating func nextWindowRequest() -> (offset: Int, limit: Int)? {
    guard let layout, let window, !windowInFlight, layout.totalRows > 0 else { return nil }
    let visible = visibleRows
    let wanted =
      max(0, visible.lowerBound - margin / 2)..<min(layout.totalRows, visible.upperBound + margin / 2)
    guard wanted.lowerBound < window.offset || wanted.upperBound > window.offset + window.limit else {
      return nil
    }
    let offset = max(0, visible.lowerBound - margin)
    let end = max(visible.upperBound, visible.lowerBound + 1) + margin
    windowInFlight = true
    lastWindowLimit = min(Self.maxWindow, end - offset)
    return (offset, lastWindowLimit)
  }

  /// Installs a `list/setWindow` answer for the last window asked for: the list afresh at its
  /// version (``load(windowed:now:)``). Returns false when the answer is malformed, or older
  /// than the changes already applied — the daemon sends the changes after it later, so it was
  /// taken out of order — and the caller resyncs.
  @discardableResult
  public mutating func install(windowAnswer answer: JSONValue, now: Double = 0) -> Bool {
    guard let answered = answer["version"]?.intValue, Int(answered) >= version else {
      windowInFlight = false
      return false
    }
    return load(windowed: answer, now: now)
  }

  /// Forgets a window that failed, so the need is asked for again.
  public mutating func windowFailed() { windowInFlight = false }

  // MARK: - Cursor and scrolling

  /// Moves the cursor to flattened row `row` (clamped) and scrolls it into view.
  public mutating func moveCursor(to row: Int) {
    guard let layout else { return }
    cursorRow = max(0, min(row, layout.totalRows - 1))
    cursorID = rows[cursorRow]?.id
    scrollToCursor()
  }

  /// Moves the cursor by `delta` rows.
  public mutating func moveCursor(by delta: Int) { moveCursor(to: cursorRow + delta) }

  /// Moves the cursor a page (`pages` screens) up or down, scrolling the view with it.
  public mutating func page(_ pages: Int) {
    guard let layout else { return }
    let screenOffset = layout.displayLine(ofRow: cursorRow) - top
    moveCursor(to: cursorRow + pages * max(1, rowLines - 1))
    top = layout.displayLine(ofRow: cursorRow) - screenOffset
    clampTop()
    scrollToCursor()
  }

  /// Puts the cursor on item `id` at `row` (from a search match or an item query).
  public mutating func moveCursor(toItem id: String, row: Int) {
    moveCursor(to: row)
    cursorID = id
  }

  /// Changes the list area's height (terminal resize), keeping the cursor visible.
  public mutating func resize(height: Int) {
    self.height = max(1, height)
    clampTop()
    scrollToCursor()
  }

  /// Sets the search matches `query/search` answered (`{version, matches: [{id, indexPath}]}`);
  /// hidden matches (no index path) are skipped. Returns how many were hidden.
  @discardableResult
  public mutating func setMatches(searchAnswer answer: JSONValue) -> Int {
    guard let layout else { return 0 }
    var hidden = 0
    matches = (answer["matches"]?.arrayValue ?? []).compactMap { match in
      guard let id = match["id"]?.stringValue, let path = match["indexPath"]?.arrayValue, path.count == 2,
        let section = path[0].intValue, let row = path[1].intValue, Int(section) < layout.sections.count
      else {
        hidden += 1
        return nil
      }
      return (id, layout.absolute(section: Int(section), row: Int(row)))
    }
    return hidden
  }

  /// Moves to the next (`forward`) or previous search match after the cursor, wrapping.
  /// Returns the match's 1-based number, nil when there are none.
  @discardableResult
  public mutating func nextMatch(forward: Bool) -> Int? {
    guard !matches.isEmpty else { return nil }
    let sorted = matches.enumerated().sorted { $0.element.row < $1.element.row }
    let pick =
      forward
      ? (sorted.first { $0.element.row > cursorRow } ?? sorted.first!)
      : (sorted.last { $0.element.row < cursorRow } ?? sorted.last!)
    moveCursor(toItem: pick.element.id, row: pick.element.row)
    return (sorted.firstIndex { $0.offset == pick.offset } ?? 0) + 1
  }

  /// Sets the selection (from an event's answer or a local guess).
  public mutating func setSelected(_ id: String, _ selected: Bool) {
    if selected { selection.insert(id) } else { selection.remove(id) }
  }

  /// Scrolls so the cursor is on screen — with its section's header when it is the first row.
  mutating func scrollToCursor() {
    guard let layout, layout.totalRows > 0 else {
      top = 0
      return
    }
    let line = layout.displayLine(ofRow: cursorRow)
    var wantedTop = line
    if let path = layout.indexPath(ofRow: cursorRow), path.row == 0,
      layout.showsHeader(path.section)
    {
      wantedTop = line - 1
    }
    if wantedTop < top { top = wantedTop }
    if line >= top + rowLines { top = line - rowLines + 1 }
    clampTop()
  }

  private mutating func clampTop() {
    let lines = layout?.displayLineCount ?? 0
    top = max(0, min(top, lines - rowLines))
  }
}

extension ListViewState {
  /// Takes over the cursor (row, item, scroll) of a previous state of the same list, for a
  /// resync after a reconnect: the row is clamped on load, the item located by the caller.
  public mutating func restoreCursor(from other: ListViewState?) {
    guard let other, other.list == list else { return }
    cursorRow = other.cursorRow
    cursorID = other.cursorID
    top = other.top
  }
}
