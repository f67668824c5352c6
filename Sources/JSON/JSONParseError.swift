// The error thrown by the JSON parser: what went wrong, at which line and column, and at which byte offset.

/// Why a JSON text was rejected, and where.
///
/// `offset` is the zero-based byte offset into the parsed text of the first byte that made the
/// text invalid (for an unexpected end of input, the length of the text). `line` and `column`
/// say the same for a person reading the text in an editor: both from 1, the column counting
/// characters (Unicode scalars), not bytes.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kinds of problem the strict (RFC 8259) parser reports.
  public enum Kind: Hashable, Sendable {
    /// The text ended where a value, a member or a closing bracket was expected.
    case unexpectedEnd
    /// A byte that cannot start or continue the construct being parsed. `expected` says what could.
    case unexpectedByte(UInt8, expected: String)
    /// A comma directly before `]` or `}`.
    case trailingComma
    /// A number with a leading zero, such as `01` or `-00.5`.
    case leadingZero
    /// A malformed number (`-`, `1.`, `1e`, `.5`, …); `reason` says which part is missing.
    case invalidNumber(reason: String)
    /// A number whose magnitude does not fit a Double (such as `1e400`).
    case numberOutOfRange(String)
    /// A raw control character (U+0000…U+001F) inside a string; it must be escaped.
    case controlCharacterInString(UInt8)
    /// A backslash followed by a character that is not a JSON escape.
    case invalidEscape(UInt8)
    /// `\u` not followed by four hexadecimal digits.
    case invalidUnicodeEscape
    /// A `\uD800`…`\uDFFF` escape that is not part of a high-low surrogate pair.
    case unpairedSurrogate(UInt16)
    /// Bytes that are not well-formed UTF-8 (overlong, surrogate, out of range or truncated).
    case invalidUTF8
    /// Arrays and objects nested deeper than the parser's limit.
    case nestingTooDeep(limit: Int)
    /// Non-whitespace bytes after the top-level value.
    case trailingData
  }

  /// What went wrong.
  public var kind: Kind
  /// Zero-based byte offset of the problem in the parsed text.
  public var offset: Int
  /// The line of the problem, from 1 (the parser fills it in from the text it was given).
  public var line = 1
  /// The column of the problem in its line, from 1, in Unicode scalars.
  public var column = 1

  public init(_ kind: Kind, offset: Int) {
    self.kind = kind
    self.offset = offset
    column = offset + 1
  }

  /// A one-line English description that ends with the line, the column and the byte offset:
  /// `trailing comma at line 3, column 5 (byte offset 61)`.
  public var description: String {
    "\(reason) at line \(line), column \(column) (byte offset \(offset))"
  }

  /// Two errors are equal when their kind and offset are (the line and column follow from them).
  public static func == (lhs: JSONParseError, rhs: JSONParseError) -> Bool {
    lhs.kind == rhs.kind && lhs.offset == rhs.offset
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(offset)
  }

  /// Sets ``line`` and ``column`` from `text`, the bytes that were parsed. O(offset).
  public mutating func locate(in text: UnsafeRawBufferPointer) {
    var line = 1
    var column = 1
    for byte in text.prefix(min(offset, text.count)) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        // A continuation byte is part of the scalar its lead byte started.
        column += 1
      }
    }
    self.line = line
    self.column = column
  }

  /// The error of a text that starts `lines` lines and `bytes` bytes into a larger one (a line of
  /// a file parsed on its own): its position in the larger text.
  public func shifted(lines: Int, bytes: Int) -> JSONParseError {
    var shifted = self
    shifted.line += lines
    shifted.offset += bytes
    return shifted
  }

  /// The description without the offset.
  public var reason: String {
    switch kind {
    case .unexpectedEnd: return "unexpected end of input"
    case .unexpectedByte(let byte, let expected):
      return "unexpected \(Self.describe(byte)), expected \(expected)"
    case .trailingComma: return "trailing comma"
    case .leadingZero: return "number with a leading zero"
    case .invalidNumber(let reason): return "invalid number: \(reason)"
    case .numberOutOfRange(let text): return "number \(text) is out of range"
    case .controlCharacterInString(let byte):
      return "unescaped control character \(Self.hex(byte)) in string"
    case .invalidEscape(let byte): return "invalid escape sequence \\\(Self.printable(byte))"
    case .invalidUnicodeEscape: return "\\u must be followed by four hexadecimal digits"
    case .unpairedSurrogate(let unit):
      return "unpaired surrogate escape \\u\(String(unit, radix: 16, uppercase: true))"
    case .invalidUTF8: return "invalid UTF-8"
    case .nestingTooDeep(let limit): return "arrays and objects nested deeper than \(limit)"
    case .trailingData: return "unexpected data after the JSON value"
    }
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "0x" + (digits.count == 1 ? "0" + digits : digits)
  }

  private static func printable(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : hex(byte)
  }

  private static func describe(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? "'\(String(UnicodeScalar(byte)))'" : "byte \(hex(byte))"
  }
}
