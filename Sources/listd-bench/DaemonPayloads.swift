// Contents for the daemon suite: lists of n items in sections, churned copies, and their wire and model forms.
import JSONRPC
import ListModel
import SeededRandom

/// The content of a list: section ids with their item ids. An item's text is derived from its id.
struct BenchContent {
  var sections: [(id: String, items: [String])]

  var itemCount: Int { sections.reduce(0) { $0 + $1.items.count } }

  /// `sectionCount` sections sharing `items` items `i0`, `i1`, ….
  init(items: Int, sectionCount: Int) {
    let per = items / sectionCount
    sections = (0..<sectionCount).map { s in
      ("s\(s)", (0..<(s == sectionCount - 1 ? items - per * s : per)).map { "i\(s * per + $0)" })
    }
  }

  /// A copy with `fraction` of the items churned: a third deleted, a third inserted (new ids),
  /// a third moved to random places (in their section or another).
  func churned(_ fraction: Double, seed: UInt64) -> BenchContent {
    var random = SplitMix64(seed: seed)
    var copy = self
    let each = max(1, Int(Double(itemCount) * fraction / 3))
    func randomSection() -> Int { random.int(0..<copy.sections.count) }
    for _ in 0..<each {  // deletes
      let s = randomSection()
      if !copy.sections[s].items.isEmpty {
        copy.sections[s].items.remove(at: random.int(0..<copy.sections[s].items.count))
      }
    }
    var moved: [String] = []
    for _ in 0..<each {  // move sources
      let s = randomSection()
      if !copy.sections[s].items.isEmpty {
        moved.append(copy.sections[s].items.remove(at: random.int(0..<copy.sections[s].items.count)))
      }
    }
    for id in moved + (0..<each).map({ "n\(seed)-\($0)" }) {  // move destinations and inserts
      let s = randomSection()
      copy.sections[s].items.insert(id, at: random.int(0..<copy.sections[s].items.count + 1))
    }
    return copy
  }

  /// The wire content `{"sections":[{"id","items":[{"id","text"}…]}…]}` as JSON bytes, written
  /// directly (a million items would be slow to build as JSONValue).
  var wireContent: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(itemCount * 40 + 64)
    out += Array(#"{"sections":["#.utf8)
    for (index, section) in sections.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out += Array(#"{"id":""#.utf8) + Array(section.id.utf8) + Array(#"","items":["#.utf8)
      for (position, item) in section.items.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        out += Array(#"{"id":""#.utf8)
        out += Array(item.utf8)
        out += Array(#"","text":"Item "#.utf8)
        out += Array(item.utf8)
        out += Array(#""}"#.utf8)
      }
      out += Array("]}".utf8)
    }
    out += Array("]}".utf8)
    return out
  }

  /// A complete request frame `{"jsonrpc","id","method","params":{"list", "content"}}`.
  func requestFrame(_ method: String, list: String, id: Int, extra: String = "") -> [UInt8] {
    var body = Array(
      #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":{"list":"\#(list)"\#(extra),"content":"#
        .utf8)
    body += wireContent
    body += Array("}}".utf8)
    return FrameWriter().frame(body)
  }

  /// The model snapshot of this content, sharing identifiers with `base` when given (as the
  /// daemon's `list/replace` builds it).
  func snapshot(sharingWith base: ListSnapshot? = nil) -> ListSnapshot {
    var snapshot = base.map { ListSnapshot(sharingIdentifiersWith: $0) } ?? ListSnapshot()
    try! snapshot.appendSections(sections.map { SectionSpec($0.id) })
    for section in sections {
      try! snapshot.appendItems(
        section.items.map { ListItem($0, payload: ItemPayload(text: "Item " + $0)) }, toSection: section.id)
    }
    return snapshot
  }
}
