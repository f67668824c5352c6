// A manually managed stack the parser collects container elements in, moved out exactly sized.

/// Growable stacks (one per element type, non-generic so Array metadata is resolved statically) whose top elements can be moved (not copied) into an exactly sized Array.
///
/// The parser pushes the elements of every open array and object here and, when a container
/// closes, moves them into a new Array of the right capacity: one allocation per container and
/// no reference-count traffic, instead of the repeated growth of appending to a fresh Array.
final class ValueStack {
  private var base: UnsafeMutablePointer<JSONValue>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 64) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  /// Pushes one element. Amortized O(1).
  @inline(__always)
  func push(_ element: consuming JSONValue) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  /// Drops every element.
  func removeAll() {
    base.deinitialize(count: count)
    count = 0
  }

  /// Moves the elements from `start` to the top into a new Array and pops them. O(count - start).
  @inline(__always)
  func popArray(from start: Int) -> [JSONValue] {
    let length = count - start
    if length == 0 { return [] }
    // (reserveCapacity + append is specialized; Array(unsafeUninitializedCapacity:) looks up
    // its storage metadata at run time on every call.)
    var array: [JSONValue] = []
    array.reserveCapacity(length)
    for offset in start..<count { array.append((base + offset).move()) }
    count = start
    return array
  }

  private func grow() {
    let newCapacity = capacity * 2
    let newBase = UnsafeMutablePointer<JSONValue>.allocate(capacity: newCapacity)
    newBase.moveInitialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }
}

/// The same for member names.
final class KeyStack {
  private var base: UnsafeMutablePointer<String>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 64) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  /// Pushes one element. Amortized O(1).
  @inline(__always)
  func push(_ element: consuming String) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  /// Drops every element.
  func removeAll() {
    base.deinitialize(count: count)
    count = 0
  }

  /// Moves the elements from `start` to the top into a new Array and pops them. O(count - start).
  @inline(__always)
  func popArray(from start: Int) -> [String] {
    let length = count - start
    if length == 0 { return [] }
    // (reserveCapacity + append is specialized; Array(unsafeUninitializedCapacity:) looks up
    // its storage metadata at run time on every call.)
    var array: [String] = []
    array.reserveCapacity(length)
    for offset in start..<count { array.append((base + offset).move()) }
    count = start
    return array
  }

  /// Like `popArray`, but returns an earlier array with the same names in the same order when
  /// there is one: the objects of an array usually share their member names, and sharing the
  /// (immutable, copy-on-write) names array saves an allocation per object. O(count - start).
  func popNames(from start: Int) -> [String] {
    let length = count - start
    if length == 0 { return [] }
    var hash = length
    for offset in start..<count {
      let utf8 = base[offset].utf8
      hash = hash &* 31 &+ utf8.count &* 7 &+ Int(utf8.first ?? 0)
    }
    let slot = Int(UInt(bitPattern: hash) % UInt(recentNames.count))
    let candidate = recentNames[slot]
    if candidate.count == length {
      var same = true
      // Byte equality, not String's (canonical equivalence would merge "é" and "e\u{301}").
      for index in 0..<length where !sameBytes(candidate[index], base[start + index]) {
        same = false
        break
      }
      if same {
        (base + start).deinitialize(count: length)
        count = start
        return candidate
      }
    }
    let names = popArray(from: start)
    recentNames[slot] = names
    return names
  }

  /// Whether two strings have the same UTF-8 bytes: a length check, then one comparison of the
  /// contiguous bytes (the generic `elementsEqual` over two UTF8Views costs ~300 instructions
  /// for a two-letter key).
  @inline(__always)
  private func sameBytes(_ a: String, _ b: String) -> Bool {
    let first = a.utf8
    let second = b.utf8
    guard first.count == second.count else { return false }
    let equal = first.withContiguousStorageIfAvailable { x in
      second.withContiguousStorageIfAvailable { y in
        for index in 0..<x.count where x[index] != y[index] { return false }
        return true
      }
    }
    return (equal ?? nil) ?? first.elementsEqual(second)
  }

  /// Recently built names arrays, direct-mapped by a hash of their shape.
  private var recentNames = [[String]](repeating: [], count: 64)

  private func grow() {
    let newCapacity = capacity * 2
    let newBase = UnsafeMutablePointer<String>.allocate(capacity: newCapacity)
    newBase.moveInitialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }
}

/// The parser's working storage: the two stacks and the names cache.
///
/// `@unchecked Sendable`: it is only used by one parse at a time — either created for that
/// parse, or owned by a `JSONParser` that checks it is uniquely referenced before each use.
final class ParserStorage: @unchecked Sendable {
  let values = ValueStack()
  let keys = KeyStack()

  /// Empties the stacks after a failed parse.
  func reset() {
    values.removeAll()
    keys.removeAll()
  }
}
