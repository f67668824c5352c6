// The version list/replace replaces, recalled while its content is read: items it holds recognised by their bytes.
import JSON
import ListModel

/// The current version of a list, recalled while the content replacing it is read: an item
/// whose members after its leading `id` are exactly the canonical bytes of the payload the
/// current version holds for that id (``CanonicalPayload``) takes that payload, undecoded.
/// Bytes determine the value, so the result is the one decoding gives; an item that differs in
/// any byte (another member order, `1.0` for `1`, whitespace, another value) is decoded as
/// ever and compared as a value, and when equal keeps the current payload too (so a payload
/// is encoded once however often it is re-sent, and compared by reference when sections are
/// taken over).
final class ContentRecall {
  let current: ListSnapshot
  /// The section being read (set when it names itself before its items).
  var section: SectionRecall?
  /// How many items were recognised by their bytes (for tests: the result is the same either way).
  private(set) var recognised = 0
  /// How many items were compared as bytes and were not.
  private var missed = 0
  /// How many misses without a hit end the comparing of bytes for the rest of the content.
  static let missesBeforeGivingUp = 64
  /// Decoded payloads replaced by the equal current ones: freed after the answer, as the
  /// decoded content is, not while the content is read.
  private(set) var discarded: [ItemPayload] = []

  init(_ current: ListSnapshot) {
    self.current = current
  }

  /// The payload the current version holds for `id` (read next in the section), if any.
  func payload(of id: String) -> ItemPayload? {
    section?.payload(of: id)
  }

  /// Keeps a decoded payload that the current one replaces, to be freed later.
  func discard(_ payload: ItemPayload) {
    discarded.append(payload)
  }

  /// Whether `payload`'s canonical bytes (its members and the object's `}`) come next in
  /// `reader`; if so they are consumed, else nothing is.
  func matches<R: JSONPullReader>(_ payload: ItemPayload, _ reader: inout R) -> Bool {
    // A client that does not send canonical bytes would only have every payload encoded (and
    // kept) for nothing: after enough misses and no hit, this content is not compared as bytes.
    guard recognised > 0 || missed < Self.missesBeforeGivingUp,
      let bytes = CanonicalPayload.bytes(of: payload)  // nil for text alone: not a miss
    else { return false }
    guard bytes.withUnsafeBufferPointer({ reader.skip(ifNext: $0) }) else {
      missed += 1
      return false
    }
    recognised += 1
    return true
  }
}

/// The canonical encoded form of a payload: its members as rows carry them
/// (``RowEncoding/appendPayload(_:to:)``: defaults omitted, `data` canonical), compact, in the
/// order rows write them. A client that sends an item as listd's rows show it (without `level`
/// and the outline members), with its `id` first and no whitespace, sends exactly these bytes.
enum CanonicalPayload {
  /// The payload's bytes as they follow an item's `"id":"…"` member: `,"text":"…",…}`, or `}`
  /// for the empty payload. Kept with the payload after the first call; nil for text alone.
  static func bytes(of payload: ItemPayload) -> [UInt8]? {
    payload.canonicalBytes(encode)
  }

  /// The bytes, computed. O(size of the payload).
  static func encode(_ payload: ItemPayload) -> [UInt8] {
    var object = JSONObject()
    RowEncoding.appendPayload(payload, to: &object)
    guard !object.isEmpty else { return [UInt8(ascii: "}")] }
    var writer = JSONWriter()
    writer.write(.object(object))
    var bytes = writer.bytes
    bytes[0] = UInt8(ascii: ",")
    return bytes
  }
}
