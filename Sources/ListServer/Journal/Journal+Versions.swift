// Past versions from the journal: a list rebuilt at any version the state directory retains.
import JSON
import JSONRPC
import ListModel
import ListProtocol

extension Journal {
  /// Replays the list `serial` from the files: from the newest state (a checkpoint's, its
  /// creation, a change journaled whole) at or before `first` that every version up to `first`
  /// follows without a gap, through every version up to `last`, calling `visit` with each version
  /// from `first` on, its snapshot and the changeset that made it (nil for the first version
  /// visited). Stops early when `visit` returns false. Returns false when the files do not hold
  /// the versions asked for (retention dropped them, or damage). Any thread: appends go on
  /// meanwhile (a record still being written is not read).
  /// O(size of the checkpoint and journals read + cost of the changes replayed).
  func replay(
    serial: Int, list: String, from first: Int, through last: Int,
    _ visit: (_ version: Int, _ snapshot: ListSnapshot, _ changeset: Changeset?) -> Bool
  ) -> Bool {
    let held = files(holding: serial)
    // The base is in the reachable run that holds `first`: the versions after it are all there.
    // Its generation's checkpoint, then the journals from the one before it (a checkpoint's
    // state may precede the last records of the journal before it), hold that run.
    guard let run = HeldVersions.reachable(held.map(\.versions)).first(where: { $0.contains(first) }),
      let (base, start) = held.compactMap({ file, versions in
        versions.bases.last(where: { run.lowerBound <= $0 && $0 <= first }).map { ($0, file.generation) }
      }).max(by: { $0.0 < $1.0 })
    else { return false }
    var snapshot: ListSnapshot?
    var version = -1
    func step(_ record: JournalRecord) -> Bool? {
      switch record {
      case .state(_, serial, let recordVersion, _, _, _, _):
        if snapshot == nil && recordVersion != base { return nil }
        guard recordVersion > version, recordVersion <= last else {
          return recordVersion > last ? false : nil
        }
        guard snapshot == nil || recordVersion == version + 1 else { return false }
        guard let next = try? record.snapshot() else { return false }
        let changeset = snapshot.map { diff($0, next) }
        snapshot = next
        version = recordVersion
        if version >= first && !visit(version, next, version == first ? nil : changeset) { return false }
        return version == last ? false : nil
      case .change(_, serial, let recordVersion, let change):
        guard var next = snapshot, recordVersion > version else { return nil }
        guard recordVersion == version + 1, recordVersion <= last else { return false }
        guard let changeset = try? change.apply(to: &next, list: list) else { return false }
        snapshot = next
        version = recordVersion
        if version >= first && !visit(version, next, version == first ? nil : changeset) { return false }
        return version == last ? false : nil
      default:
        return nil
      }
    }
    var files = [directory.file(start, "checkpoint")]
    for generation in max(1, start - 1)...currentGeneration {
      files.append(directory.file(generation, "journal"))
    }
    for file in files {
      guard let bytes = try? directory.read(file) else { continue }
      for body in RecordFraming.scan(bytes).bodies {
        guard let record = try? JournalRecord(body: body), record.serial == serial else { continue }
        if let more = step(record), !more { return version == last }
      }
    }
    return version == last
  }

  /// The versions of the list `serial` the files can rebuild: ascending, disjoint ranges (a
  /// gap is damage, or retention that deleted the base of the versions after it).
  func retainedVersions(serial: Int) -> [ClosedRange<Int>] {
    HeldVersions.reachable(files(holding: serial).map(\.versions))
  }

  /// The oldest version of the list `serial` the files retain, or nil.
  func oldestVersion(serial: Int) -> Int? { retainedVersions(serial: serial).first?.lowerBound }
}

extension JournalRecord {
  /// The snapshot a state record holds; throws if it cannot be decoded. O(items).
  func snapshot() throws -> ListSnapshot {
    guard case .state(let list, _, _, _, let mode, let content, let selected) = self else {
      throw JournalError("not a state record")
    }
    // Read as written, as JournaledChange.apply reads changes.
    let sections = try ContentDecoding.$acceptsRepeatedSystemAccessories.withValue(true) {
      try ContentDecoding.content(Params(.object(["sections": content["sections"] ?? .null])))
    }
    var empty = ListSnapshot(selectionMode: mode)
    try ListAttributeCoding.decode(Params(content), into: &empty, list: list)
    var snapshot: ListSnapshot
    do {
      snapshot = try ContentDecoding.snapshot(sections, sharingWith: empty, selectionMode: mode)
      if !selected.isEmpty { try snapshot.select(selected) }
    } catch {
      throw ResponseError.model(error, list: list)
    }
    return snapshot
  }
}
