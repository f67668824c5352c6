// The reload rule over random `list/edit` batches: a reload or reconfigure holds whatever later edits do.
import Foundation
import JSON
import JSONRPC
import ListModel
import ListProtocol
import SeededRandom
import XCTest

/// Random batches of reloads and reconfigures mixed with the edits that re-create, move or
/// change an item (`replaceItems`, `patchItems`, `updateItems`, `moveItem`, delete and append
/// again), decoded and applied as `list/edit` applies them (with and without `patchItems`, the
/// two paths of ``DecodedEdits/applyAndDiff(to:list:batch:diffing:)``). In every changeset, an
/// item whose last mark in the batch is a reload and that exists at the end is reloaded (or
/// inserted, if it moved or is new to the version); one whose last mark is a reconfigure is
/// reconfigured (or inserted); no other item is reloaded.
///
/// `LISTD_RELOAD_SEED=n` replays a run (the default seed is fixed).
final class ReloadMarkPropertyTests: XCTestCase {
  func testAReloadHoldsWhateverLaterEditsOfTheBatchDo() throws {
    let seed = PropertySeeds.seed("LISTD_RELOAD_SEED", default: 23)
    var generator = ReloadBatchGenerator(random: SplitMix64(seed: seed))
    var snapshot = ListSnapshot()
    let start = try EditDecoding.edits(Params(["edits": generator.initialEdits()]))
    _ = try start.applyAndDiff(to: &snapshot, list: "r", batch: true)
    var patched = 0
    for run in 0..<3_000 {
      let batch = generator.batch()
      let context =
        "seed \(seed) (LISTD_RELOAD_SEED=\(seed) replays it), run \(run): "
        + String(decoding: batch.jsonBytes(), as: UTF8.self)
      let decoded = try EditDecoding.edits(Params(["edits": batch]))
      if !decoded.patches.isEmpty { patched += 1 }
      let changeset: Changeset
      do {
        changeset = try decoded.applyAndDiff(to: &snapshot, list: "r", batch: true)
      } catch {
        return XCTFail("\(context): \(error)")
      }
      XCTAssertEqual(
        generator.sections.map { snapshot.itemIdentifiers(inSection: $0.id) },
        generator.sections.map(\.items),
        context)
      let reloaded = Set(changeset.itemReloads.flatMap(\.rows).map(\.id))
      let reconfigured = Set(changeset.itemReconfigures.flatMap(\.rows).map(\.id))
      let inserted = Set(changeset.itemInserts.flatMap(\.rows).map(\.id))
      let existing = Set(generator.sections.flatMap(\.items))
      for (id, reload) in generator.marks where existing.contains(id) {
        if reload {
          XCTAssertTrue(reloaded.contains(id) || inserted.contains(id), "\(id) not reloaded; \(context)")
        } else {
          XCTAssertTrue(
            reconfigured.contains(id) || inserted.contains(id), "\(id) not reconfigured; \(context)")
        }
      }
      for id in reloaded {
        XCTAssertEqual(generator.marks[id], true, "\(id) reloaded unasked; \(context)")
      }
      if testRun?.failureCount ?? 0 > 0 { return }
    }
    XCTAssertGreaterThan(patched, 600, "too few batches with patchItems")
  }
}

/// Batches over two sections of flat items, with the expected state kept alongside.
private struct ReloadBatchGenerator {
  var random: SplitMix64
  var sections: [(id: String, items: [String])] = [("s0", ["a", "b", "c"]), ("s1", ["d", "e"])]
  /// Ids that existed and were deleted: appended again now and then.
  var gone: [String] = []
  var fresh = 0
  var texts = 0
  /// The last of reload (true) and reconfigure (false) per item in the current batch.
  var marks: [String: Bool] = [:]

  func initialEdits() -> JSONValue {
    .array(
      [
        [
          "op": "appendSections",
          "sections": .array(
            sections.map { section in
              ["id": .string(section.id), "items": .array(section.items.map { ["id": .string($0)] })]
            }),
        ]
      ])
  }

  private var all: [String] { sections.flatMap(\.items) }

  private mutating func someItem() -> String? { random.element(all) }

  private mutating func text() -> JSONValue {
    texts += 1
    return .string("t\(texts)")
  }

  private mutating func newID() -> String {
    if !gone.isEmpty, random.chance(percent: 60) { return gone.remove(at: random.int(0..<gone.count)) }
    fresh += 1
    return "n\(fresh)"
  }

  private mutating func remove(_ id: String) {
    for index in sections.indices { sections[index].items.removeAll { $0 == id } }
  }

  /// One to six edits, each valid on the state the edits before it leave.
  mutating func batch() -> JSONValue {
    marks = [:]
    var edits: [JSONValue] = []
    for _ in 0..<random.int(in: 1...6) {
      if let edit = edit() { edits.append(edit) }
    }
    return .array(edits)
  }

  private mutating func edit() -> JSONValue? {
    switch random.int(0..<9) {
    case 0, 1:
      guard let id = someItem() else { return nil }
      let reload = random.chance(percent: 70)
      marks[id] = reload
      return ["op": .string(reload ? "reloadItems" : "reconfigureItems"), "items": [.string(id)]]
    case 2:
      guard let id = someItem() else { return nil }
      return ["op": "patchItems", "items": [["id": .string(id), "text": text()]]]
    case 3:
      guard let id = someItem() else { return nil }
      return ["op": "updateItems", "items": [["id": .string(id), "text": text()]]]
    case 4:
      // The section's items kept, in a new order, maybe fewer, maybe with one added.
      let index = random.int(0..<sections.count)
      var items = random.shuffled(sections[index].items).filter { _ in random.chance(percent: 85) }
      if random.chance(percent: 40) { items.insert(newID(), at: random.int(in: 0...items.count)) }
      gone += sections[index].items.filter { !items.contains($0) }
      sections[index].items = items
      return [
        "op": "replaceItems", "section": .string(sections[index].id),
        "items": .array(
          items.map {
            random.chance(percent: 30) ? ["id": .string($0), "text": text()] : ["id": .string($0)]
          }),
      ]
    case 5:
      guard all.count > 2, let id = someItem() else { return nil }
      remove(id)
      gone.append(id)
      return ["op": "deleteItems", "items": [.string(id)]]
    case 6, 7:
      guard all.count < 10 else { return nil }
      let index = random.int(0..<sections.count)
      let id = newID()
      sections[index].items.append(id)
      return ["op": "appendItems", "section": .string(sections[index].id), "items": [["id": .string(id)]]]
    default:
      guard let id = someItem(), let anchor = someItem(), anchor != id else { return nil }
      remove(id)
      let section = sections.firstIndex { $0.items.contains(anchor) }!
      let position = sections[section].items.firstIndex(of: anchor)! + 1
      sections[section].items.insert(id, at: position)
      return ["op": "moveItem", "item": .string(id), "after": .string(anchor)]
    }
  }
}
