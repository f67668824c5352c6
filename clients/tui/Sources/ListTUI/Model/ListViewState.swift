// The view state of one open list: layout, window cache, cursor by identity, selection, flashes.
import JSON

/// What the TUI knows of the open list and where the user is in it. A value type, driven by
/// the answers and notifications the controller feeds it; it never talks to the daemon itself,
/// it only says which window of rows it needs (``nextWindowRequest()``).
///
/// Rows are cached only around the viewport (`height` plus ``margin`` on each side), so a list
/// of a million rows costs a few hundred rows of memory and one `query/window` per scroll jump.
public struct ListViewState: Sendable {
  /// The list id.
  public let list: String
  /// The layout (sections and counts) at ``version``; nil until `query/sections` answered.
  public private(set) var layout: ListLayout?
  /// The version the layout, cache and cursor are at.
  public private(set) var version = -1
  /// The cached rows, by flattened index.
  public private(set) var rows: [Int: ListRow] = [:]
  /// The flattened row of the cursor.
  public private(set) var cursorRow = 0
  /// The id of the cursor's item; nil until its row is fetched.
  public private(set) var cursorID: String?
  /// The first display line shown.
  public private(set) var top = 0
  /// The number of display lines the list area has.
  public private(set) var height: Int
  /// The selected item ids.
  public private(set) var selection = Set<String>()
  /// The selection mode (`none`, `single`, `multiple`), once `query/selection` answered.
  public private(set) var selectionMode: String?
  /// Items drawn highlighted until the time given (seconds on the caller's clock).
  public private(set) var flashes: [String: Double] = [:]
  /// A short summary of the last change: `v12 +3 −1 ~2`.
  public private(set) var lastChange: String?
  /// Whether a `query/window` is in flight (one at a time; a later need is fetched after it).
  public private(set) var windowInFlight = false
  /// How many rows the last `query/window` asked for (for the status line and tests).
  public private(set) var lastWindowLimit = 0
  /// Search matches (ids and their flattened rows), kept current across changes.
  public private(set) var matches: [(id: String, row: Int)] = []
  /// The notifications received before the layout was loaded, or recently (to replay on a
  /// late answer), in version order.
  private var recent: [JSONValue] = []
  /// A window answer ahead of ``version``, installed when the notifications catch up.
  private var pendingWindow: JSONValue?

  /// How long a changed row stays highlighted, in seconds.
  public static let flashDuration = 0.6

  /// A state for `list` with a list area of `height` lines.
  public init(list: String, height: Int) {
    self.list = list
    self.height = max(1, height)
  }

  /// Rows fetched beyond each edge of the viewport.
  public var margin: Int { max(height, 8) }

  /// The number of visible rows, 0 before loading.
  public var totalRows: Int { layout?.totalRows ?? 0 }

  /// The cursor's row, if cached.
  public var cursor: ListRow? { rows[cursorRow] }

  // MARK: - Loading

  /// Loads the layout from a `query/sections` answer and replays the newer notifications
  /// received meanwhile. The cursor goes to `cursorRow` (clamped). Returns false if the answer
  /// is malformed.
  @discardableResult
  public mutating func load(sectionsAnswer answer: JSONValue, now: Double) -> Bool {
    guard let layout = ListLayout(sectionsAnswer: answer), let version = answer["version"]?.intValue else {
      return false
    }
    self.layout = layout
    self.version = Int(version)
    rows = [:]
    pendingWindow = nil
    windowInFlight = false
    cursorRow = max(0, min(cursorRow, layout.totalRows - 1))
    let replay = recent.filter { ($0["version"]?.intValue ?? 0) > version }
    for change in replay { _ = try? apply(didChange: change, now: now) }
    scrollToCursor()
    return true
  }

  /// Sets the selection from a `query/selection` answer, then replays the newer changes.
  public mutating func load(selectionAnswer answer: JSONValue) {
    let version = answer["version"]?.intValue ?? 0
    selectionMode = answer["mode"]?.stringValue
    selection = Set((answer["items"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
    for change in recent where (change["version"]?.intValue ?? 0) > version {
      let changeset = change["changeset"] ?? [:]
      for id in changeset["deselected"]?.arrayValue ?? [] { selection.remove(id.stringValue ?? "") }
      for id in changeset["selected"]?.arrayValue ?? [] { selection.insert(id.stringValue ?? "") }
    }
  }

  // MARK: - Changes

  /// Applies a `list/didChange` params object: maps the layout, the cache and the cursor (by
  /// identity; on a deleted item, to its nearest surviving neighbour), the selection, and
  /// flashes the rows that arrived or changed. Old versions are ignored. Throws
  /// ``LayoutMismatch`` on a gap or a changeset that does not fit: the caller resyncs.
  /// O(entries + cached rows + sections).
  public mutating func apply(didChange params: JSONValue, now: Double) throws {
    recent.append(params)
    if recent.count > 200 { recent.removeFirst(recent.count - 200) }
    guard let layout else { return }
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
    version = next
    rows = moved
    top = map.new.displayLine(ofRow: cursorRow) - screenOffset
    clampTop()
    scrollToCursor()
    pruneCache()

    let until = now + Self.flashDuration
    for json in map.arrivedRows.values { if let id = json["id"]?.stringValue { flashes[id] = until } }
    for json in map.updatedRows.values { if let id = json["id"]?.stringValue { flashes[id] = until } }
    for id in map.deselected { selection.remove(id) }
    for id in map.selected { selection.insert(id) }
    if let mode = params["changeset"]?["selectionMode"]?.stringValue { selectionMode = mode }
    lastChange = Self.summary(params["changeset"] ?? [:], version: next)

    if let pending = pendingWindow, pending["version"]?.intValue.map(Int.init) == version {
      pendingWindow = nil
      _ = install(windowAnswer: pending)
    }
  }

  /// `v12 +3 −1 ~2 ↕1 ✓1`: rows inserted, deleted, changed and moved, selection changes.
  static func summary(_ changeset: JSONValue, version: Int) -> String {
    func count(_ key: String, _ measure: (JSONValue) -> Int) -> Int {
      (changeset[key]?.arrayValue ?? []).reduce(0) { $0 + measure($1) }
    }
    let inserted =
      count("itemInserts") { $0["rows"]?.arrayValue?.count ?? 0 }
      + count("sectionInserts") { $0["section"]?["rows"]?.arrayValue?.count ?? 0 }
    let deleted = count("itemDeletes") { Int($0.arrayValue?.last?.intValue ?? 0) }
    let changed =
      count("itemReconfigures") { $0["rows"]?.arrayValue?.count ?? 0 }
      + count("itemReloads") { $0["rows"]?.arrayValue?.count ?? 0 }
    let moved = count("itemMoves") { Int($0.arrayValue?.last?.intValue ?? 0) }
    let selection = count("selected") { _ in 1 } + count("deselected") { _ in 1 }
    var parts = ["v\(version)"]
    if inserted > 0 { parts.append("+\(inserted)") }
    if deleted > 0 { parts.append("−\(deleted)") }
    if changed > 0 { parts.append("~\(changed)") }
    if moved > 0 { parts.append("↕\(moved)") }
    if selection > 0 { parts.append("✓\(selection)") }
    if changeset["sectionInserts"] != nil || changeset["sectionDeletes"] != nil
      || changeset["sectionMoves"] != nil || changeset["sectionReloads"] != nil
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

  // MARK: - Window fetch

  /// The rows shown on screen.
  public var visibleRows: Range<Int> { layout?.rows(onDisplayLines: top..<(top + height)) ?? 0..<0 }

  /// The `query/window` to send now, `(offset, limit)`, or nil: when the rows on screen and
  /// half a margin around them are cached, or a fetch is already in flight. It asks for the
  /// screen plus ``margin`` rows on each side — never more. Marks the fetch in flight.
  public mutating func nextWindowRequest() -> (offset: Int, limit: Int)? {
    guard let layout, !windowInFlight, layout.totalRows > 0 else { return nil }
    let visible = visibleRows
    let wanted =
      max(0, visible.lowerBound - margin / 2)..<min(layout.totalRows, visible.upperBound + margin / 2)
    guard wanted.contains(where: { rows[$0] == nil }) else { return nil }
    let offset = max(0, visible.lowerBound - margin)
    let end = min(layout.totalRows, max(visible.upperBound, visible.lowerBound + 1) + margin)
    windowInFlight = true
    lastWindowLimit = end - offset
    return (offset, end - offset)
  }

  /// Installs a `query/window` answer. An answer ahead of ``version`` waits for the
  /// notifications to catch up; an older one is dropped. Returns false when the answer does
  /// not match the layout at the same version (the caller resyncs).
  @discardableResult
  public mutating func install(windowAnswer answer: JSONValue) -> Bool {
    windowInFlight = false
    guard let layout, let answerVersion = answer["version"]?.intValue.map(Int.init) else { return true }
    if answerVersion > version {
      pendingWindow = answer
      return true
    }
    guard answerVersion == version else { return true }
    guard answer["totalRows"]?.intValue.map(Int.init) == layout.totalRows else { return false }
    let offset = Int(answer["offset"]?.intValue ?? 0)
    for (index, json) in (answer["rows"]?.arrayValue ?? []).enumerated() {
      if let row = ListRow(json) { rows[offset + index] = row }
    }
    if let id = cursorID, rows[cursorRow]?.id != id,
      let found = rows.first(where: { $0.value.id == id })
    {
      cursorRow = found.key
      scrollToCursor()
    }
    if cursorID == nil { cursorID = rows[cursorRow]?.id }
    pruneCache()
    return true
  }

  /// Keeps the cache bounded — what a jump back to the last screen would need, no more — also
  /// after a changeset that carried many rows (expanding a folder of 100,000 files).
  mutating func pruneCache() {
    guard rows.count > 6 * margin else { return }
    let keep = max(0, visibleRows.lowerBound - 2 * margin)..<(visibleRows.upperBound + 2 * margin)
    rows = rows.filter { keep.contains($0.key) }
  }

  /// Forgets an answer that failed, so the need is fetched again.
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
    moveCursor(to: cursorRow + pages * max(1, height - 1))
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
      layout.sections[path.section].header != nil
    {
      wantedTop = line - 1
    }
    if wantedTop < top { top = wantedTop }
    if line >= top + height { top = line - height + 1 }
    clampTop()
  }

  private mutating func clampTop() {
    let lines = layout?.displayLineCount ?? 0
    top = max(0, min(top, lines - height))
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
