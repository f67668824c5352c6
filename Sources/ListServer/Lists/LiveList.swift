// One live list: its committed snapshot and version, history, subscribers and owner.
import Dispatch
import JSON
import JSONRPC
import ListModel
import ListProtocol
import Synchronization

/// A list the daemon holds.
///
/// Every change, subscription and history read runs on ``queue``, a serial queue, so changes
/// of one list are serialized in arrival order across sessions while different lists never
/// block each other. The committed state sits behind a mutex so queries read it from any
/// thread in O(1) (snapshots are copy-on-write values) without waiting for the queue.
final class LiveList: Sendable {
  /// The state a query sees: one committed version.
  struct Committed: Sendable {
    var snapshot: ListSnapshot
    var version: Int
    var metadata: ListMetadata
  }

  private struct State {
    var committed: Committed
    var history: ChangeHistory
    /// Each subscribed session's subscription (through the gate of its latest `list/subscribe`).
    var subscribers: [Int: ListSubscription] = [:]
    var owner: (any ListOwner)?
    /// Counts the times the list lost its owner, so an orphan timer fires only for the
    /// orphanhood it was started for.
    var orphanings = 0
    var isDisposed = false
    /// The journal ticket of the last change committed in `batch` sync mode, for the request
    /// that made it to answer once it is durable (``takeDurabilityTicket()``).
    var durabilityTicket: UInt64?
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
  private let state: Mutex<State>

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

  /// The list's owner, if it still has a reachable one.
  var owner: (any ListOwner)? {
    state.withLock { $0.owner }.flatMap { $0.isReachable ? $0 : nil }
  }

  /// `list/info`: `{list, title, appearance, selectionMode, version, sections, items, rows,
  /// selected, owner, subscribers}`, the list attributes that are not the default (`columns`)
  /// and, for a view, its `source`. O(sections + columns).
  func info() -> JSONValue {
    let committed = state.withLock { $0.committed }
    return info(version: committed.version, committed.snapshot)
  }

  /// `list/info` with the versioned fields of `snapshot` at `version`.
  func info(version: Int, _ snapshot: ListSnapshot) -> JSONValue {
    let (committed, owner, subscribers) = state.withLock { ($0.committed, $0.owner, $0.subscribers.count) }
    var object: JSONObject = [
      "list": .string(id),
      "title": .string(committed.metadata.title),
      "appearance": .string(committed.metadata.appearance.rawValue),
      "selectionMode": .string(snapshot.selectionMode.rawValue),
      "version": .int(Int64(version)),
      "sections": .int(Int64(snapshot.numberOfSections)),
      "items": .int(Int64(snapshot.numberOfItems(includingHidden: true))),
      "rows": .int(Int64(snapshot.numberOfItems())),
      "selected": .int(Int64(snapshot.selectedItems.count)),
      "owner": owner.flatMap { $0.isReachable ? $0.ownerInfo : nil } ?? .null,
      "subscribers": .int(Int64(subscribers)),
    ]
    ListAttributeCoding.append(snapshot, to: &object)
    if let derivation { object.append("source", .string(derivation.source.id)) }
    return .object(object)
  }

  // MARK: - Changes (call on `queue`)

  /// Applies `change` to the committed snapshot and commits the result: the version goes up by
  /// one, the change enters the history, `list/didChange` is queued to every subscriber, and
  /// the `{list, version, changeset}` answer is returned — in that order, so a mutation's answer
  /// always follows its notification. A change that alters nothing creates no version. Throws
  /// (changing nothing) if the list is disposed, `ifVersion` is stale or `change` throws.
  /// `change` returns the changeset and, for a batch, its decoded edits (kept in `source` for
  /// `list/explain`); with `explain` the answer carries the explanation too.
  /// Must run on ``queue``. O(cost of the change + size of the changeset).
  /// `wireEdits` are the batch as sent (`list/edit`), which the journal keeps as they are.
  func mutate(
    ifVersion: Int?, source: ChangeSource, explain: Bool = false, wireEdits: JSONValue? = nil,
    answerRows: AnswerRows = .all,
    _ change: (inout ListSnapshot) throws(ResponseError) -> (Changeset, DecodedEdits?)
  ) throws(ResponseError) -> JSONValue {
    defer { reclaimIdentifiersIfNeeded() }
    let current = try current(ifVersion: ifVersion)
    var snapshot = current.snapshot
    let (changeset, edits) = try change(&snapshot)
    var source = source
    source.edits = edits
    let journaled =
      journal == nil
      ? nil
      : wireEdits.map(JournaledChange.wireEdits)
        ?? edits.flatMap { $0.patches.isEmpty ? JournaledChange(modelEdits: $0.edits) : nil }
    return try commit(
      snapshot, changeset: changeset, from: current, source: source, explain: explain, journaled: journaled,
      answerRows: answerRows)
  }

  /// ``mutate(ifVersion:source:explain:_:)`` for a change that is not a batch of edits.
  func mutate(
    ifVersion: Int?, source: ChangeSource, _ change: (inout ListSnapshot) throws(ResponseError) -> Changeset
  ) throws(ResponseError) -> JSONValue {
    try mutate(ifVersion: ifVersion, source: source) { snapshot throws(ResponseError) in
      (try change(&snapshot), nil)
    }
  }

  /// The committed state, if the list still exists and `ifVersion` (when given) matches.
  func current(ifVersion: Int?) throws(ResponseError) -> Committed {
    let (committed, disposed) = state.withLock { ($0.committed, $0.isDisposed) }
    guard !disposed else { throw .unknownList(id) }
    if let ifVersion, ifVersion != committed.version {
      throw .staleVersion(list: id, expected: ifVersion, current: committed.version)
    }
    return committed
  }

  /// Commits `snapshot` (derived from `base`, the committed state) with its changeset, made by
  /// `source`; with `explain` the answer carries the explanation. With a journal the change is
  /// written first — as `journaled`, or as the whole new state when nil — and a change that
  /// cannot be written is refused, changing nothing. Must run on ``queue``.
  func commit(
    _ snapshot: ListSnapshot, changeset: Changeset, from base: Committed, source: ChangeSource,
    explain: Bool = false, journaled: JournaledChange? = nil, answerRows: AnswerRows = .all
  ) throws(ResponseError) -> JSONValue {
    let encoded = ChangesetEncoding.changeset(changeset)
    let answered =
      answerRows == .all ? encoded : ChangesetEncoding.changeset(changeset, rows: answerRows.encoding)
    var result: JSONValue
    // An empty changeset can still hide a change (a hidden item's payload): only equal
    // snapshots keep the version.
    if changeset.isEmpty && snapshot == base.snapshot {
      result = Self.mutationResult(list: id, version: base.version, changeset: answered)
    } else {
      let version = base.version + 1
      let params: JSONValue = [
        "list": .string(id), "version": .int(Int64(version)), "previousVersion": .int(Int64(base.version)),
        "changeset": encoded,
      ]
      let ticket = try journalChange(journaled, producing: version, snapshot: snapshot, base: base)
      let subscribers = record(
        snapshot, version: version, params: params, changeset: changeset, base: base, source: source)
      state.withLock { $0.durabilityTicket = ticket }
      for view in views { view.derivation?.follow(snapshot, changeset: changeset, into: view) }
      if !subscribers.isEmpty {
        let bodies = Self.notificationBodies(
          subscribers, params: params, changeset: changeset, old: base.snapshot, new: snapshot)
        let notify: @Sendable () -> Void = { [self] in
          for (subscriber, body) in zip(subscribers, bodies)
          where !subscriber.deliver(version: version, body: body, old: base.snapshot, new: snapshot) {
            unsubscribe(subscriber.session.id)
          }
        }
        Journal.afterDurable(journal, ticket, notify)
      }
      result = Self.mutationResult(list: id, version: version, changeset: answered)
    }
    if explain {
      result = result.setting(
        "explain", ExplanationEncoding.explain(changeset, from: base.snapshot, to: snapshot, source: source))
    }
    return result
  }

  /// The encoded `didChange` for each subscriber: one encoding for every full subscriber, one
  /// per distinct window for the windowed ones (their rows filtered by the window). Each body
  /// shares the bytes of the others of its form.
  private static func notificationBodies(
    _ subscribers: [ListSubscription], params: JSONValue, changeset: Changeset, old: ListSnapshot,
    new: ListSnapshot
  ) -> [[UInt8]] {
    var full: [UInt8]?
    var windowed: [RowWindow: [UInt8]] = [:]
    return subscribers.map { subscriber in
      guard let window = subscriber.window else {
        if let full { return full }
        let body = Session.encodeNotification("list/didChange", params)
        full = body
        return body
      }
      if let body = windowed[window] { return body }
      let filtered = params.setting(
        "changeset", ChangesetEncoding.changeset(changeset, rows: .window(window, old: old, new: new)))
      let body = Session.encodeNotification("list/didChange", filtered)
      windowed[window] = body
      return body
    }
  }

  /// Makes `snapshot` the committed state at `version` and enters the change in the history;
  /// returns the subscribers to notify. Must run on ``queue``.
  private func record(
    _ snapshot: ListSnapshot, version: Int, params: JSONValue, changeset: Changeset, base: Committed,
    source: ChangeSource
  ) -> [ListSubscription] {
    let record = ChangeRecord(before: base.snapshot, after: snapshot, source: source)
    let recordWeight = base.snapshot.retainedWeight(notSharedWith: snapshot)
    return state.withLock { state -> [ListSubscription] in
      state.committed.snapshot = snapshot
      state.committed.version = version
      state.history.append(
        version: version, params: params, weight: Self.weight(of: changeset), record: record,
        recordWeight: recordWeight, listWeight: snapshot.numberOfItems(includingHidden: true))
      return Array(state.subscribers.values)
    }
  }

  /// Writes the change producing `version` to the journal (if any); its durability ticket in
  /// `batch` mode. Throws -32020 naming the cause when it cannot be written.
  private func journalChange(
    _ journaled: JournaledChange?, producing version: Int, snapshot: ListSnapshot, base: Committed
  ) throws(ResponseError) -> UInt64? {
    guard let journal else { return nil }
    let record =
      journaled.map { JournalRecord.change(list: id, serial: serial, version: version, change: $0) }
      ?? .state(list: id, serial: serial, version: version, metadata: base.metadata, snapshot: snapshot)
    do {
      return try journal.append(record)
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
    let base = committed
    let params: JSONValue = [
      "list": .string(id), "version": .int(Int64(version)), "previousVersion": .int(Int64(base.version)),
      "changeset": ChangesetEncoding.changeset(changeset),
    ]
    _ = record(
      snapshot, version: version, params: params, changeset: changeset, base: base,
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

  /// The ticket of the last change committed, if its answer must wait for the journal
  /// (`--sync batch`); taken once. Must run on ``queue``.
  func takeDurabilityTicket() -> UInt64? {
    state.withLock { state in
      defer { state.durabilityTicket = nil }
      return state.durabilityTicket
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
  /// Amortized O(1) per interned id. Must run on ``queue`` (after a change, failed or not).
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

  static func mutationResult(list: String, version: Int, changeset: JSONValue) -> JSONValue {
    ["list": .string(list), "version": .int(Int64(version)), "changeset": changeset]
  }

  /// How much of the history budget a changeset uses: the rows it carries, roughly.
  private static func weight(of changeset: Changeset) -> Int {
    1 + changeset.itemChangeCount + changeset.sectionInserts.reduce(0) { $0 + $1.section.rows.count }
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

  // MARK: - Subscriptions (call on `queue`)

  /// Adds a subscriber (or renews a subscription) and returns the committed state it starts
  /// from: it receives every later change, through `gate` (which holds them until the answer
  /// describing this state is sent). Must run on ``queue`` so no change slips between the state
  /// and the registration.
  func subscribe(_ gate: SubscriptionGate, window: RowWindow? = nil) throws(ResponseError) -> Committed {
    let result = state.withLock { state -> Committed? in
      guard !state.isDisposed else { return nil }
      let subscription = ListSubscription(
        list: id, gate: gate, window: window, version: state.committed.version,
        detach: { [weak self] in self?.unsubscribe($0) })
      state.subscribers.updateValue(subscription, forKey: gate.session.id)?.retire()
      return state.committed
    }
    guard let result else { throw .unknownList(id) }
    if gate.session.isDetached { unsubscribe(gate.session.id) }  // closed meanwhile (Session.isDetached)
    return result
  }

  /// The ids of the subscribed sessions.
  var subscriberIDs: [Int] { state.withLock { Array($0.subscribers.keys) } }

  /// Removes a subscriber. Any thread.
  func unsubscribe(_ sessionID: Int) {
    state.withLock { $0.subscribers.removeValue(forKey: sessionID) }?.retire()
  }

  /// Removes `subscription` if it is still the session's current one. Any thread.
  func unsubscribe(_ subscription: ListSubscription) {
    state.withLock { state in
      if state.subscribers[subscription.session.id] === subscription {
        state.subscribers[subscription.session.id] = nil
      }
    }
  }

  /// Moves the window of `session`'s subscription and returns the committed state it starts
  /// afresh from; -32602 naming `list` without a subscription. Must run on ``queue``.
  func setWindow(_ window: RowWindow, session: Int) throws(ResponseError) -> Committed {
    let result = state.withLock { state -> (Committed, Bool)? in
      guard !state.isDisposed else { return nil }
      guard let subscription = state.subscribers[session] else { return (state.committed, false) }
      subscription.setWindow(window, at: state.committed.version)
      return (state.committed, true)
    }
    guard let result else { throw .unknownList(id) }
    guard result.1 else {
      throw .invalidParams("list '\(id)' has no subscription from this session", field: "list")
    }
    return result.0
  }

  /// The params of every change after `version` (each with its `explain` when asked), or
  /// -32015 if the history no longer has them (with `explain`: their records).
  /// Must run on ``queue``. O(changes), plus their explanations.
  func changes(since version: Int, explain: Bool = false) throws(ResponseError) -> (
    current: Int, changes: [JSONValue]
  ) {
    let (history, current, disposed) = state.withLock { ($0.history, $0.committed.version, $0.isDisposed) }
    guard !disposed else { throw .unknownList(id) }
    guard version <= current else {
      throw .invalidParams(
        "\"version\" \(version) is newer than the list's version \(current)", field: "version")
    }
    guard
      let records = history.records(since: version, current: current)
        ?? journaledChanges(since: version, history)
    else {
      // The changes since a version are kept when every version from it to the current one
      // is: from the start of the kept range that ends at the current version.
      let inMemory = history.oldestBase ?? current
      let kept = keptVersions(fromMemory: inMemory, current: current)
      // Memory's bound if the files claimed `version` but did not rebuild from it.
      let oldest = kept.last.flatMap { $0.lowerBound > version ? $0.lowerBound : nil } ?? inMemory
      let damage = damageNote(gap(version, in: kept, through: true))
      throw ResponseError(
        .historyUnavailable,
        "list '\(id)' keeps changes since version \(oldest) only, not \(version): resubscribe to resync\(damage)",
        data: ["oldestVersion": .int(Int64(oldest)), "currentVersion": .int(Int64(current))])
    }
    guard explain else { return (current, records.map(\.params)) }
    var changes: [JSONValue] = []
    for (params, record) in records {
      guard let record else {
        throw unexplainable(Int(params["version"]?.intValue ?? 0), history: history, current: current)
      }
      changes.append(params.setting("explain", ExplanationEncoding.explain(record)))
    }
    return (current, changes)
  }

  /// The changes after `version` that the in-memory history no longer keeps, rebuilt from the
  /// journal (`--state`), followed by those it keeps; nil if the journal does not retain them.
  /// O(size of the journal files read + cost of the changes replayed).
  private func journaledChanges(since version: Int, _ history: ChangeHistory) -> [(
    params: JSONValue, record: ChangeRecord?
  )]? {
    guard let journal, let oldestBase = history.oldestBase ?? Optional(committed.version),
      version < oldestBase
    else { return nil }
    var changes: [(params: JSONValue, record: ChangeRecord?)] = []
    var previous: ListSnapshot?
    let source = ChangeSource(method: "journal")
    let complete = journal.replay(serial: serial, list: id, from: version, through: oldestBase) {
      replayed, snapshot, changeset in
      defer { previous = snapshot }
      guard let changeset, let before = previous else { return true }
      let params: JSONValue = [
        "list": .string(id), "version": .int(Int64(replayed)), "previousVersion": .int(Int64(replayed - 1)),
        "changeset": ChangesetEncoding.changeset(changeset),
      ]
      changes.append((params, ChangeRecord(before: before, after: snapshot, source: source)))
      return true
    }
    guard complete, let kept = history.records(since: oldestBase, current: committed.version) else {
      return nil
    }
    return changes + kept
  }

  /// `list/explain`: the change that produced `version`, explained (`{list, version,
  /// previousVersion, changeset, explain}`); with `item`, only the causes that concern it, and
  /// without `version` the latest kept change that concerns it (`version` null if none).
  /// Must run on ``queue``. O(the explained diffs).
  func explanation(of version: Int?, item: String?) throws(ResponseError) -> JSONValue {
    let (history, current, disposed) = state.withLock { ($0.history, $0.committed.version, $0.isDisposed) }
    guard !disposed else { throw .unknownList(id) }
    let versions: [Int]
    if let version {
      guard version >= 1, version <= current else {
        let changes = current == 0 ? "it has no changes yet" : "its changes are versions 1 to \(current)"
        throw .invalidParams(
          "\"version\" \(version) is not a change of list '\(id)': \(changes)", field: "version")
      }
      versions = [version]
    } else {
      versions = history.explainableVersionsNewestFirst
    }
    for candidate in versions {
      guard let (params, record) = history.entry(producing: candidate), let record else {
        throw unexplainable(candidate, history: history, current: current)
      }
      let changeset = diff(record.before, record.after)
      var causes = ListSnapshot.explain(
        changeset, from: record.before, to: record.after, edits: record.source.edits?.edits)
      if let item {
        causes = ListSnapshot.causes(
          causes, coveringItem: item, changeset: changeset, from: record.before, to: record.after)
        if causes.isEmpty && version == nil { continue }
      }
      var answer = params.setting("explain", ExplanationEncoding.encode(causes, source: record.source))
      if let item { answer = answer.setting("item", .string(item)) }
      return answer
    }
    return [
      "list": .string(id), "version": .null, "item": item.map(JSONValue.string) ?? .null,
      "oldestVersion": history.oldestExplainable.map { .int(Int64($0)) } ?? .null,
    ]
  }

  /// -32015 for a change whose record the history no longer keeps.
  private func unexplainable(_ version: Int, history: ChangeHistory, current: Int) -> ResponseError {
    let oldest = history.oldestExplainable ?? current + 1
    return ResponseError(
      .historyUnavailable,
      "list '\(id)' can explain its changes since version \(oldest) only, not version \(version)",
      data: ["oldestVersion": .int(Int64(oldest)), "currentVersion": .int(Int64(current))])
  }

  /// Marks the list disposed and returns its subscribers and final version. Must run on ``queue``.
  func dispose(journaling: Bool = true) throws(ResponseError) -> (version: Int, subscribers: [Session]) {
    guard !isDisposed else { throw .unknownList(id) }
    if journaling, let journal {
      do {
        let ticket = try journal.append(.dispose(list: id, serial: serial))
        state.withLock { $0.durabilityTicket = ticket }
      } catch {
        journal.logRefusal(error)
        throw .journalFailed(list: id, error)
      }
    }
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
    guard let result else { throw .unknownList(id) }
    return result
  }

  /// Drops the owner if it is `owner` (its session closed) and returns the orphaning's
  /// number (for ``isStillOrphaned(_:)``), or nil if `owner` did not own the list.
  @discardableResult
  func releaseOwner(_ owner: any ListOwner) -> Int? {
    state.withLock { state in
      guard let current = state.owner, current === owner else { return nil }
      state.owner = nil
      state.orphanings += 1
      return state.orphanings
    }
  }

  /// Whether `orphaning` (from ``releaseOwner(_:)``) is still the list's state: nobody claimed it since.
  func isStillOrphaned(_ orphaning: Int) -> Bool {
    state.withLock { $0.owner == nil && $0.orphanings == orphaning && !$0.isDisposed }
  }

  /// Checks that `session` may act as the owner: it owns the list, the list has no reachable
  /// owner, or `force` is given. Returns the owner it displaces (to be told), if any.
  /// Throws -32018 naming the owner otherwise.
  func checkOwnership(
    by session: Session, force: Bool, action: String
  ) throws(ResponseError) -> (any ListOwner)? {
    guard let owner, owner !== session else { return nil }
    if !force { throw .notOwner(list: id, owner: owner.ownerInfo, action: action) }
    return owner
  }

  /// Makes `session` the owner (`list/claim`). The caller checks ``Session/isDetached`` after.
  func setOwner(_ session: Session) {
    state.withLock { $0.owner = session }
  }

}
