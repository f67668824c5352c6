// Create's content read from its bytes straight into a snapshot, in batches, with no array of every item.
import JSON
import JSONRPC
import ListModel

extension ContentDecoding {
  /// Items decoded before they are appended: bounds the decoded trees held at once, while each
  /// append stays a block of many nodes.
  public static let streamBatch = 4_096

  /// The snapshot ``snapshot(_:sharingWith:selectionMode:)`` builds from ``content(_:path:inherit:)``
  /// of `text` (without inheriting), built while the bytes are read: no `[OutlineNode]` of the
  /// whole content is ever held. Nil whenever that two-step path might do anything else (the
  /// one-pass reader refuses the content, a section's `items` are not its last member, the model
  /// throws): the caller then takes the two-step path, which reports errors in their specified
  /// order (content before model). `batch`: items decoded before each append. O(size of the input).
  public static func streamedSnapshot(
    _ text: JSONText, sharingWith base: ListSnapshot, selectionMode: SelectionMode, batch: Int = streamBatch
  ) -> ListSnapshot? {
    var snapshot = ListSnapshot(sharingIdentifiersWith: base, selectionMode: selectionMode)
    let built = try? text.withReader { (reader: inout JSONReader) throws(JSONParseError) -> Bool in
      guard try reader.peek() == .object else { return false }
      try reader.beginObject()
      var seenSections = false
      while let key = try reader.nextKey() {
        guard key == "sections", !seenSections, try reader.peek() == .array else { return false }
        seenSections = true
        try reader.beginArray()
        while try reader.nextElement() {
          guard try streamSection(&reader, into: &snapshot, base: base, batch: batch) else { return false }
        }
      }
      return seenSections
    }
    guard built == true, (try? snapshot.checkCells()) != nil else { return nil }
    return snapshot
  }

  /// One section: its members before `items` make its spec, appended when `items` (its last
  /// member) or its end is reached; items are appended a batch at a time. False to refuse.
  private static func streamSection(
    _ reader: inout JSONReader, into snapshot: inout ListSnapshot, base: ListSnapshot, batch size: Int
  ) throws(JSONParseError) -> Bool {
    var appended = false
    let spec = try readSection(&reader, itemsLast: true) {
      (reader: inout JSONReader, head: SectionHead) throws(JSONParseError) in
      guard let spec = head.spec, (try? snapshot.appendSections([spec])) != nil else { return false }
      appended = true
      try reader.beginArray()
      var batch: [OutlineNode] = []
      batch.reserveCapacity(size)
      while try reader.nextElement() {
        guard let tree = try readTree(&reader, inherit: false) else { return false }
        batch.append(tree)
        if batch.count == size {
          guard (try? snapshot.appendTrees(batch, toSection: spec.id, inheritingExpansionFrom: base)) != nil
          else { return false }
          batch.removeAll(keepingCapacity: true)
        }
      }
      return batch.isEmpty
        || (try? snapshot.appendTrees(batch, toSection: spec.id, inheritingExpansionFrom: base)) != nil
    }
    guard let spec else { return false }
    return appended || (try? snapshot.appendSections([spec])) != nil
  }
}
