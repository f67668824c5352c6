// The shared string-id interner and stamp counter of one list's lineage of snapshots.
import Synchronization

/// Interns string identifiers to dense small integers, shared by every snapshot derived from
/// the same original so a diff compares integers and never re-hashes a string it has seen.
///
/// The table only grows: an integer, once given to a string, keeps naming it forever, so old
/// snapshots stay valid while newer ones add ids. Strings interned by an edit that later fails
/// stay in the table; they are not part of any snapshot's observable state. A long-lived owner
/// reclaims them by moving its snapshot to a fresh table (``ListSnapshot/compacted()``) once
/// ``ListSnapshot/hasReclaimableIdentifiers`` says most of the table is unused.
///
/// Thread safety: all mutable state sits behind a `Mutex` (strings) or an `Atomic` (stamps), so
/// the class is `Sendable` without `@unchecked`; snapshots on different threads may share it.
final class IdentifierTable: Sendable {
  private struct State {
    var indexes: [String: Int32] = [:]
    var strings: [String] = []
  }

  private let state = Mutex(State())
  private let stampCounter = Atomic<UInt64>(0)

  init() {}

  /// The number of interned strings. O(1).
  var count: Int { state.withLock { $0.strings.count } }

  /// The integer of `string`, interning it if new. O(1) amortized (one hash of the string).
  func intern(_ string: String) -> Int32 {
    state.withLock { state in
      if let index = state.indexes[string] { return index }
      let index = Int32(truncatingIfNeeded: state.strings.count)
      state.indexes[string] = index
      state.strings.append(string)
      return index
    }
  }

  /// The integers of `strings`, in order, interning new ones; one lock for the whole batch. O(n).
  func intern(_ strings: some Sequence<String>) -> [Int32] {
    state.withLock { state in
      var result: [Int32] = []
      result.reserveCapacity(strings.underestimatedCount)
      for string in strings {
        if let index = state.indexes[string] {
          result.append(index)
        } else {
          let index = Int32(truncatingIfNeeded: state.strings.count)
          state.indexes[string] = index
          state.strings.append(string)
          result.append(index)
        }
      }
      return result
    }
  }

  /// The integers of `strings`, in order, interning new ones, where `guess(previous)` proposes
  /// two candidates (-1 for none) for the integer of the string after one whose integer is
  /// `previous` (-1 before the first): a right guess costs a string comparison or two instead of
  /// a hash and a table probe (a replace that keeps most items in order mostly guesses right).
  /// One lock for the batch. O(n); the result is the same as without the guess.
  func intern(_ strings: [String], guess: (Int32) -> (Int32, Int32)) -> [Int32] {
    state.withLock { state in
      var result: [Int32] = []
      result.reserveCapacity(strings.count)
      var previous: Int32 = -1
      for string in strings {
        let (first, second) = guess(previous)
        if first >= 0, Int(first) < state.strings.count, state.strings[Int(first)] == string {
          previous = first
        } else if second >= 0, Int(second) < state.strings.count, state.strings[Int(second)] == string {
          previous = second
        } else if let index = state.indexes[string] {
          previous = index
        } else {
          let index = Int32(truncatingIfNeeded: state.strings.count)
          state.indexes[string] = index
          state.strings.append(string)
          previous = index
        }
        result.append(previous)
      }
      return result
    }
  }

  /// The integer of `string` if it was ever interned. O(1) (one hash of the string).
  func lookup(_ string: String) -> Int32? {
    state.withLock { $0.indexes[string] }
  }

  /// The string named by `index`. O(1).
  func string(_ index: Int32) -> String {
    state.withLock { $0.strings[Int(index)] }
  }

  /// A read-only view of every interned string, for resolving many ids without one lock each.
  /// O(1): it shares the table's storage until the table next grows.
  func strings() -> [String] {
    state.withLock { $0.strings }
  }

  /// A fresh stamp, unique within this table's lineage; never 0. O(1), lock-free.
  func nextStamp() -> UInt64 {
    stampCounter.wrappingAdd(1, ordering: .relaxed).newValue
  }
}
