// The bounded history of a list's changes, serving `list/changesSince`.
import JSON

/// The last changes of one list, each kept as its encoded `list/didChange` params.
///
/// Bounded twice: by a number of versions (default 1,000) and by a weight — the number of rows
/// the kept changesets carry — so a burst of huge replaces cannot pin unbounded memory. The
/// oldest entries are dropped first. Not thread-safe: its ``LiveList`` guards it.
struct ChangeHistory {
  /// One committed change: `version` is the version it produced.
  struct Entry {
    var version: Int
    var params: JSONValue
    var weight: Int
  }

  /// Maximum number of versions kept.
  let capacity: Int
  /// Maximum total weight kept; the newest entry is always kept, whatever its weight.
  let maxWeight: Int
  private var entries: [Entry] = []
  /// Index of the oldest entry in `entries` (a ring once full).
  private var head = 0
  private var totalWeight = 0

  init(capacity: Int, maxWeight: Int = 4_000_000) {
    self.capacity = max(1, capacity)
    self.maxWeight = max(1, maxWeight)
  }

  /// The number of changes kept.
  var count: Int { entries.count - head }

  /// The oldest version a client may ask changes since: the version before the oldest kept
  /// change, or nil when nothing is kept.
  var oldestBase: Int? { count > 0 ? entries[head].version - 1 : nil }

  /// Records the change that produced `version` (which must follow the last one). Amortized O(1).
  mutating func append(version: Int, params: JSONValue, weight: Int) {
    entries.append(Entry(version: version, params: params, weight: weight))
    totalWeight += weight
    while count > capacity || (totalWeight > maxWeight && count > 1) {
      totalWeight -= entries[head].weight
      entries[head] = Entry(version: 0, params: .null, weight: 0)  // release the params now
      head += 1
    }
    if head > 64 && head * 2 > entries.count {  // compact, keeping appends amortized O(1)
      entries.removeFirst(head)
      head = 0
    }
  }

  /// The params of every change after `version`, oldest first, or nil when some of them are no
  /// longer kept. `version` equal to the current version gives an empty array. O(changes).
  func changes(since version: Int, current: Int) -> [JSONValue]? {
    if version == current { return [] }
    guard version < current, let oldestBase, version >= oldestBase else { return nil }
    let first = head + (version - oldestBase)
    return entries[first...].map(\.params)
  }

  /// Forgets everything (when a list is disposed). O(1).
  mutating func removeAll() {
    entries = []
    head = 0
    totalWeight = 0
  }
}
