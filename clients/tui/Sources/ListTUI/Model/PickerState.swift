// The list picker's state: every list with title, row count and version, kept live.
import JSON

/// One list of the picker.
public struct PickerEntry: Equatable, Sendable {
  /// The list id.
  public var list: String
  /// Its title.
  public var title: String
  /// Its visible rows.
  public var rows: Int
  /// Its version.
  public var version: Int
  /// Its appearance (`plain`, `grouped`, …).
  public var appearance: String
  /// Its owner's name, or nil when ownerless.
  public var owner: String?

  /// An entry from a list `info` object; nil without a list id.
  public init?(info: JSONValue) {
    guard let list = info["list"]?.stringValue else { return nil }
    self.list = list
    title = info["title"]?.stringValue ?? list
    rows = Int(info["rows"]?.intValue ?? 0)
    version = Int(info["version"]?.intValue ?? 0)
    appearance = info["appearance"]?.stringValue ?? "plain"
    owner = info["owner"]?["name"]?.stringValue ?? (info["owner"]?.isNull == false ? "session" : nil)
  }
}

/// The picker: entries in the daemon's order and a cursor on one of them (by list id).
public struct PickerState: Sendable {
  /// The lists.
  public private(set) var entries: [PickerEntry] = []
  /// The index of the cursor's entry.
  public private(set) var cursor = 0

  /// An empty picker.
  public init() {}

  /// The list under the cursor.
  public var selectedList: String? { entries.indices.contains(cursor) ? entries[cursor].list : nil }

  /// Replaces every entry (from `list/subscribe` or `list/all`), keeping the cursor on its list.
  public mutating func setAll(_ infos: [JSONValue]) {
    let current = selectedList
    entries = infos.compactMap { PickerEntry(info: $0["info"] ?? $0) }
    cursor =
      current.flatMap { id in entries.firstIndex { $0.list == id } } ?? min(cursor, max(0, entries.count - 1))
  }

  /// Adds or updates a list from its `info`.
  public mutating func update(info: JSONValue) {
    guard let entry = PickerEntry(info: info) else { return }
    if let index = entries.firstIndex(where: { $0.list == entry.list }) {
      // An info answer older than a version seen in a notification must not move it back.
      if entry.version >= entries[index].version { entries[index] = entry }
    } else {
      entries.append(entry)
    }
  }

  /// Records a new version of `list` (from `list/didChange`); returns whether the list is known.
  @discardableResult
  public mutating func noteVersion(_ list: String, _ version: Int) -> Bool {
    guard let index = entries.firstIndex(where: { $0.list == list }) else { return false }
    entries[index].version = max(entries[index].version, version)
    return true
  }

  /// Removes a disposed list, keeping the cursor in range.
  public mutating func remove(_ list: String) {
    let current = selectedList
    entries.removeAll { $0.list == list }
    cursor =
      current.flatMap { id in entries.firstIndex { $0.list == id } } ?? min(cursor, max(0, entries.count - 1))
  }

  /// Moves the cursor by `delta`, clamped.
  public mutating func move(by delta: Int) { cursor = max(0, min(cursor + delta, entries.count - 1)) }

  /// Puts the cursor on `list` if present.
  public mutating func select(_ list: String) {
    if let index = entries.firstIndex(where: { $0.list == list }) { cursor = index }
  }

  /// The list after `list` (wrapping), for Tab.
  public func list(after list: String) -> String? {
    guard !entries.isEmpty else { return nil }
    let index = entries.firstIndex { $0.list == list } ?? -1
    return entries[(index + 1) % entries.count].list
  }
}
