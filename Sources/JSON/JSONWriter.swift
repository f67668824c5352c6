// The JSON writer: appends the UTF-8 text of JSON values to a byte buffer.

/// Writes JSON text into a growing `[UInt8]` buffer.
///
/// Output is always valid UTF-8 and valid RFC 8259 JSON: strings escape `"`, `\` and every
/// control character (U+0000…U+001F); integers are written exactly; doubles use the shortest
/// representation that reads back as the same Double (`1.0`, `1e-05`, `-0.0`), and non-finite
/// doubles, which JSON cannot represent, are written as `null`. Compact output contains no raw
/// line feed, so it can be used as a line of newline-delimited JSON as is.
///
/// Writing is O(n) in the size of the output.
public struct JSONWriter: Sendable {
  /// Layout choices.
  public struct Options: Sendable, Hashable {
    /// Two-space indentation and a space after `:`; the default is the compact form.
    public var prettyPrinted: Bool

    public init(prettyPrinted: Bool = false) {
      self.prettyPrinted = prettyPrinted
    }
  }

  /// The text written so far.
  public var bytes: [UInt8]
  /// Layout choices.
  public var options: Options

  /// A writer with an empty buffer of at least `capacity` bytes.
  public init(options: Options = Options(), reservingCapacity capacity: Int = 0) {
    self.bytes = []
    self.options = options
    if capacity > 0 { bytes.reserveCapacity(capacity) }
  }

  /// Appends the text of `value`. O(size of the text).
  public mutating func write(_ value: JSONValue) {
    if options.prettyPrinted {
      writePretty(value, indent: 0)
    } else {
      writeCompact(value)
    }
  }

  private mutating func writeCompact(_ value: JSONValue) {
    switch value {
    case .null: writeNull()
    case .bool(let bool): writeBool(bool)
    case .int(let int): writeInt(int)
    case .double(let double): writeDouble(double)
    case .string(let string): writeString(string)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      var first = true
      for element in elements {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        writeCompact(element)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let object):
      bytes.append(UInt8(ascii: "{"))
      let keys = object.keys
      let values = object.values
      for index in keys.indices {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        writeString(keys[index])
        bytes.append(UInt8(ascii: ":"))
        writeCompact(values[index])
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  private mutating func writePretty(_ value: JSONValue, indent: Int) {
    switch value {
    case .array(let elements) where !elements.isEmpty:
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        writePretty(element, indent: indent + 1)
      }
      newline(indent)
      bytes.append(UInt8(ascii: "]"))
    case .object(let object) where !object.isEmpty:
      bytes.append(UInt8(ascii: "{"))
      for index in object.indices {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        writeString(object.keys[index])
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        writePretty(object.values[index], indent: indent + 1)
      }
      newline(indent)
      bytes.append(UInt8(ascii: "}"))
    default:
      writeCompact(value)
    }
  }

  private mutating func newline(_ indent: Int) {
    bytes.append(UInt8(ascii: "\n"))
    for _ in 0..<(indent * 2) { bytes.append(UInt8(ascii: " ")) }
  }

  /// Appends `null`.
  public mutating func writeNull() {
    appendASCII(0x6E, 0x75, 0x6C, 0x6C)
  }

  /// Appends `true` or `false`.
  public mutating func writeBool(_ value: Bool) {
    if value {
      appendASCII(0x74, 0x72, 0x75, 0x65)
    } else {
      appendASCII(0x66, 0x61, 0x6C, 0x73)
      bytes.append(0x65)
    }
  }

  @inline(__always)
  private mutating func appendASCII(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
    bytes.append(a)
    bytes.append(b)
    bytes.append(c)
    bytes.append(d)
  }

  /// Appends the decimal digits of `value`. O(1).
  public mutating func writeInt(_ value: Int64) {
    if value >= 0 && value < 10 {
      bytes.append(UInt8(ascii: "0") &+ UInt8(value))
      return
    }
    var magnitude = value.magnitude
    // 20 digits hold UInt64.max; fill from the end of a fixed buffer.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      var position = 20
      repeat {
        position -= 1
        buffer[position] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude != 0
      if value < 0 { bytes.append(UInt8(ascii: "-")) }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position..<20]))
    }
  }

  /// Appends the shortest text that reads back as `value`, or `null` if it is not finite.
  public mutating func writeDouble(_ value: Double) {
    guard value.isFinite else {
      writeNull()
      return
    }
    // Swift's description is the shortest round-tripping form and is valid JSON when finite
    // ("1.0", "1e-05", "-0.0", "1.7976931348623157e+308").
    bytes.append(contentsOf: value.description.utf8)
  }

  /// Appends `string` as a quoted, escaped JSON string. O(length).
  public mutating func writeString(_ string: String) {
    bytes.append(quoteByte)
    let done: Void? = string.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
    if done == nil {
      var copy = string
      copy.makeContiguousUTF8()
      copy.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
    }
    bytes.append(quoteByte)
  }

  /// Appends already encoded JSON text verbatim (the caller guarantees it is valid).
  public mutating func writeRaw<Bytes: Sequence>(_ text: Bytes) where Bytes.Element == UInt8 {
    bytes.append(contentsOf: text)
  }

  private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    var index = 0
    let count = utf8.count
    while index < count {
      let byte = utf8[index]
      if byte >= 0x20 && byte != quoteByte && byte != backslashByte {
        index += 1
        continue
      }
      if runStart < index {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      }
      bytes.append(backslashByte)
      switch byte {
      case quoteByte: bytes.append(quoteByte)
      case backslashByte: bytes.append(backslashByte)
      case 0x0A: bytes.append(UInt8(ascii: "n"))
      case 0x0D: bytes.append(UInt8(ascii: "r"))
      case 0x09: bytes.append(UInt8(ascii: "t"))
      case 0x08: bytes.append(UInt8(ascii: "b"))
      case 0x0C: bytes.append(UInt8(ascii: "f"))
      default:
        bytes.append(UInt8(ascii: "u"))
        bytes.append(UInt8(ascii: "0"))
        bytes.append(UInt8(ascii: "0"))
        bytes.append(hexDigits[Int(byte >> 4)])
        bytes.append(hexDigits[Int(byte & 0xF)])
      }
      index += 1
      runStart = index
    }
    if runStart < count {
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
    }
  }
}

private let quoteByte = UInt8(ascii: "\"")
private let backslashByte = UInt8(ascii: "\\")
private let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

extension JSONValue {
  /// The JSON text of this value as UTF-8 bytes (compact unless `prettyPrinted`). O(size).
  public func jsonBytes(prettyPrinted: Bool = false) -> [UInt8] {
    var writer = JSONWriter(options: .init(prettyPrinted: prettyPrinted))
    writer.write(self)
    return writer.bytes
  }

  /// The JSON text of this value (compact unless `prettyPrinted`). O(size).
  public func jsonString(prettyPrinted: Bool = false) -> String {
    String(decoding: jsonBytes(prettyPrinted: prettyPrinted), as: UTF8.self)
  }
}
