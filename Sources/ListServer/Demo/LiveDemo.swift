// The demo's live list: a build queue that changes every second (moves, reconfigures, inserts, deletes).
import Dispatch
import JSON
import JSONRPC
import ListModel

/// A build queue: jobs wait in "Queued", run in "Running" with a progress bar, and finish in
/// "Done". Each tick advances progress (reconfigures), finishes jobs (cross-section moves),
/// starts queued ones, enqueues a new one (insert) and trims old finished ones (deletes).
/// Deterministic: the same ticks give the same changes.
struct LiveDemo: Sendable {
  private var nextJob = 1
  private var random = 0x5eed_1157_0000_0001 as UInt64
  private static let targets = [
    "ListModel", "JSONRPC", "ListServer", "listd", "listctl", "listd-tui", "docs",
  ]

  /// The initial content.
  mutating func initialSnapshot() throws(ListModelError) -> ListSnapshot {
    var snapshot = ListSnapshot(selectionMode: .single)
    try snapshot.appendSections([
      SectionSpec("running", header: "Running"), SectionSpec("queued", header: "Queued"),
      SectionSpec("done", header: "Done", footer: "The last 5 finished jobs."),
    ])
    for _ in 0..<3 { try snapshot.appendItems([newJob()], toSection: "queued") }
    try tick(&snapshot)
    return snapshot
  }

  /// One second of the build queue.
  mutating func tick(_ snapshot: inout ListSnapshot) throws(ListModelError) {
    var edits: [ListEdit] = []
    var running = snapshot.itemIdentifiers(inSection: "running")
    for id in running {
      guard var payload = snapshot.payload(of: id) else { continue }
      let progress =
        payload.accessories.lazy.compactMap { if case .progress(let v) = $0 { v } else { nil } }.first ?? 0
      let next = min(1, progress + 0.1 + Double(nextRandom() % 25) / 100)
      if next >= 1 {
        payload.accessories = [.checkmark, .label("\(2 + nextRandom() % 40)s")]
        payload.content.secondaryText = (payload.content.secondaryText ?? "") + " · passed"
        edits.append(.setPayload(item: id, payload: payload))
        if let first = snapshot.itemIdentifiers(inSection: "done").first {
          edits.append(.moveItemBefore(id, item: first))
        } else {
          edits.append(.moveItemToSection(id, section: "done"))
        }
        running.removeAll { $0 == id }
      } else {
        payload.accessories = [.progress(next), .activityIndicator]
        edits.append(.setPayload(item: id, payload: payload))
      }
    }
    var queued = snapshot.itemIdentifiers(inSection: "queued")
    while running.count < 2, !queued.isEmpty {
      let id = queued.removeFirst()
      if var payload = snapshot.payload(of: id) {
        payload.accessories = [.progress(0), .activityIndicator]
        edits.append(.setPayload(item: id, payload: payload))
      }
      edits.append(.moveItemToSection(id, section: "running"))
      running.append(id)
    }
    if queued.count < 4 { edits.append(.appendItems([newJob()], section: "queued")) }
    try snapshot.apply(edits)
    let done = snapshot.itemIdentifiers(inSection: "done")
    if done.count > 5 { try snapshot.deleteItems(Array(done[5...])) }
  }

  /// A new queued job.
  mutating func newJob() -> ListItem {
    defer { nextJob += 1 }
    let target = Self.targets[Int(nextRandom() % UInt64(Self.targets.count))]
    return ListItem(
      "job-\(nextJob)",
      payload: ItemPayload(
        content: ItemContent(text: "Build #\(nextJob)", secondaryText: target, image: "hammer"),
        accessories: [.label("queued")],
        trailingSwipeActions: [ListAction(id: "delete", title: "Cancel", style: .destructive)],
        contextMenuActions: [ListAction(id: "delete", title: "Cancel Job", style: .destructive)]))
  }

  private mutating func nextRandom() -> UInt64 {
    random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return random >> 33
  }
}
