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
    guard try reader.peek() == .object else { return false }
    try reader.beginObject()
    var id: String?
    var header: String?
    var footer: String?
    var kind: String?
    var headerMode: HeaderMode?
    var seen: UInt8 = 0
    var appended = false
    func appendSection() -> Bool {
      guard let id else { return false }
      let spec = SectionSpec(
        id, header: header, footer: footer, kind: kind, headerMode: headerMode ?? .supplementary)
      appended = (try? snapshot.appendSections([spec])) != nil
      return appended
    }
    while let key = try reader.nextKey() {
      guard !appended else { return false }  // a member after `items`
      let bit: UInt8
      switch key {
      case "id":
        guard try reader.peek() == .string else { return false }
        id = try reader.readString()
        bit = 1 << 0
      case "header", "footer", "kind":
        guard let string = try optionalString(&reader) else { return false }
        if key == "header" {
          header = string
          bit = 1 << 1
        } else if key == "footer" {
          footer = string
          bit = 1 << 2
        } else {
          kind = string
          bit = 1 << 3
        }
      case "headerMode":
        guard let string = try optionalString(&reader) else { return false }
        if let string {
          guard let mode = HeaderMode(rawValue: string) else { return false }
          headerMode = mode
        }
        bit = 1 << 4
      case "items":
        guard seen & (1 << 5) == 0, appendSection(), let id else { return false }
        switch try reader.peek() {
        case .null: try reader.readNull()
        case .array:
          try reader.beginArray()
          var batch: [OutlineNode] = []
          batch.reserveCapacity(size)
          while try reader.nextElement() {
            guard let tree = try readTree(&reader, inherit: false) else { return false }
            batch.append(tree)
            if batch.count == size {
              guard (try? snapshot.appendTrees(batch, toSection: id, inheritingExpansionFrom: base)) != nil
              else { return false }
              batch.removeAll(keepingCapacity: true)
            }
          }
          if !batch.isEmpty {
            guard (try? snapshot.appendTrees(batch, toSection: id, inheritingExpansionFrom: base)) != nil
            else { return false }
          }
        default: return false
        }
        bit = 1 << 5
      default:
        return false
      }
      guard seen & bit == 0 else { return false }
      seen |= bit
    }
    return appended || appendSection()
  }
}
