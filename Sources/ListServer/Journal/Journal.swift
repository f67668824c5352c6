// The append-only journal of committed changes: writes, group commit, checkpoints and retention.
import Dispatch
import Foundation
import JSONRPC
import ListProtocol

/// Appends records to the current generation's journal file and makes them durable as
/// ``SyncMode`` says. When the journal passes ``Settings/checkpointBytes`` a new generation
/// starts: its journal takes the appends at once, and a checkpoint of every list is written
/// in the background; generations older than the one before the newest checkpoint are deleted
/// once retention no longer needs them.
///
/// `@unchecked Sendable`: every mutable member is guarded by `condition`.
final class Journal: @unchecked Sendable {
  struct Settings: Sendable {
    var sync: SyncMode = .batch
    /// A journal larger than this — or than the last checkpoint, if that is larger — starts a
    /// new generation with a checkpoint, so recovery reads at most about twice the lists' size.
    var checkpointBytes = 16 << 20
    /// So does a journal of this many records (small changes cost their replay, not their bytes).
    var checkpointRecords = 50_000
    /// Generations are kept while every list's versions in them are within this many of its
    /// current version…
    var retainVersions = 10_000
    /// …and while all generations together take at most this many bytes.
    var retainBytes = 1 << 30
  }

  let directory: StateDirectory
  let settings: Settings
  private let logger: Logger
  private let condition = NSCondition()
  private var fd: Int32
  private var generation: Int
  private var size: Int
  /// Records appended / known durable, counted from the start of this process.
  private var appended: UInt64 = 0
  private var durable: UInt64 = 0
  private var waiters: [(ticket: UInt64, body: @Sendable () -> Void)] = []
  private var checkpointing = false
  private var stopped = false
  /// The newest generation with a complete checkpoint.
  private var checkpointed: Int
  /// Takes the state of every list for a checkpoint (set by the server once it has recovered).
  private var capture: (@Sendable () -> [JournalRecord])?
  /// For each generation file this process knows, the versions of each list (by serial) it
  /// holds; and each live list's newest version. Retention and past versions read them.
  private var heldVersions: [GenerationFile: [Int: HeldVersions]] = [:]
  private var latestVersions: [Int: Int] = [:]
  /// Held while the older files are read, so a concurrent history read waits for all of them.
  private let learning = NSLock()
  private var olderGenerationsLearned = false
  /// The newest complete checkpoint at startup: recovery read it and the journals from the
  /// generation before it on; history reads learn the older files (``learnOlderGenerations()``).
  private let recoveredCheckpoint: Int
  /// Damage that history reads met in files recovery did not read (each reported once).
  private var damage: [String] = []
  /// Records in the current generation's journal, and the size of the last checkpoint written.
  private var recordCount = 0
  private var lastCheckpointBytes = 0
  private var lastRefusal: String?
  /// Runs durability callbacks in ticket order.
  private let callbacks = DispatchQueue(label: "listd.journal.callbacks")

  /// Opens the journal of `generation` for appending (truncated to `intactBytes`, dropping a
  /// torn or corrupt tail), with `checkpointed` the newest complete checkpoint.
  init(
    directory: StateDirectory, generation: Int, intactBytes: Int?, checkpointed: Int, settings: Settings,
    logger: Logger
  ) throws(JournalError) {
    self.directory = directory
    self.settings = settings
    self.logger = logger
    self.generation = generation
    self.checkpointed = checkpointed
    self.recoveredCheckpoint = checkpointed
    let file = directory.file(generation, "journal")
    fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw JournalError("cannot open \(file): \(StateDirectory.reason())") }
    if let intactBytes {
      guard ftruncate(fd, off_t(intactBytes)) == 0 else {
        throw JournalError("cannot truncate \(file): \(StateDirectory.reason())")
      }
      Platform.syncData(fd)
    }
    var status = stat()
    fstat(fd, &status)
    size = Int(status.st_size)
    directory.syncDirectory()
    if settings.sync == .batch {
      let thread = Thread { [self] in syncLoop() }
      thread.name = "listd-journal-sync"
      thread.start()
    }
  }

  /// Starts checkpoints: `capture` gives the state record of every list.
  func startCheckpoints(capture: @escaping @Sendable () -> [JournalRecord]) {
    condition.withLock { self.capture = capture }
  }

  // MARK: - Appending

  /// Writes `record`; returns the ticket to wait for with ``whenDurable(_:_:)`` (batch mode),
  /// or nil when the record is already as durable as ``SyncMode`` promises. Throws, having
  /// written nothing, when the record cannot be written (a full disk, an I/O error).
  /// O(record size), plus a durable sync (`Platform.syncData`) in `always` mode.
  func append(_ record: JournalRecord) throws(JournalError) -> UInt64? {
    let frame = RecordFraming.frame(record.body)
    condition.lock()
    defer { condition.unlock() }
    guard !stopped else { throw JournalError("the journal is closed: the daemon is stopping") }
    if let failure = write(frame) {
      ftruncate(fd, off_t(size))  // no torn record stays behind
      throw JournalError("cannot write the journal \(directory.file(generation, "journal")): \(failure)")
    }
    size += frame.count
    appended += 1
    lastRefusal = nil
    noteVersion(of: record)
    recordCount += 1
    let due =
      size > max(settings.checkpointBytes, lastCheckpointBytes) || recordCount > settings.checkpointRecords
    if due && !checkpointing && capture != nil {
      checkpointing = true
      DispatchQueue.global(qos: .utility).async { [self] in checkpoint() }
    }
    switch settings.sync {
    case .always:
      guard Platform.syncData(fd) == 0 else {
        let failure = StateDirectory.reason()
        size -= frame.count
        ftruncate(fd, off_t(size))
        throw JournalError("cannot sync the journal: \(failure)")
      }
      durable = appended
      return nil
    case .none:
      durable = appended
      return nil
    case .batch:
      condition.signal()
      return appended
    }
  }

  /// Logs a change refused because it could not be written (once per cause in a row).
  func logRefusal(_ error: JournalError) {
    let first = condition.withLock { () -> Bool in
      defer { lastRefusal = error.description }
      return lastRefusal != error.description
    }
    if first { logger.error("journal: changes are refused: \(error)") }
  }

  /// Keeps the retention bookkeeping of `record`, held by `file` (this generation's journal if
  /// nil). Call with the lock held (or before the journal is shared).
  /// `retention: false` for records of the past, which say nothing of the lists' latest versions.
  func noteVersion(of record: JournalRecord, in file: GenerationFile? = nil, retention: Bool = true) {
    let file = file ?? GenerationFile(generation: generation, checkpoint: false)
    switch record {
    case .state(_, let serial, let version, _, _, _, _):
      heldVersions[file, default: [:]][serial, default: HeldVersions()].insert(version, base: true)
      if retention { latestVersions[serial] = max(latestVersions[serial] ?? version, version) }
    case .change(_, let serial, let version, _):
      heldVersions[file, default: [:]][serial, default: HeldVersions()].insert(version, base: false)
      if retention { latestVersions[serial] = max(latestVersions[serial] ?? version, version) }
    case .dispose(_, let serial):
      if retention { latestVersions[serial] = nil }
    case .checkpointEnd:
      break
    }
  }

  /// The files known to hold versions of the list `serial`, with the versions each holds.
  /// The first call reads the generations older than those recovery read (once).
  func files(holding serial: Int) -> [(file: GenerationFile, versions: HeldVersions)] {
    learnOlderGenerations()
    return condition.withLock {
      heldVersions.compactMap { file, held in held[serial].map { (file, $0) } }
    }
  }

  /// Forgets what the journal of `generation` holds (it was set aside as damaged).
  func forgetJournal(of generation: Int) {
    condition.withLock {
      _ = heldVersions.removeValue(forKey: GenerationFile(generation: generation, checkpoint: false))
    }
  }

  /// The damage history reads met so far, as reported (`journal DIR/N.journal has …`).
  var historyDamage: [String] { condition.withLock { damage } }

  /// Reads the files recovery did not (the checkpoints older than the one it started from, and
  /// the journals before the generation preceding it) to learn which versions they hold. Damage
  /// met there is logged and kept in ``historyDamage`` (once: this runs once).
  /// O(their size).
  private func learnOlderGenerations() {
    learning.lock()
    defer { learning.unlock() }
    guard !olderGenerationsLearned else { return }
    olderGenerationsLearned = true
    guard recoveredCheckpoint > 0 else { return }
    let generations = Set(directory.generations("journal") + directory.generations("checkpoint"))
    for generation in generations.sorted() where generation < recoveredCheckpoint {
      for checkpoint in [true, false] where checkpoint || generation < recoveredCheckpoint - 1 {
        let name = directory.file(generation, checkpoint ? "checkpoint" : "journal")
        guard let bytes = try? directory.read(name) else { continue }
        let file = GenerationFile(generation: generation, checkpoint: checkpoint)
        let scan = RecordFraming.scan(bytes)
        var problems = scan.problems
        for body in scan.bodies {
          do throws(JournalError) {
            let record = try JournalRecord(body: body)
            condition.withLock { noteVersion(of: record, in: file, retention: false) }
          } catch {
            problems.append("\(error)")
          }
        }
        for problem in problems {
          let text =
            checkpoint
            ? "checkpoint \(name) has \(problem); the lists' states after it cannot be read back"
            : "journal \(name) has \(problem); the changes after it, up to the next checkpoint, cannot be read back"
          logger.error("state \(directory.path): \(text)")
          condition.withLock { damage.append(text) }
        }
      }
    }
  }

  /// The newest generation with a complete checkpoint.
  var newestCheckpoint: Int { condition.withLock { checkpointed } }

  /// The newest generation (the one appends go to).
  var currentGeneration: Int { condition.withLock { generation } }

  /// Writes all of `bytes` to the journal; the reason on failure. Call with the lock held.
  private func write(_ bytes: [UInt8]) -> String? { Self.write(bytes, to: fd) }

  /// Writes all of `bytes` to `file`; the system's reason on failure.
  private static func write(_ bytes: [UInt8], to file: Int32) -> String? {
    var offset = 0
    while offset < bytes.count {
      let count = bytes[offset...].withUnsafeBytes { Platform.write(file, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return StateDirectory.reason()
      }
      offset += count
    }
    return nil
  }

  /// Runs `body` once the record of `ticket` is durable (in `journal`), or at once when there
  /// is nothing to wait for (no journal, or a sync mode that answers when written).
  static func afterDurable(_ journal: Journal?, _ ticket: UInt64?, _ body: @escaping @Sendable () -> Void) {
    if let journal, let ticket { journal.whenDurable(ticket, body) } else { body() }
  }

  /// Runs `body` once the record of `ticket` is durable, after the bodies of earlier tickets.
  func whenDurable(_ ticket: UInt64, _ body: @escaping @Sendable () -> Void) {
    condition.withLock {
      if ticket <= durable {
        callbacks.async(execute: body)
      } else {
        waiters.append((ticket, body))
      }
    }
  }

  /// Group commit: syncs whatever was appended since the last sync, then releases its waiters.
  private func syncLoop() {
    condition.lock()
    while true {
      while appended == durable && !stopped { condition.wait() }
      if stopped && appended == durable { break }
      let target = appended
      let file = fd
      condition.unlock()
      let failed = Platform.syncData(file) != 0 ? StateDirectory.reason() : nil
      condition.lock()
      if let failed, file == fd {
        // The records stay written; their answers go out, but say so loudly.
        logger.error(
          "journal: \(Platform.syncDataCall) failed (\(failed)); the last changes may not survive a power loss"
        )
      }
      markDurable(upTo: target)
    }
    condition.unlock()
  }

  /// Call with the lock held.
  private func markDurable(upTo target: UInt64) {
    durable = max(durable, target)
    var index = 0
    while index < waiters.count && waiters[index].ticket <= durable {
      callbacks.async(execute: waiters[index].body)
      index += 1
    }
    waiters.removeFirst(index)
  }

  /// Makes everything appended durable and stops appending (a clean stop), after a checkpoint
  /// in flight completes: the next start then finds no interrupted checkpoint to redo, and
  /// retention deletes nothing more than it did before the stop. Idempotent.
  func close() {
    condition.lock()
    defer { condition.unlock() }
    guard !stopped else { return }
    while checkpointing { condition.wait() }
    Platform.syncData(fd)
    markDurable(upTo: appended)
    stopped = true
    condition.broadcast()
  }

  // MARK: - Checkpoints

  /// Writes a checkpoint now, on the calling thread (after recovery found damage).
  func checkpointNow() {
    let start = condition.withLock { () -> Bool in
      if checkpointing { return false }
      checkpointing = true
      return true
    }
    if start { checkpoint() }
  }

  /// Starts generation + 1, writes its checkpoint, then deletes what retention allows.
  private func checkpoint() {
    defer {
      condition.withLock {
        checkpointing = false
        condition.broadcast()
      }
    }
    let (next, capture) = condition.withLock { (generation + 1, self.capture) }
    guard let capture else { return }
    // The checkpoint's temporary file comes first: recovery tells an interrupted checkpoint
    // (it exists) from a deleted one (it does not).
    let temporary = open(
      directory.file(next, "checkpoint") + ".tmp", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard temporary >= 0 else {
      logger.error("journal: cannot start checkpoint \(next): \(StateDirectory.reason())")
      return
    }
    Platform.close(temporary)
    let file = directory.file(next, "journal")
    let newFD = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
    guard newFD >= 0 else {
      logger.error("journal: cannot start \(file): \(StateDirectory.reason()); staying on the current one")
      return
    }
    directory.syncDirectory()
    condition.withLock {
      // Records appended before the switch stay in the old file: sync it before leaving it.
      Platform.syncData(fd)
      markDurable(upTo: appended)
      Platform.close(fd)
      fd = newFD
      generation = next
      size = 0
      recordCount = 0
    }
    // Each list's state is taken after the switch: a change whose record went to the old
    // journal either is in its state or is replayed from the old journal on recovery.
    let records = capture()
    do {
      try writeCheckpoint(records, generation: next)
      condition.withLock {
        checkpointed = next
        for record in records {
          noteVersion(of: record, in: GenerationFile(generation: next, checkpoint: true))
        }
      }
      deleteUnretained(newest: next)
    } catch {
      // The journals still hold everything: recovery replays them from the checkpoint before.
      // The marker tells the next start so (without it, a missing checkpoint is damage).
      markFailed(next)
      logger.error("journal: checkpoint \(next) failed: \(error); the journals keep every change")
    }
  }

  /// Leaves `N.checkpoint.failed` for the checkpoint of `generation`, which was never completed:
  /// its temporary file, emptied and renamed (no new space needed, so a full disk takes it too;
  /// it is created empty if the failure was to create it).
  /// Recovery reads the marker as "the journals hold everything", not as damage; it goes when
  /// retention deletes the generation.
  private func markFailed(_ generation: Int) {
    let file = directory.file(generation, "checkpoint")
    let temporary = open(file + ".tmp", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    if temporary >= 0 { Glibc.close(temporary) }
    if rename(file + ".tmp", file + ".failed") != 0 {
      logger.error("journal: cannot mark checkpoint \(generation) as failed: \(StateDirectory.reason())")
    }
    directory.syncDirectory()
  }

  private func writeCheckpoint(_ records: [JournalRecord], generation: Int) throws(JournalError) {
    let file = directory.file(generation, "checkpoint")
    let temporary = file + ".tmp"
    let out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard out >= 0 else { throw JournalError("cannot create \(temporary): \(StateDirectory.reason())") }
    defer { Platform.close(out) }
    for record in records + [.checkpointEnd(generation: generation)] {
      let injected = Self.failsForTest(generation) ? StateDirectory.reason(ENOSPC) : nil
      if let reason = injected ?? Self.write(RecordFraming.frame(record.body), to: out) {
        ftruncate(out, 0)  // the space goes back; the empty file becomes the failure's marker
        throw JournalError("cannot write \(temporary): \(reason)")
      }
    }
    var status = stat()
    if fstat(out, &status) == 0 { condition.withLock { lastCheckpointBytes = Int(status.st_size) } }
    guard Platform.syncData(out) == 0, rename(temporary, file) == 0 else {
      let reason = StateDirectory.reason()
      ftruncate(out, 0)
      throw JournalError("cannot complete \(file): \(reason)")
    }
    directory.syncDirectory()
  }

  /// Deletes generations older than the one before `newest` (which recovery may still need)
  /// while they exceed the retention budgets.
  private func deleteUnretained(newest: Int) {
    let journals = directory.generations("journal")
    let checkpoints = directory.generations("checkpoint")
    let old = Set(journals + checkpoints).filter { $0 < newest - 1 }.sorted()
    var total = Self.bytes(of: directory.path)
    let (versions, latest) = condition.withLock { (heldVersions, latestVersions) }
    for generation in old {
      // Versions are known for the generations this process wrote or recovered; older ones
      // go by the byte budget only.
      let files = [true, false].compactMap {
        versions[GenerationFile(generation: generation, checkpoint: $0)]
      }
      let outOfRange =
        !files.isEmpty
        && files.allSatisfy { held in
          held.allSatisfy { serial, versions in
            latest[serial].map { (versions.newest ?? 0) <= $0 - settings.retainVersions } ?? true
          }
        }
      guard total > settings.retainBytes || outOfRange else { break }
      condition.withLock {
        for checkpoint in [true, false] {
          heldVersions.removeValue(forKey: GenerationFile(generation: generation, checkpoint: checkpoint))
        }
      }
      unlink(directory.file(generation, "checkpoint") + ".failed")
      for suffix in ["journal", "checkpoint"] {
        let file = directory.file(generation, suffix)
        var status = stat()
        if stat(file, &status) == 0 { total -= Int(status.st_size) }
        unlink(file)
      }
    }
  }

  /// The bytes of every file in `path`.
  private static func bytes(of path: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.reduce(0) { total, name in
      var status = stat()
      return stat(path + "/" + name, &status) == 0 ? total + Int(status.st_size) : total
    }
  }
}
