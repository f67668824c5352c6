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
    var index: IdentifierIndex
    var strings: [String] = []
  }

  private let state: Mutex<State>
  private let stampCounter = Atomic<UInt64>(0)

  /// A table hashing with this process's random key.
  init() { state = Mutex(State(index: IdentifierIndex(key: .process))) }

  /// A table hashing with `key` (tests: ``IdentifierHashKey/fixed`` is the unkeyed variant).
  init(key: IdentifierHashKey) { state = Mutex(State(index: IdentifierIndex(key: key))) }

  /// The number of interned strings. O(1).
  var count: Int { state.withLock { $0.strings.count } }

  /// Slots visited by every lookup so far (a test's measure of collisions). O(1).
  var probeCount: Int { state.withLock { $0.index.probes } }

  /// The integer of `string`, interning it if new. O(1) amortized (one hash of its bytes).
  func intern(_ string: String) -> Int32 {
    state.withLock { Self.intern(string, &$0) }
  }

  /// The integer of the string of UTF-8 `bytes`, interning it if new; a String is allocated
  /// only for a new id. O(bytes) (one hash).
  func intern(bytes: UnsafeRawBufferPointer) -> Int32 {
    state.withLock { state in
      let hash = state.index.hash(bytes)
      let found = state.index.find(hash, bytes, state.strings)
      state.index.count(probes: found.visited)
      if let id = found.id { return id }
      return Self.append(String(decoding: bytes, as: UTF8.self), hash: hash, at: found.slot, &state)
    }
  }

  private static func intern(_ string: String, _ state: inout State) -> Int32 {
    withUTF8(string) { bytes in
      let hash = state.index.hash(bytes)
      let found = state.index.find(hash, bytes, state.strings)
      state.index.count(probes: found.visited)
      if let id = found.id { return id }
      return append(string, hash: hash, at: found.slot, &state)
    }
  }

  private static func append(_ string: String, hash: UInt64, at slot: Int, _ state: inout State) -> Int32 {
    let index = Int32(truncatingIfNeeded: state.strings.count)
    state.strings.append(string)
    state.index.insert(index, hash: hash, at: slot)
    return index
  }

  /// The integers of `strings`, in order, interning new ones; one lock for the whole batch. O(n).
  func intern(_ strings: some Sequence<String>) -> [Int32] {
    state.withLock { state in
      var result: [Int32] = []
      result.reserveCapacity(strings.underestimatedCount)
      for string in strings { result.append(Self.intern(string, &state)) }
      return result
    }
  }

  /// The integers of `strings`, in order, interning new ones, where `guess(previous)` proposes
  /// two candidates (-1 for none) for the integer of the string after one whose integer is
  /// `previous` (-1 before the first): a right guess costs a byte comparison or two instead of
  /// a hash and a table probe (a replace that keeps most items in order mostly guesses right).
  /// One lock for the batch. O(n); the result is the same as without the guess.
  func intern(_ strings: [String], guess: (Int32) -> (Int32, Int32)) -> [Int32] {
    state.withLock { state in
      var result: [Int32] = []
      result.reserveCapacity(strings.count)
      var previous: Int32 = -1
      let known = state.strings.count
      for string in strings {
        let (first, second) = guess(previous)
        if first >= 0, Int(first) < known, bytesEqual(state.strings[Int(first)], string) {
          previous = first
        } else if second >= 0, Int(second) < known, bytesEqual(state.strings[Int(second)], string) {
          previous = second
        } else {
          previous = Self.intern(string, &state)
        }
        result.append(previous)
      }
      return result
    }
  }

  /// The integer of `string` if it was ever interned. O(1) (one hash of the string).
  func lookup(_ string: String) -> Int32? {
    state.withLock { state in
      withUTF8(string) { bytes in
        let found = state.index.find(state.index.hash(bytes), bytes, state.strings)
        state.index.count(probes: found.visited)
        return found.id
      }
    }
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
