// What a one-pass decoder reads JSON through: the bytes (JSONReader) or a parsed tree (JSONTreeReader).

/// A pull reader: ``peek()`` says what comes next; ``beginObject()`` then ``nextKey(in:)`` until
/// nil, reading or skipping each member's value; ``beginArray()`` then ``nextElement()`` until
/// false. A decoder written against it reads a request's bytes and a parsed tree with the same
/// code and gets the same values.
public protocol JSONPullReader {
  /// The kind of the next value.
  mutating func peek() throws(JSONParseError) -> JSONReader.Kind
  /// Enters the object that comes next.
  mutating func beginObject() throws(JSONParseError)
  /// The next member's name as its index in `names`, -1 for a name not in `names`, or nil after
  /// the object's end.
  mutating func nextKey(in names: JSONNames) throws(JSONParseError) -> Int?
  /// The next member's name, or nil after the object's end.
  mutating func nextKey() throws(JSONParseError) -> String?
  /// Enters the array that comes next.
  mutating func beginArray() throws(JSONParseError)
  /// Whether another element follows; false after the array's end.
  mutating func nextElement() throws(JSONParseError) -> Bool
  /// The string that comes next.
  mutating func readString() throws(JSONParseError) -> String
  /// The Boolean that comes next.
  mutating func readBool() throws(JSONParseError) -> Bool
  /// Consumes the `null` that comes next.
  mutating func readNull() throws(JSONParseError)
  /// The next value as a tree.
  mutating func readValue() throws(JSONParseError) -> JSONValue
  /// Passes over the next value.
  mutating func passValue() throws(JSONParseError)
  /// Consumes `bytes` when the text continues with exactly them (no whitespace skipped first)
  /// and returns true, else consumes nothing and returns false. The caller passes bytes that end
  /// where a value or container ends (such as an object's remaining members and its `}`), so the
  /// reader stays between tokens. A tree reader has no bytes: always false.
  mutating func skip(ifNext bytes: UnsafeBufferPointer<UInt8>) -> Bool
  /// Consumes the next value when it is spelled exactly `bytes` (one whole value, compact, such
  /// as a writer writes it; whitespace before it is skipped) and returns true, else consumes
  /// nothing but that whitespace and returns false. Unlike ``skip(ifNext:)``, a number is not
  /// taken for the prefix of a longer one (`1` is not the start of `12` or `1.5`). A tree reader
  /// has no bytes: always false.
  mutating func skip(ifNextValue bytes: UnsafeBufferPointer<UInt8>) -> Bool
}

extension JSONReader: JSONPullReader {
  public mutating func passValue() throws(JSONParseError) { try skipValue() }

  public mutating func skip(ifNext bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count <= state.count - state.index, let start = bytes.baseAddress else {
      return bytes.isEmpty
    }
    let here = UnsafeRawPointer(state.base + state.index)
    let there = UnsafeRawPointer(start)
    var k = 0
    // Eight bytes at a time, then the rest.
    while k + 8 <= bytes.count {
      guard
        here.loadUnaligned(fromByteOffset: k, as: UInt64.self)
          == there.loadUnaligned(fromByteOffset: k, as: UInt64.self)
      else { return false }
      k += 8
    }
    while k < bytes.count {
      guard state.base[state.index + k] == start[k] else { return false }
      k += 1
    }
    state.index += bytes.count
    return true
  }

  public mutating func skip(ifNextValue bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    state.skipWhitespace()
    guard let last = bytes.last else { return false }
    let after = state.index + bytes.count
    // Only a number can go on past its last byte in valid JSON; strings, containers and
    // literals end where they end.
    if last >= UInt8(ascii: "0") && last <= UInt8(ascii: "9") && after < state.count {
      switch state.base[after] {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
        UInt8(ascii: "+"), UInt8(ascii: "-"):
        return false
      default: break
      }
    }
    return skip(ifNext: bytes)
  }
}
