// The open-addressing hash index of IdentifierTable: interned id integers by the keyed hash of their UTF-8 bytes.

/// Linear probing over a power-of-two array of entries `tag << 32 | (id + 1)` (0 = empty),
/// where `tag` is the hash's high 32 bits: the home slot is the hash's top bits, so growing
/// re-places entries from their tags without rehashing a string, and a probe compares bytes
/// only when the tags match. Ids are compared by their UTF-8 bytes (as JSON object keys are),
/// not by canonical equivalence. Load stays at most 1/2.
struct IdentifierIndex: Sendable {
  let key: IdentifierHashKey
  private var entries: [UInt64]
  private var bits: Int
  private var used = 0
  /// Slots visited by lookups and inserts so far.
  private(set) var probes = 0

  init(key: IdentifierHashKey) {
    self.key = key
    bits = 4
    entries = [UInt64](repeating: 0, count: 1 << bits)
  }

  /// The keyed hash of an id's bytes.
  @inline(__always) func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    IdentifierHash.hash(bytes, key: key)
  }

  @inline(__always) private func home(_ tag: UInt64) -> Int { Int(tag >> UInt64(32 - bits)) }

  /// The id whose string (in `strings`) has these bytes and hash, or else the empty slot where
  /// it would go (for ``insert(_:hash:at:)``), and the number of slots visited (for
  /// ``count(probes:)``). Not mutating, so a caller holding the index and `strings` in one
  /// inout value passes `strings` without a copy (a retain and release per lookup). O(1)
  /// expected.
  @inline(__always)
  func find(_ hash: UInt64, _ bytes: UnsafeRawBufferPointer, _ strings: [String]) -> (
    id: Int32?, slot: Int, visited: Int
  ) {
    let tag = hash >> 32
    let mask = entries.count - 1
    var slot = home(tag)
    var visited = 0
    return entries.withUnsafeBufferPointer { entries in
      while true {
        visited += 1
        let entry = entries[slot]
        if entry == 0 { return (nil, slot, visited) }
        if entry >> 32 == tag {
          let id = Int32(truncatingIfNeeded: (entry & 0xFFFF_FFFF) - 1)
          if withUTF8(strings[Int(id)], { equalBytes($0, bytes) }) { return (id, slot, visited) }
        }
        slot = (slot + 1) & mask
      }
    }
  }

  /// Adds the slots a lookup visited to ``probes``.
  @inline(__always) mutating func count(probes visited: Int) { probes += visited }

  /// Records `id` (not yet present) under `hash` in the empty `slot` that ``find(_:_:_:)``
  /// returned. O(1) amortized.
  mutating func insert(_ id: Int32, hash: UInt64, at slot: Int) {
    let entry = UInt64(id) + 1 | (hash >> 32) << 32
    used += 1
    if used * 2 > entries.count {
      grow()
      place(entry)
    } else {
      entries[slot] = entry
    }
  }

  private mutating func place(_ entry: UInt64) {
    let mask = entries.count - 1
    var slot = home(entry >> 32)
    while entries[slot] != 0 { slot = (slot + 1) & mask }
    entries[slot] = entry
  }

  private mutating func grow() {
    let old = entries
    bits += 1
    entries = [UInt64](repeating: 0, count: 1 << bits)
    for entry in old where entry != 0 { place(entry) }
  }
}

/// Calls `body` with the UTF-8 bytes of `string`, without copying a native string.
@inline(__always)
func withUTF8<R>(_ string: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
  if let result = string.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
    return result
  }
  return Array(string.utf8).withUnsafeBytes(body)
}

/// Whether two byte buffers are equal. O(bytes).
@inline(__always) func equalBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
  let count = a.count
  guard count == b.count else { return false }
  guard count > 0, let x = a.baseAddress, let y = b.baseAddress else { return true }
  if x == y { return true }
  var offset = 0
  while offset + 8 <= count {
    if x.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      != y.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    {
      return false
    }
    offset += 8
  }
  while offset < count {
    if x.load(fromByteOffset: offset, as: UInt8.self) != y.load(fromByteOffset: offset, as: UInt8.self) {
      return false
    }
    offset += 1
  }
  return true
}

/// Whether two strings have the same UTF-8 bytes (ids are compared by bytes). O(bytes).
@inline(__always) func bytesEqual(_ a: String, _ b: String) -> Bool {
  // Equal representations (one storage object, or equal small strings) hold equal bytes.
  if MemoryLayout<String>.size == 16,
    unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self)
  {
    return true
  }
  return withUTF8(a) { x in withUTF8(b) { equalBytes(x, $0) } }
}

/// Whether the strings at `a` and `b` have the same UTF-8 bytes, read in place: equal
/// representations (one storage object, or equal small strings) answer from their bits without
/// a retain; others compare bytes. O(bytes).
@inline(__always) func bytesEqual(_ a: UnsafePointer<String>, _ b: UnsafePointer<String>) -> Bool {
  if MemoryLayout<String>.size == 16,
    UnsafeRawPointer(a).load(as: (UInt64, UInt64).self) == UnsafeRawPointer(b).load(as: (UInt64, UInt64).self)
  {
    return true
  }
  return bytesEqual(a.pointee, b.pointee)
}
