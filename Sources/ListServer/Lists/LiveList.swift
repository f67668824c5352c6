// One live list: its committed snapshot and version, and how a change is committed to it.
import Dispatch
import ListModel
import ListProtocol
import Synchronization

/// A list the daemon holds.
///
/// Every change, subscription and history read runs on ``queue``, a serial queue, so changes
/// of one list are serialized in arrival order across sessions while different lists never
/// block each other. The committed state sits behind a mutex so queries read it from any
/// thread in O(1) (snapshots are copy-on-write values) without waiting for the queue.
///
/// The list knows no wire form: a commit returns a ``ListCommit`` (the server layer notifies
/// and answers from it), refusals are ``ListError``s. Its subscriptions, ownership, history
/// and past versions are in LiveList+Subscriptions.swift, LiveList+Ownership.swift,
/// LiveList+History.swift and LiveList+Versions.swift.
final class LiveList: Sendable {
  /// The state a query sees: one committed version.
  struct Committed: Sendable {
    var snapshot: ListSnapshot
    var version: Int
    var metadata: ListMetadata
  }

  /// Everything that changes, under one lock. Only this type's own files touch it.
  struct State {
    var committed: Committed
    var history: ChangeHistory
    /// Each subscribed session's subscription (through the gate of its latest `list/subscribe`).
    var subscribers: [Int: ListSubscription] = [:]
    var owner: (any ListOwner)?
    /// Counts the times the list lost its owner, so an orphan timer fires only for the
    /// orphanhood it was started for.
    var orphanings = 0
    var isDisposed = false
    /// The live views derived from this list, which follow each of its changes.
    var views: [LiveList] = []
  }

  let id: String
  /// Tells this list apart from an earlier list of the same id in the journal.
  let serial: Int
  /// Where committed changes are journaled (`--state`), if anywhere.
  let journal: Journal?
  /// Serializes changes, subscriptions and history reads of this list.
  let queue: DispatchQueue
  /// Where versions older than the history's records come from (LiveList+Versions.swift).
  let pastVersions = PastVersions()
  /// Set when this list is a live view: its source and engine (Views/ViewDerivation.swift).
  let derivation: ViewDerivation?
  /// The list's state; LiveList's own extension files read and change it.
  let state: Mutex<State>

  init(
    id: String, snapshot: ListSnapshot, metadata: ListMetadata, owner: (any ListOwner)?, historyLimit: Int,
    explainLimit: Int = 1_000, version: Int = 0, serial: Int = 0, journal: Journal? = nil,
    derivation: ViewDerivation? = nil
  ) {
    self.id = id
    self.derivation = derivation
    self.serial = serial
    self.journal = journal
    self.queue = DispatchQueue(label: "listd.list.\(id)")
    if let journal { pastVersions.connect(JournalVersions(journal: journal, serial: serial, list: id)) }
    state = Mutex(
      State(
        committed: Committed(snapshot: snapshot, version: version, metadata: metadata),
        history: ChangeHistory(capacity: historyLimit, maxRecords: explainLimit), owner: owner))
  }

  /// The latest committed state. O(1).
  var committed: Committed { state.withLock { $0.committed } }

  /// The history, the committed state and whether the list is disposed, read together: what
  /// the versions memory retains are read from (LiveList+Versions.swift). Any thread. O(1).
  var historyAndCommitted: (history: ChangeHistory, committed: Committed, isDisposed: Bool) {
    state.withLock { ($0.history, $0.committed, $0.isDisposed) }
  }

  /// Whether the list has been disposed (every later operation answers "unknown list").
  var isDisposed: Bool { state.withLock { $0.isDisposed } }

  /// What `list/info` reports beside a snapshot's counts, read together: the metadata, the
  /// reachable owner and the number of subscribers. Any thread. O(1).
  var infoState: (metadata: ListMetadata, owner: (any ListOwner)?, subscribers: Int) {
    let (metadata, owner, subscribers) = state.withLock {
      ($0.committed.metadata, $0.owner, $0.subscribers.count)
    }
    return (metadata, owner.flatMap { $0.isReachable ? $0 : nil }, subscribers)
  }

  // MARK: - Changes (call on `queue`)

  /// The committed state, if the list still exists and `ifVersion` (when given) matches.
  func current(ifVersion: Int?) throws(ListError) -> Committed {
    let (committed, disposed) = state.withLock { ($0.committed, $0.isDisposed) }
    guard !disposed else { throw .unknownList(id) }
    if let ifVersion, ifVersion != committed.version {
      throw .staleVersion(list: id, expected: ifVersion, current: committed.version)
    }
    return committed
  }

  /// Commits `snapshot` (derived from `base`, the committed state, by `changeset`), made by
  /// `source`: the version goes up by one, the change enters the history, the live views follow
  /// it, and the returned ``ListCommit`` names the subscribers to notify (once its ticket is
  /// durable) before the change is answered. A change that alters nothing creates no version.
  /// With a journal the change is written first — as `journaled`, or as the whole new state
  /// when nil — and a change that cannot be written is refused, changing nothing.
  /// Must run on ``queue``. O(cost of the record + the views' updates).
  func commit(
    _ snapshot: ListSnapshot, changeset: Changeset, from base: Committed, source: ChangeSource,
    journaled: JournaledChange? = nil
  ) throws(ListError) -> ListCommit {
    var commit = ListCommit(
      list: id, previousVersion: base.version, version: base.version, changeset: changeset,
      before: base.snapshot, after: snapshot, source: source, subscribers: [], durabilityTicket: nil)
    // An empty changeset can still hide a change (a hidden item's payload): only equal
    // snapshots keep the version.
    if changeset.isEmpty && snapshot == base.snapshot { return commit }
    let version = base.version + 1
    commit.durabilityTicket = try journalChange(journaled, producing: version, snapshot: snapshot, base: base)
    commit.version = version
    commit.subscribers = record(snapshot, version: version, changeset: changeset, base: base, source: source)
    for view in views { view.derivation?.follow(snapshot, changeset: changeset, into: view) }
    return commit
  }

  /// Makes `snapshot` the committed state at `version` and enters the change in the history;
  /// returns the subscribers to notify. Must run on ``queue``.
  private func record(
    _ snapshot: ListSnapshot, version: Int, changeset: Changeset, base: Committed, source: ChangeSource
  ) -> [ListSubscription] {
    let record = ChangeRecord(before: base.snapshot, after: snapshot, source: source)
    let recordWeight = base.snapshot.retainedWeight(notSharedWith: snapshot)
    return state.withLock { state -> [ListSubscription] in
      state.committed.snapshot = snapshot
      state.committed.version = version
      state.history.append(
        version: version, previousVersion: base.version, changeset: changeset,
        weight: Self.weight(of: changeset),
        record: record, recordWeight: recordWeight, listWeight: snapshot.numberOfItems(includingHidden: true))
      return Array(state.subscribers.values)
    }
  }

  /// Writes the change producing `version` to the journal (if any); its durability ticket in
  /// `batch` mode. Throws ``ListError/journalFailed(list:_:)`` when it cannot be written.
  private func journalChange(
    _ journaled: JournaledChange?, producing version: Int, snapshot: ListSnapshot, base: Committed
  ) throws(ListError) -> DurabilityTicket? {
    guard let journal else { return nil }
    let record =
      journaled.map { JournalRecord.change(list: id, serial: serial, version: version, change: $0) }
      ?? .state(list: id, serial: serial, version: version, metadata: base.metadata, snapshot: snapshot)
    return try append(record, to: journal)
  }

  /// Appends `record` to `journal`: its ticket, or the refusal (logged) naming the cause.
  private func append(_ record: JournalRecord, to journal: Journal) throws(ListError) -> DurabilityTicket? {
    do {
      return DurabilityTicket(journal, try journal.append(record))
    } catch {
      journal.logRefusal(error)
      throw .journalFailed(list: id, error)
    }
  }

  /// Replays a change read from the journal at startup: no journaling, no subscribers. Without
  /// a changeset the change is not entered in the history (it is older than the history keeps).
  /// Must run before the list is shared.
  func restore(_ snapshot: ListSnapshot, changeset: Changeset?, version: Int) {
    guard let changeset else {
      state.withLock { state in
        state.committed.snapshot = snapshot
        state.committed.version = version
        state.history.removeAll()
      }
      return
    }
    _ = record(
      snapshot, version: version, changeset: changeset, base: committed,
      source: ChangeSource(method: "journal"))
  }

  /// Takes the committed snapshot out (an empty one stands in) so a replay edits it in place;
  /// ``restore(_:changeset:version:)`` puts the result back. Before the list is shared only.
  func takeSnapshotForRestore() -> ListSnapshot {
    state.withLock { state in
      defer { state.committed.snapshot = ListSnapshot(selectionMode: state.committed.snapshot.selectionMode) }
      return state.committed.snapshot
    }
  }

  /// The list's state as a checkpoint record. O(items).
  func checkpointRecord() -> JournalRecord? {
    let (committed, disposed) = state.withLock { ($0.committed, $0.isDisposed) }
    guard !disposed, derivation == nil else { return nil }  // views are not journaled
    return .state(
      list: id, serial: serial, version: committed.version, metadata: committed.metadata,
      snapshot: committed.snapshot)
  }

  /// Moves the committed snapshot to a fresh id table once the shared one is mostly ids no
  /// snapshot uses anymore (deleted items, failed edits), so memory follows the list's size.
  /// Amortized O(1) per interned id. Must run on ``queue``, once at the end of each turn that
  /// may have interned ids (a change, failed or not, or a preview of one).
  func reclaimIdentifiersIfNeeded() {
    let snapshot = state.withLock { $0.committed.snapshot }
    guard snapshot.hasReclaimableIdentifiers else { return }
    let compacted = snapshot.compacted()
    state.withLock { $0.committed.snapshot = compacted }
    // The old table and the history records' copies of its index are freed from now on, in
    // whichever malloc arena they were made: give those pages back, before the next change
    // (compaction is O(items) and rare: once the table holds 4,096 ids more than twice the list).
    MemoryTrim.now()
  }

  /// Changes the title or appearance; no new version (metadata is not content). Any thread.
  func updateMetadata(_ update: (inout ListMetadata) -> Void) {
    state.withLock { update(&$0.committed.metadata) }
  }

  /// How much of the history budget a changeset uses: the rows it carries, roughly.
  private static func weight(of changeset: Changeset) -> Int {
    1 + changeset.itemChangeCount + changeset.sectionInserts.reduce(0) { $0 + $1.section.rows.count }
  }

  /// Marks the list disposed and returns its subscribers and final version (journaled first,
  /// with `journaling`; then the answer waits for the returned ticket). Must run on ``queue``.
  func dispose(journaling: Bool = true) throws(ListError) -> ListDisposal {
    guard !isDisposed else { throw .unknownList(id) }
    var ticket: DurabilityTicket?
    if journaling, let journal { ticket = try append(.dispose(list: id, serial: serial), to: journal) }
    let result = state.withLock { state -> (Int, [Session])? in
      guard !state.isDisposed else { return nil }
      state.isDisposed = true
      state.history.removeAll()
      defer {
        for subscription in state.subscribers.values { subscription.retire() }  // no catch-up after didDispose
        state.subscribers = [:]
      }
      return (state.committed.version, state.subscribers.values.map(\.session))
    }
    guard let (version, subscribers) = result else { throw .unknownList(id) }
    return ListDisposal(version: version, subscribers: subscribers, durabilityTicket: ticket)
  }

  // MARK: - Views

  /// The live views of this list.
  var views: [LiveList] { state.withLock { $0.views } }

  /// Adds a view that follows this list's changes from now on. Must run on ``queue``.
  func addView(_ view: LiveList) {
    state.withLock { $0.views.append(view) }
  }

  /// Forgets a view (disposed). Any thread.
  func removeView(_ view: LiveList) {
    state.withLock { $0.views.removeAll { $0 === view } }
  }
}
