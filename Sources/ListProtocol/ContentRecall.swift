// The version list/replace replaces, recalled while its content is read: items it holds recognised by their bytes.
import JSON
import ListModel

/// The current version of a list, recalled while the content replacing it is read: an item
/// whose members after its leading `id` are exactly the canonical bytes of the payload the
/// current version holds for that id (``CanonicalPayload``) takes that payload, undecoded.
/// Bytes determine the value, so the result is the one decoding gives; an item that differs in
/// any byte (another member order, `1.0` for `1`, whitespace, another value) is decoded as
/// ever and compared as a value.
final class ContentRecall {
  let current: ListSnapshot
  /// The section being read (set when it names itself before its items).
  var section: SectionRecall?

  init(_ current: ListSnapshot) {
    self.current = current
  }

  /// The payload held for `id`, consumed from `reader` (its members and the object's `}`) when
  /// they come next as its canonical bytes; else nil, with nothing consumed.
  func recognised<R: JSONPullReader>(_ id: String, _ reader: inout R) -> ItemPayload? {
    guard let payload = section?.payload(of: id), let bytes = CanonicalPayload.bytes(of: payload) else {
      return nil
    }
    return bytes.withUnsafeBufferPointer { reader.skip(ifNext: $0) } ? payload : nil
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
