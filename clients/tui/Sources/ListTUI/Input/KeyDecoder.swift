// Decodes terminal input bytes into keys: UTF-8, control keys and ANSI escape sequences.

/// Turns the bytes a terminal sends into ``Key``s. Bytes may arrive split anywhere (an escape
/// sequence or a UTF-8 character across two reads) or several keys at once; an incomplete
/// sequence waits for more input. A lone Esc is only known as such when nothing follows it for
/// a moment: the caller then calls ``flush()``.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  /// A decoder with nothing pending.
  public init() {}

  /// Whether bytes wait for more input (the caller should call ``flush()`` after ~25 ms).
  public var hasPending: Bool { !pending.isEmpty }

  /// Feeds bytes; returns the keys they complete.
  public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Key] where Bytes.Element == UInt8 {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    while !pending.isEmpty {
      guard let (key, length) = Self.decode(pending[...]) else { break }
      keys.append(key)
      pending.removeFirst(length)
    }
    return keys
  }

  /// No more input came: what is pending is a lone Esc (and whatever follows it) or a broken
  /// character.
  public mutating func flush() -> [Key] {
    guard !pending.isEmpty else { return [] }
    var keys: [Key] = []
    if pending.first == 0x1b {
      keys.append(.escape)
      pending.removeFirst()
      keys += feed([])
    }
    if !pending.isEmpty {
      pending.removeAll()
      keys.append(.unknown)
    }
    return keys
  }

  /// The key at the start of `bytes` and its length, or nil when more bytes are needed.
  static func decode(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    let first = bytes[bytes.startIndex]
    switch first {
    case 0x1b: return escape(bytes)
    case 0x0d, 0x0a: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7f, 0x08: return (.backspace, 1)
    case 0x01...0x1a: return (.ctrl(Character(Unicode.Scalar(first + 0x60))), 1)
    case 0x00..<0x20: return (.unknown, 1)
    case 0x20..<0x80: return (.char(Character(Unicode.Scalar(first))), 1)
    default: return utf8(bytes)
    }
  }

  private static func utf8(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    let first = bytes[bytes.startIndex]
    let length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1
    if length == 1 { return (.unknown, 1) }  // a stray continuation byte
    guard bytes.count >= length else { return nil }
    let sequence = bytes.prefix(length)
    for byte in sequence.dropFirst() where byte & 0xc0 != 0x80 { return (.unknown, 1) }
    guard let character = String(validating: sequence, as: UTF8.self)?.first else {
      return (.unknown, length)
    }
    return (.char(character), length)
  }

  /// ESC, ESC [ … final, ESC O x.
  private static func escape(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return nil }
    let second = bytes[start + 1]
    switch second {
    case UInt8(ascii: "["):
      // CSI: parameters 0x30–0x3f, intermediates 0x20–0x2f, final 0x40–0x7e.
      var index = start + 2
      while index < bytes.endIndex, (0x20...0x3f).contains(bytes[index]) { index += 1 }
      guard index < bytes.endIndex else { return nil }
      let final = bytes[index]
      guard (0x40...0x7e).contains(final) else { return (.escape, 1) }
      let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
      return (csi(parameters, final), index - start + 1)
    case UInt8(ascii: "O"):
      guard bytes.count >= 3 else { return nil }
      let key: Key =
        switch bytes[start + 2] {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: .unknown
        }
      return (key, 3)
    default:
      // Esc followed by another key (Esc pressed, then a key, read together): Esc alone.
      return (.escape, 1)
    }
  }

  private static func csi(_ parameters: String, _ final: UInt8) -> Key {
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "Z"): return .backTab
    case UInt8(ascii: "~"):
      switch parameters.split(separator: ";").first ?? "" {
      case "1", "7": return .home
      case "4", "8": return .end
      case "3": return .delete
      case "5": return .pageUp
      case "6": return .pageDown
      default: return .unknown
      }
    default: return .unknown
    }
  }
}
