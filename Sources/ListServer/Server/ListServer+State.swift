// `--state DIR`: opening the state directory at startup and bringing the journaled lists back.
import Foundation
import JSON
import JSONRPC
import ListModel
import ListProtocol

extension ListServer {
  /// Locks and reads the state directory (if ``ServerOptions/stateDirectory`` is set), brings
  /// back every journaled list (ownerless, at its last journaled version, with the history
  /// since the last checkpoint), and journals every later change. Returns the problems met
  /// (a torn tail, a corrupt record, a missing checkpoint), which are also logged and sent to
  /// the first session to initialize. Throws when the directory cannot be used (another
  /// daemon holds it, no permission). Call once, before attaching sessions.
  /// O(size of the newest checkpoint and the journals after it).
  @discardableResult
  public func openState() throws -> [String] {
    guard let path = options.stateDirectory else { return [] }
    let started = ContinuousClock.now
    let directory = try StateDirectory(path)
    var recovery = try JournalRecovery.read(directory)
    if let tail = recovery.damagedTail {
      // Kept aside before the journal is cut, for whoever wants to look at it.
      let aside = directory.file(recovery.appendGeneration, "journal") + ".damaged"
      _ = FileManager.default.createFile(
        atPath: aside, contents: Data(tail), attributes: [.posixPermissions: 0o600])
    }
    let journal = try Journal(
      directory: directory, generation: recovery.appendGeneration, intactBytes: recovery.intactBytes,
      checkpointed: recovery.checkpointed,
      settings: Journal.Settings(
        sync: options.sync, checkpointBytes: options.checkpointBytes, retainVersions: options.retainVersions,
        retainBytes: options.retainBytes),
      logger: options.logger)
    recovery.problems += restore(recovery, journal: journal)
    for problem in recovery.problems { options.logger.error("state \(path): \(problem)") }
    for note in recovery.notes { options.logger.info("state \(path): \(note)") }
    let registry = self.registry
    journal.startCheckpoints { registry.lists.compactMap { $0.checkpointRecord() } }
    if !recovery.problems.isEmpty || recovery.needsCheckpoint {
      // What was recovered becomes a checkpoint at once, and the damaged journals are set aside
      // (`N.journal.damaged`): the next start neither needs them nor reports them again.
      journal.checkpointNow()
      for generation in recovery.damaged where generation < journal.newestCheckpoint {
        let file = directory.file(generation, "journal")
        if rename(file, file + ".damaged") == 0 { journal.forgetJournal(of: generation) }
      }
    }
    durability.withLock { $0 = (journal, recovery.problems, false) }
    let lists = registry.lists
    options.logger.info(
      "state \(path): \(lists.count) list\(lists.count == 1 ? "" : "s") recovered in "
        + "\(ContinuousClock.now - started), sync \(options.sync.rawValue)")
    return recovery.problems
  }

  /// Applies the recovered records; returns the problems found in them (gaps, bad content).
  private func restore(_ recovery: JournalRecovery, journal: Journal) -> [String] {
    var problems: [String] = []
    var lists: [Int: LiveList] = [:]
    var maxSerial = 0
    // A list of the journal before the checkpoint's generation that the checkpoint does not
    // hold was disposed before the checkpoint: its records there are history.
    var checkpointed: Set<Int> = []
    // Only the last changes enter the in-memory history with their changesets: older ones
    // replay undiffed, so recovery costs the changes' own work, not a diff of the whole list per
    // change (`list/changesSince` and `atVersion` rebuild older ones from the journal on demand).
    var newest: [Int: Int] = [:]
    for record in recovery.records {
      switch record {
      case .state(_, let serial, let version, _, _, _, _), .change(_, let serial, let version, _):
        newest[serial] = max(newest[serial] ?? 0, version)
      default: break
      }
    }
    func diffing(_ serial: Int, _ version: Int) -> Bool {
      version > (newest[serial] ?? 0) - min(options.historyLimit, Self.recoveredHistory)
    }
    // A list whose journal has a gap or a change that does not replay stays before it; its
    // later records are skipped (one problem reported per list).
    var stalled: Set<Int> = []
    for (record, generation) in zip(recovery.records, recovery.generations) {
      journal.noteVersion(
        of: record,
        in: GenerationFile(generation: generation ?? recovery.checkpointed, checkpoint: generation == nil))
      if let generation {
        if generation < recovery.checkpointed, let serial = record.serial, !checkpointed.contains(serial) {
          continue
        }
      } else if let serial = record.serial {
        checkpointed.insert(serial)
      }
      if let serial = record.serial, stalled.contains(serial) { continue }
      switch record {
      case .state(let id, let serial, let version, let metadata, _, _, _):
        maxSerial = max(maxSerial, serial)
        if let list = lists[serial] {
          guard version > list.committed.version else { continue }
          guard version == list.committed.version + 1 else {
            problems.append(gap(list, at: version))
            stalled.insert(serial)
            continue
          }
          do {
            let snapshot = try record.snapshot()
            let changeset = diffing(serial, version) ? diff(list.committed.snapshot, snapshot) : nil
            list.restore(snapshot, changeset: changeset, version: version)
          } catch {
            problems.append(
              "list '\(id)': version \(version) cannot be read (\(error)); it stays at \(version - 1)")
            stalled.insert(serial)
          }
          continue
        }
        do {
          let snapshot = try record.snapshot()
          if let old = try? registry.list(id) {
            problems.append("list '\(id)' appears twice in the journal; the later one is kept")
            registry.remove(old)
          }
          let list = LiveList(
            id: id, snapshot: snapshot, metadata: metadata, owner: nil, historyLimit: options.historyLimit,
            explainLimit: options.explainLimit, version: version, serial: serial, journal: journal)
          _ = try mappingListErrors { () throws(ListError) in try registry.add(list) }
          lists[serial] = list
        } catch {
          problems.append("list '\(id)' cannot be read (\(error)) and was not recovered")
        }
      case .change(let id, let serial, let version, let change):
        guard let list = lists[serial], version > list.committed.version else { continue }
        guard version == list.committed.version + 1 else {
          problems.append(gap(list, at: version))
          stalled.insert(serial)
          continue
        }
        let diffing = diffing(serial, version)
        // Undiffed, the snapshot is edited in place (no copy of what the list held).
        var snapshot = diffing ? list.committed.snapshot : list.takeSnapshotForRestore()
        do {
          let changeset = try change.apply(to: &snapshot, list: id, diffing: diffing)
          list.restore(snapshot, changeset: diffing ? changeset : nil, version: version)
        } catch {
          // A change that fails leaves the snapshot as it was (edits are atomic).
          if !diffing { list.restore(snapshot, changeset: nil, version: version - 1) }
          problems.append(
            "list '\(id)': version \(version) does not replay (\(error.message)); it stays at \(version - 1)")
          stalled.insert(serial)
        }
      case .dispose(_, let serial):
        if let list = lists.removeValue(forKey: serial) {
          _ = try? list.dispose(journaling: false)
          registry.remove(list)
        }
      case .checkpointEnd:
        break
      }
    }
    nextListSerial.store(maxSerial + 1, ordering: .relaxed)
    return problems
  }

  /// Changes per list that recovery enters in the in-memory history.
  static let recoveredHistory = 100

  private func gap(_ list: LiveList, at version: Int) -> String {
    "list '\(list.id)': the journal skips from version \(list.committed.version) to \(version); "
      + "it stays at \(list.committed.version)"
  }

  /// What startup found wrong in the state directory, for the first session to initialize
  /// (sent once as `window/logMessage`; every session finds them in ``stateCapability``).
  func takeStartupProblems() -> [String] {
    durability.withLock { state in
      defer { state.reported = true }
      return state.reported ? [] : state.problems
    }
  }

  /// `capabilities.state` of `initialize`: `{sync, recoveryProblems}` with `--state`, else absent.
  /// The problems are startup's, then the damage history reads met since in older generations.
  var stateCapability: JSONValue? {
    guard options.stateDirectory != nil else { return nil }
    let (journal, problems) = durability.withLock { ($0.journal, $0.problems) }
    let later = journal?.historyDamage ?? []
    return [
      "sync": .string(options.sync.rawValue),
      "recoveryProblems": .array((problems + later).map(JSONValue.string)),
    ]
  }

  /// Makes every journaled change durable and stops journaling (a clean stop).
  public func closeState() {
    durability.withLock { $0.journal }?.close()
  }
}
