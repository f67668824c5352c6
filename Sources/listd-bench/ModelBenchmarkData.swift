// Deterministic inputs for the model benchmarks: seeded ids, edit scripts and outline trees.
import ListModel
import SeededRandom

/// The two id shapes of the suite.
enum IDKind: String, CaseIterable {
  case uuid = "uuid"
  case short = "short"

  /// `count` distinct ids from `seed`: 36-character UUID strings or short "i123" strings.
  func make(_ count: Int, seed: UInt64) -> [String] {
    switch self {
    case .short: return (0..<count).map { "i\(seed)-\($0)" }
    case .uuid:
      var random = SplitMix64(seed: seed)
      let hex = Array("0123456789abcdef".utf8)
      return (0..<count).map { _ in
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        var bits = random.next()
        var more = random.next()
        for index in 0..<32 {
          if index == 8 || index == 12 || index == 16 || index == 20 { bytes.append(UInt8(ascii: "-")) }
          if index == 16 {
            bits = more
            more = 0
          }
          bytes.append(hex[Int(bits & 0xF)])
          bits >>= 4
        }
        return String(decoding: bytes, as: UTF8.self)
      }
    }
  }
}

/// A changed copy of `ids`: `deletes`, `moves` and `inserts` are fractions of the count.
func churned(
  _ ids: [String], deletes: Double, inserts: Double, moves: Double, kind: IDKind, seed: UInt64
) -> [String] {
  var random = SplitMix64(seed: seed)
  var result = ids
  let count = ids.count
  for _ in 0..<Int(Double(count) * deletes) { result.remove(at: random.int(0..<result.count)) }
  for _ in 0..<Int(Double(count) * moves) {
    let moved = result.remove(at: random.int(0..<result.count))
    result.insert(moved, at: random.int(0..<(result.count + 1)))
  }
  for id in kind.make(Int(Double(count) * inserts), seed: seed &+ 99) {
    result.insert(id, at: random.int(0..<(result.count + 1)))
  }
  return result
}

/// A snapshot of one section per entry, optionally sharing another snapshot's id table.
func makeSnapshot(_ sections: [(String, [String])], sharing other: ListSnapshot? = nil) -> ListSnapshot {
  var snapshot = other.map { ListSnapshot(sharingIdentifiersWith: $0) } ?? ListSnapshot()
  for (section, items) in sections {
    try! snapshot.appendSections([section])
    try! snapshot.appendItems(items, toSection: section)
  }
  return snapshot
}

/// An outline of `folders` collapsed top-level folders, each with `subfolders` expanded
/// subfolders of `leaves` leaves: every folder has subfolders × (leaves + 1) descendants.
func makeOutline(folders: Int, subfolders: Int, leaves: Int) -> ListSnapshot {
  var trees: [OutlineNode] = []
  trees.reserveCapacity(folders)
  for folder in 0..<folders {
    var children: [OutlineNode] = []
    children.reserveCapacity(subfolders)
    for sub in 0..<subfolders {
      let leafNodes = (0..<leaves).map { OutlineNode("f\(folder)/\(sub)/\($0)") }
      children.append(OutlineNode("f\(folder)/\(sub)", children: leafNodes, isExpanded: true))
    }
    trees.append(OutlineNode("f\(folder)", children: children, isExpanded: false))
  }
  var snapshot = ListSnapshot()
  try! snapshot.appendSections(["tree"])
  try! snapshot.appendTrees(trees)
  return snapshot
}

/// The floor of a hash-based diff: one pass hashing every old and new id into a dictionary.
@inline(never) func hashFloor(_ old: [String], _ new: [String]) -> Int {
  var table = [String: Int](minimumCapacity: old.count + new.count)
  for (index, id) in old.enumerated() { table[id] = index }
  for (index, id) in new.enumerated() { table[id] = index }
  return table.count
}

/// The standard library's diff with moves, on the same ids.
@inline(never) func stdlibDiff(_ old: [String], _ new: [String]) -> Int {
  new.difference(from: old).inferringMoves().count
}
