// Reads the state directory at startup: the newest intact checkpoint, then the journals after it.
import Foundation

/// What startup found in the state directory: the records to apply, in order, and every
/// problem met on the way (each is reported; none stops the daemon).
struct JournalRecovery {
  /// The newest complete checkpoint's states, then every journal record after it.
  var records: [JournalRecord] = []
  /// For each of `records`, the generation whose journal it came from (nil: a checkpoint).
  var generations: [Int?] = []
  var problems: [String] = []
  /// What is worth logging but lost nothing.
  var notes: [String] = []
  /// Whether recovery should write a checkpoint at once (one was interrupted, or damage found).
  var needsCheckpoint = false
  /// The generation whose journal takes the next appends, and the length to cut it to
  /// (nil: it is intact).
  var appendGeneration = 1
  var intactBytes: Int?
  /// The newest complete checkpoint (0: none).
  var checkpointed = 0
  /// The generations whose journal is damaged, and the damaged tail cut from the newest one
  /// (kept aside as `N.journal.damaged`).
  var damaged: Set<Int> = []
  var damagedTail: [UInt8]?

  /// Reads `directory`. O(size of the newest checkpoint and the journals after it).
  static func read(_ directory: StateDirectory) throws(JournalError) -> JournalRecovery {
    var recovery = JournalRecovery()
    for generation in directory.generations("checkpoint").reversed() {
      let file = directory.file(generation, "checkpoint")
      guard let bytes = try directory.read(file) else { continue }
      let scan = RecordFraming.scan(bytes)
      var records: [JournalRecord] = []
      var problem = scan.problems.first
      for body in scan.bodies where problem == nil {
        do throws(JournalError) {
          records.append(try JournalRecord(body: body))
        } catch {
          problem = "\(error)"
        }
      }
      guard problem == nil, case .checkpointEnd(generation)? = records.last else {
        recovery.problems.append(
          "checkpoint \(file) is \(problem ?? "incomplete") and was skipped: recovering from an older one")
        continue
      }
      recovery.records = Array(records.dropLast())
      recovery.generations = Array(repeating: nil, count: recovery.records.count)
      recovery.checkpointed = generation
      break
    }
    let journals = directory.generations("journal")
    // Every generation after the first starts with a checkpoint; a missing one is reported
    // (recovery then goes on from an older checkpoint and the journals after it).
    let checkpoints = Set(directory.generations("checkpoint"))
    for generation in journals
    where generation > max(1, recovery.checkpointed) && !checkpoints.contains(generation) {
      let file = directory.file(generation, "checkpoint")
      // Its temporary file is made before the generation's journal, and becomes a `.failed`
      // marker if the checkpoint fails (a full disk): without either, it was deleted. An
      // interrupted one's becomes the marker here: it stays until retention deletes the
      // generation, so a start that fails to write its own checkpoint leaves the next start
      // the same evidence.
      let interrupted = rename(file + ".tmp", file + ".failed") == 0
      if interrupted || access(file + ".failed", F_OK) == 0 {
        // Nothing is lost: the journals hold it all.
        recovery.notes.append(
          "checkpoint \(file) "
            + (interrupted ? "was being written when the daemon stopped" : "could not be written (it failed)")
            + "; recovering from the journals")
        recovery.needsCheckpoint = true
        continue
      }
      recovery.problems.append(
        "checkpoint \(file) is missing: recovering from "
          + (recovery.checkpointed > 0 ? "checkpoint \(recovery.checkpointed)" : "the first journal")
          + " and the journals after it")
    }
    let first = recovery.checkpointed > 0 ? recovery.checkpointed - 1 : (journals.first ?? 1)
    if recovery.checkpointed == 0, first > 1 {
      recovery.problems.append(
        "no intact checkpoint, and the journals start at generation \(first): lists created before it are lost"
      )
    }
    let replayed = journals.filter { $0 >= first }
    recovery.appendGeneration = max(replayed.last ?? 1, recovery.checkpointed, 1)
    for generation in replayed {
      let file = directory.file(generation, "journal")
      guard let bytes = try directory.read(file) else { continue }
      let scan = RecordFraming.scan(bytes)
      for body in scan.bodies {
        do throws(JournalError) {
          recovery.records.append(try JournalRecord(body: body))
          recovery.generations.append(generation)
        } catch {
          recovery.problems.append("journal \(file) has \(error); that record was skipped")
          recovery.damaged.insert(generation)
        }
      }
      for problem in scan.problems {
        recovery.problems.append(
          "journal \(file) has \(problem); the changes of other lists after it are recovered, "
            + "a list that lost a change stays at the version before it")
        recovery.damaged.insert(generation)
      }
      if scan.damagedTail, generation == recovery.appendGeneration {
        recovery.intactBytes = scan.intactBytes
        recovery.damagedTail = Array(bytes[scan.intactBytes...])
      }
    }
    return recovery
  }
}
