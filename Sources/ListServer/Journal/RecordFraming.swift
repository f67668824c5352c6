// The on-disk framing of journal and checkpoint records: length, checksum, body.

/// A record on disk is `length` (UInt32, little endian), `crc` (CRC-32C of the body, UInt32,
/// little endian), then `length` bytes of body (one JSON object). A file is a sequence of records.
enum RecordFraming {
  static let headerSize = 8
  /// Larger bodies are taken for corruption (a flipped bit in a length).
  static let maxBodySize = 1 << 31 - 1

  /// The bytes of one record with `body`. O(body).
  static func frame(_ body: [UInt8]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(headerSize + body.count)
    appendLittleEndian(UInt32(body.count), to: &bytes)
    appendLittleEndian(CRC32C.checksum(body), to: &bytes)
    bytes += body
    return bytes
  }

  /// What a scan of a file found: the bodies of its intact records, in order, what was
  /// skipped as damaged, and where the intact part ends when the file ends in a torn record.
  struct Scan {
    var bodies: [ArraySlice<UInt8>] = []
    /// Bytes up to the end of the last intact record.
    var intactBytes = 0
    /// Each stretch of damage skipped (or the torn tail), described.
    var problems: [String] = []
    /// Whether the file ends in bytes that are not a record (a torn or corrupt tail).
    var damagedTail = false
  }

  /// Splits `bytes` into records. A record whose checksum does not match is skipped, and the
  /// scan resynchronises on the next intact record (one whose header and checksum agree), so
  /// one flipped bit costs one record, not the rest of the file. O(n), plus O(n · record) in the
  /// worst case of a damaged length.
  static func scan(_ bytes: [UInt8]) -> Scan {
    var scan = Scan()
    var offset = 0
    while offset < bytes.count {
      if let length = intactRecord(bytes, at: offset) {
        scan.bodies.append(bytes[offset + headerSize..<offset + headerSize + length])
        offset += headerSize + length
        scan.intactBytes = offset
        continue
      }
      // Damage: find the next intact record, if any.
      var next = offset + 1
      while next < bytes.count && intactRecord(bytes, at: next) == nil { next += 1 }
      if next >= bytes.count {
        let what =
          bytes.count - offset < headerSize || recordEnd(bytes, at: offset) > bytes.count ? "torn" : "corrupt"
        scan.problems.append("a \(what) record at byte \(offset) (the last \(bytes.count - offset) bytes)")
        scan.damagedTail = true
        break
      }
      scan.problems.append(
        "a corrupt record at byte \(offset) (\(next - offset) bytes skipped: checksum mismatch)")
      offset = next
    }
    return scan
  }

  /// The body length of the record at `offset` if its header fits, its body is in the file,
  /// starts like a JSON object and matches its checksum; else nil.
  private static func intactRecord(_ bytes: [UInt8], at offset: Int) -> Int? {
    guard bytes.count - offset >= headerSize else { return nil }
    let length = Int(readLittleEndian(bytes, at: offset))
    let start = offset + headerSize
    guard length >= 2, length <= bytes.count - start, bytes[start] == UInt8(ascii: "{") else { return nil }
    let body = bytes[start..<start + length]
    return body.withUnsafeBytes({ CRC32C.checksum($0) }) == readLittleEndian(bytes, at: offset + 4)
      ? length : nil
  }

  /// Where the record at `offset` would end by its header.
  private static func recordEnd(_ bytes: [UInt8], at offset: Int) -> Int {
    offset + headerSize + Int(readLittleEndian(bytes, at: offset))
  }

  private static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
  }

  private static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
  }
}
