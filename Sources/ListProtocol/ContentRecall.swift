// The version list/replace replaces, recalled while its content is read: items it holds recognised by their bytes.
import JSON
import ListModel

/// The current version of a list, recalled while the content replacing it is read: an item
/// whose members after its leading `id` are exactly the canonical bytes of the payload the
/// current version holds for that id (``CanonicalForm``) takes that payload, undecoded; an item
/// that differs in some members takes the current payload's values of the others, undecoded,
/// where they are byte for byte the same (whitespace between members aside). Bytes determine
/// the value, so the result is the one decoding gives; members that differ in any byte (`1.0`
/// for `1`, another key order inside `data`, an escape, another value) are decoded as ever, the
/// item is compared as a value, and when equal keeps the current payload (so a payload is
/// encoded once however often it is re-sent, and compared by reference when sections are taken
/// over).
final class ContentRecall {
  let current: ListSnapshot
  /// The section being read (set when it names itself before its items).
  var section: SectionRecall?
  /// How many items had members recognised by their bytes, all of them or some (for tests: the
  /// result is the same either way).
  private(set) var recognised = 0
  /// How many items were compared as bytes and had no member recognised.
  private var missed = 0
  /// How many misses without a hit end the comparing of bytes for the rest of the content.
  static let missesBeforeGivingUp = 64

  init(_ current: ListSnapshot) {
    self.current = current
  }

  /// The payload the current version holds for `id` (read next in the section), if any.
  func payload(of id: String) -> ItemPayload? {
    section?.payload(of: id)
  }

  /// The canonical form of `payload` to compare the item read against, or nil when bytes are
  /// not compared: for text alone (which keeps no bytes, and is no miss), or when a client that
  /// does not send canonical bytes would only have every payload encoded (and kept) for
  /// nothing: after enough misses and no hit, this content is not compared as bytes.
  func form(of payload: ItemPayload) -> CanonicalForm? {
    guard recognised > 0 || missed < Self.missesBeforeGivingUp else { return nil }
    return CanonicalPayload.form(of: payload)
  }

  /// Whether all of `form`'s bytes (its members and the object's `}`) come next in `reader`; if
  /// so they are consumed and the item is counted as recognised, else nothing is consumed.
  func matches<R: JSONPullReader>(_ form: CanonicalForm, _ reader: inout R) -> Bool {
    guard form.withBytes({ reader.skip(ifNext: $0) }) else { return false }
    recognised += 1
    return true
  }

  /// Counts an item read member by member against a form: some member recognised, or none.
  func count(recognisedMembers: Int) {
    if recognisedMembers > 0 { recognised += 1 } else { missed += 1 }
  }
}
