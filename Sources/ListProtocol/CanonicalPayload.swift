// A payload's canonical encoded form, with a table of its members: what re-sent items are compared against as bytes.
import JSON
import ListModel

/// The canonical encoded form of a payload: its members as rows carry them
/// (``RowEncoding/appendPayload(_:to:)``: defaults omitted, `data` canonical), compact, in the
/// order rows write them. A client that sends an item as listd's rows show it (without `level`
/// and the outline members), with its `id` first and no whitespace, sends exactly these bytes.
enum CanonicalPayload {
  /// The payload's form, kept with the payload after the first call; nil for text alone.
  static func form(of payload: ItemPayload) -> CanonicalForm? {
    payload.canonicalBytes(encode).map(CanonicalForm.init)
  }

  /// The form as kept (``CanonicalForm``), computed. O(size of the payload).
  static func encode(_ payload: ItemPayload) -> [UInt8] {
    var object = JSONObject()
    RowEncoding.appendPayload(payload, to: &object)
    var writer = JSONWriter()
    var kept: [UInt8] = [UInt8(object.count)]
    for (key, value) in object {
      writer.writeRaw(CollectionOfOne(UInt8(ascii: ",")))
      writer.writeString(key)
      writer.writeRaw(CollectionOfOne(UInt8(ascii: ":")))
      writer.write(value)
      kept.append(UInt8(CanonicalForm.names.index(of: key)))
      withUnsafeBytes(of: UInt32(writer.bytes.count).littleEndian) { kept += $0 }
    }
    writer.writeRaw(CollectionOfOne(UInt8(ascii: "}")))
    kept += writer.bytes
    return kept
  }
}

/// A payload's canonical form as it is kept: a table of its members (their count, then for each
/// its name as an index in ``ContentDecoding/itemKeys`` and, as four bytes little endian, where
/// its value ends), then the bytes as they follow an item's `"id":"…"` member: `,"text":"…",…}`,
/// or `}` for the empty payload. The table lets an item that differs in some members (`data`
/// spelled otherwise, one field changed) be recognised in the others.
struct CanonicalForm {
  /// The names the table's indices refer to: the members an item may have.
  static var names: JSONNames { ContentDecoding.itemNames }

  private let kept: [UInt8]

  init(_ kept: [UInt8]) { self.kept = kept }

  /// Where the bytes start, after the table.
  private var start: Int { 1 + 5 * Int(kept[0]) }

  /// Runs `body` with the bytes: every member, then the object's `}`.
  func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    kept.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start...])) }
  }

  /// Runs `body` with the bytes of the value of member `name` (an index in
  /// ``ContentDecoding/itemKeys``), or returns nil when the payload has no such member (a
  /// default, left out). O(members).
  func withValue<T>(of name: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
    let count = Int(kept[0])
    let start = start
    var memberStart = 0
    for k in 0..<count {
      let entry = 1 + 5 * k
      var end = 0
      for b in 0..<4 { end |= Int(kept[entry + 1 + b]) << (8 * b) }
      if Int(kept[entry]) == name {
        // `,"name":` comes before the value.
        let valueStart = memberStart + 4 + Self.names.strings[name].utf8.count
        return kept.withUnsafeBufferPointer {
          body(UnsafeBufferPointer(rebasing: $0[(start + valueStart)..<(start + end)]))
        }
      }
      memberStart = end
    }
    return nil
  }
}
