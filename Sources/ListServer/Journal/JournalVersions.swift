// The journal as a list's VersionSource: any version the state directory retains, rebuilt on demand.
import ListModel
import ListProtocol

/// The past versions of one journaled list (`--state`): what `atVersion`, `list/diff` and
/// `listctl record` reach beyond the in-memory history. Each call replays from the nearest
/// checkpoint: O(size of the checkpoint and journal files read + the changes replayed).
struct JournalVersions: VersionSource {
  let journal: Journal
  let serial: Int
  let list: String

  var retainedVersions: [ClosedRange<Int>] { journal.retainedVersions(serial: serial) }

  var damage: [String] { journal.historyDamage }

  func snapshot(atVersion version: Int) -> ListSnapshot? {
    var found: ListSnapshot?
    _ = journal.replay(serial: serial, list: list, from: version, through: version) { _, snapshot, _ in
      found = snapshot
      return false
    }
    return found
  }

  func change(producing version: Int) -> (before: ListSnapshot, after: ListSnapshot)? {
    guard version >= 1 else { return nil }
    var before: ListSnapshot?
    var after: ListSnapshot?
    let complete = journal.replay(serial: serial, list: list, from: version - 1, through: version) {
      replayed, snapshot, _ in
      if replayed == version - 1 { before = snapshot } else { after = snapshot }
      return true
    }
    guard complete, let before, let after else { return nil }
    return (before, after)
  }
}
