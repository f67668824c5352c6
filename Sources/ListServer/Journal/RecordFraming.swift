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

  /// What a scan of a file found: the bodies of its intact records, in order, and — when it
  /// ends in something else — where the intact part ends and what is wrong after it.
  struct Scan {
    var bodies: [ArraySlice<UInt8>] = []
    /// Bytes of intact records from the start.
    var intactBytes = 0
    /// Why the bytes after `intactBytes` are not a record (nil when the file ends cleanly).
    var problem: String?
  }

  /// Splits `bytes` into records, stopping at the first one that is torn (shorter than its
  /// header says) or corrupt (its checksum does not match). O(n).
  static func scan(_ bytes: [UInt8]) -> Scan {
    var scan = Scan()
    var offset = 0
    while offset < bytes.count {
      guard bytes.count - offset >= headerSize else {
        scan.problem =
          "a torn record header at byte \(offset) (\(bytes.count - offset) of \(headerSize) bytes)"
        break
      }
      let length = Int(readLittleEndian(bytes, at: offset))
      let crc = readLittleEndian(bytes, at: offset + 4)
      let start = offset + headerSize
      guard length <= bytes.count - start else {
        scan.problem = "a torn record at byte \(offset) (\(bytes.count - start) of \(length) bytes)"
        break
      }
      let body = bytes[start..<start + length]
      guard body.withUnsafeBytes({ CRC32C.checksum($0) }) == crc else {
        scan.problem = "a corrupt record at byte \(offset) (checksum mismatch)"
        break
      }
      scan.bodies.append(body)
      offset = start + length
      scan.intactBytes = offset
    }
    return scan
  }

  private static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
  }

  private static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
  }
}
