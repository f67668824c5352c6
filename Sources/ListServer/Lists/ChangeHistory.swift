// The bounded history of a list's changes, serving `list/changesSince` and `list/explain`.
import ListModel
import ListProtocol

/// One kept change: what `list/changesSince` reports of it (its versions and changeset) and,
/// while the record budget keeps it, its ``ChangeRecord`` for `list/explain`.
struct KeptChange: Sendable {
  /// How a change is kept: as its changeset until the server layer publishes it, then as the
  /// form it was published in (its `list/didChange` params, opaque to the list), which a
  /// catch-up replays as it is — the changeset is not kept twice.
  enum Form: Sendable {
    case changeset(Changeset)
    case published(any Sendable)
  }

  var version: Int
  var previousVersion: Int
  var form: Form
  var record: ChangeRecord?

  /// The changeset, while the change is kept as one.
  var changeset: Changeset? {
    if case .changeset(let changeset) = form { return changeset }
    return nil
  }
}

/// The last changes of one list, each kept as its changeset or as the form it was published in.
///
/// Bounded twice: by a number of versions (default 1,000) and by a weight — the number of rows
/// the kept changesets carry — so a burst of huge replaces cannot pin unbounded memory. The
/// oldest entries are dropped first. Not thread-safe: its ``LiveList`` guards it.
///
/// Each entry also keeps its ``ChangeRecord`` (the snapshots before and after, and the source)
/// for `list/explain`, under budgets of their own: the latest `maxRecords` changes (default 1,000),
/// and what the kept `before` snapshots alone hold,
/// in item-sized units (``ListSnapshot/retainedWeight(notSharedWith:)``): at most 64,000 (about
/// 4 MB) or the list's own item count, whichever is more — versions share what they did not
/// change, so a long list keeps about as many records of small edits as a short one. Past it
/// the oldest records are dropped first (their changes stay for `list/changesSince`); the
/// newest record is always kept.
struct ChangeHistory {
  /// One committed change: `version` is the version it produced.
  struct Entry {
    var version: Int
    var previousVersion: Int
    var form: KeptChange.Form
    var weight: Int
    var record: ChangeRecord?
    var recordWeight: Int
  }

  /// Maximum number of versions kept.
  let capacity: Int
  /// Maximum total weight kept; the newest entry is always kept, whatever its weight.
  let maxWeight: Int
  /// Maximum total weight of the kept records (what only their `before` snapshots hold).
  let maxRecordWeight: Int
  /// Maximum number of kept records.
  let maxRecords: Int
  private var entries: [Entry] = []
  /// Index of the oldest entry in `entries` (a ring once full).
  private var head = 0
  private var totalWeight = 0
  /// Index in `entries` of the oldest entry that still has its record.
  private var recordHead = 0
  private var totalRecordWeight = 0

  init(capacity: Int, maxWeight: Int = 4_000_000, maxRecordWeight: Int = 64_000, maxRecords: Int = 1_000) {
    self.capacity = max(1, capacity)
    self.maxWeight = max(1, maxWeight)
    self.maxRecordWeight = max(1, maxRecordWeight)
    self.maxRecords = max(1, maxRecords)
  }

  /// The number of changes kept.
  var count: Int { entries.count - head }

  /// The oldest version a client may ask changes since: the version before the oldest kept
  /// change, or nil when nothing is kept.
  var oldestBase: Int? { count > 0 ? entries[head].version - 1 : nil }

  /// Records the change that produced `version` (which must follow the last one), with its
  /// record weighing `recordWeight`; the records may weigh `listWeight` (the list's item count)
  /// when that is more than `maxRecordWeight`. Amortized O(1).
  mutating func append(
    version: Int, previousVersion: Int, changeset: Changeset, weight: Int, record: ChangeRecord,
    recordWeight: Int, listWeight: Int = 0
  ) {
    entries.append(
      Entry(
        version: version, previousVersion: previousVersion, form: .changeset(changeset), weight: weight,
        record: record,
        recordWeight: recordWeight))
    totalWeight += weight
    totalRecordWeight += recordWeight
    while count > capacity || (totalWeight > maxWeight && count > 1) {
      dropRecord(at: head)
      totalWeight -= entries[head].weight
      entries[head] = Entry(
        version: 0, previousVersion: 0, form: .changeset(Changeset()), weight: 0, record: nil, recordWeight: 0
      )  // release now
      head += 1
    }
    recordHead = max(recordHead, head)
    let recordBudget = max(maxRecordWeight, listWeight)
    while (totalRecordWeight > recordBudget || entries.count - recordHead > maxRecords)
      && recordHead < entries.count - 1
    {
      dropRecord(at: recordHead)
      recordHead += 1
    }
    if head > 64 && head * 2 > entries.count {  // compact, keeping appends amortized O(1)
      entries.removeFirst(head)
      recordHead -= head
      head = 0
    }
  }

  private mutating func dropRecord(at index: Int) {
    guard entries[index].record != nil else { return }
    totalRecordWeight -= entries[index].recordWeight
    entries[index].record = nil
    entries[index].recordWeight = 0
  }

  /// The oldest version whose change still has its record (can be explained), or nil. O(1).
  var oldestExplainable: Int? { recordHead < entries.count ? entries[recordHead].version : nil }

  /// The change that produced `version`, nil if it is not kept. O(1).
  func entry(producing version: Int) -> KeptChange? {
    guard count > 0, version >= entries[head].version, version <= entries[entries.count - 1].version else {
      return nil
    }
    return Self.kept(entries[head + (version - entries[head].version)])
  }

  /// The versions kept with a record, newest first. O(records kept).
  var explainableVersionsNewestFirst: [Int] {
    entries[recordHead...].reversed().map(\.version)
  }

  /// Every change after `version`, oldest first, or nil when some of the changes are no longer
  /// kept (a change may have lost its record). O(changes).
  func records(since version: Int, current: Int) -> [KeptChange]? {
    if version == current { return [] }
    guard version < current, let oldestBase, version >= oldestBase else { return nil }
    let first = head + (version - oldestBase)
    return entries[first...].map(Self.kept)
  }

  /// Keeps the latest change, if it produced `version`, as `published` (the form it was
  /// published in) instead of its changeset. O(1).
  mutating func keep(published: any Sendable, ofVersion version: Int) {
    guard count > 0, entries[entries.count - 1].version == version else { return }
    entries[entries.count - 1].form = .published(published)
  }

  private static func kept(_ entry: Entry) -> KeptChange {
    KeptChange(
      version: entry.version, previousVersion: entry.previousVersion, form: entry.form, record: entry.record)
  }

  /// Forgets everything (when a list is disposed). O(1).
  mutating func removeAll() {
    entries = []
    head = 0
    totalWeight = 0
    recordHead = 0
    totalRecordWeight = 0
  }
}
