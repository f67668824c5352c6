// The canonical form of an item's free-form `data`, so payloads compare as JSON values.
import JSON

extension JSONValue {
  /// This value as the daemon stores an item's `data`: object members sorted by name (by the
  /// bytes of their UTF-8 encoding; of members sharing a name the first alone, as any object of
  /// a request is read) and every number with an integral value in the 64-bit range as an
  /// integer (`1.0`, `1e3`, `-0.0` become `1`, `1000`, `0`). Two values that are equal as JSON values have one canonical form, so
  /// comparing canonical forms compares values: member order and number spelling are no change.
  /// O(size) when already canonical (no copy), plus O(k log k) per object of k members to sort.
  public var canonicalData: JSONValue { canonicalized() ?? self }

  /// The canonical form, or nil if this value is canonical already.
  private func canonicalized() -> JSONValue? {
    switch self {
    case .null, .bool, .int, .string: return nil
    case .double(let number):
      guard number.rounded() == number, let integer = Int64(exactly: number) else { return nil }
      return .int(integer)
    case .array(let elements):
      var result: [JSONValue]?
      for index in elements.indices {
        guard let canonical = elements[index].canonicalized() else { continue }
        if result == nil { result = elements }
        result?[index] = canonical
      }
      return result.map { .array($0) }
    case .object(let object):
      let keys = object.keys
      var values = object.values
      var changed = false
      for index in values.indices {
        guard let canonical = values[index].canonicalized() else { continue }
        values[index] = canonical  // the first one copies the values
        changed = true
      }
      // Strictly increasing: sorted, and no name twice.
      if zip(keys, keys.dropFirst()).allSatisfy({ Self.precedes($0, $1) }) {
        return changed ? .object(JSONObject(adoptingKeys: keys, values: values)) : nil
      }
      // Sorted stably, so of a repeated name the first member comes first, and is the one kept.
      let order = keys.indices.sorted { a, b in
        Self.precedes(keys[a], keys[b]) || (!Self.precedes(keys[b], keys[a]) && a < b)
      }
      var sortedKeys: [String] = []
      var sortedValues: [JSONValue] = []
      sortedKeys.reserveCapacity(order.count)
      sortedValues.reserveCapacity(order.count)
      for index in order where sortedKeys.last.map({ Self.precedes($0, keys[index]) }) ?? true {
        sortedKeys.append(keys[index])
        sortedValues.append(values[index])
      }
      return .object(JSONObject(adoptingKeys: sortedKeys, values: sortedValues))
    }
  }

  /// Whether the value next in `reader` has this value as its canonical form (this value being
  /// canonical: ``canonicalData``), told while it is read, nothing built. False also where
  /// telling would take building it (an object of more than 64 members, or with a repeated
  /// name); the caller then decodes the value. The reader moves on either way: on false the
  /// caller restores it. O(size of the value).
  func isCanonicalForm<R: JSONPullReader>(ofNext reader: inout R) throws(JSONParseError) -> Bool {
    switch try reader.peek() {
    case .null:
      try reader.readNull()
      return self == .null
    case .bool: return try self == .bool(reader.readBool())
    case .string:
      guard case .string(let string) = self else { return false }
      return try reader.readString() == string
    case .number: return try reader.readValue().canonicalData == self
    case .array:
      guard case .array(let elements) = self else { return false }
      try reader.beginArray()
      var count = 0
      while try reader.nextElement() {
        guard count < elements.count, try elements[count].isCanonicalForm(ofNext: &reader) else {
          return false
        }
        count += 1
      }
      return count == elements.count
    case .object:
      // Sorted, so a repeated name would be next to itself. (Strings equal as bytes are equal
      // as Swift compares them; the converse, canonically equivalent spellings, is told false.)
      guard case .object(let object) = self, object.count <= 64,
        !zip(object.keys, object.keys.dropFirst()).contains(where: ==)
      else { return false }
      try reader.beginObject()
      var seen: UInt64 = 0
      while let key = try reader.nextKey() {
        // Names must be equal as bytes, as they sort, so that equal names sort alike.
        guard let index = object.keys.firstIndex(of: key), seen & (1 << index) == 0,
          object.keys[index].utf8.count == key.utf8.count, object.keys[index].utf8.elementsEqual(key.utf8)
        else { return false }
        seen |= 1 << index
        guard try object.values[index].isCanonicalForm(ofNext: &reader) else { return false }
      }
      return seen.nonzeroBitCount == object.count
    }
  }

  /// Whether `a` sorts before `b` by the bytes of their UTF-8 encoding.
  private static func precedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
  }
}
