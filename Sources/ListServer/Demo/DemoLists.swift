// Loads the demo lists of `listd --demo` and starts the live one.
import Dispatch
import JSON
import JSONRPC
import ListModel
import ListProtocol
import Synchronization

extension ListServer {
  /// Creates the demo lists, owned by the daemon: `contacts` (plain, accessories, swipe and
  /// context-menu actions), `settings` (grouped: headers, footers, toggles, badges), `files`
  /// (an outline), `live` (a build queue that changes every second), `processes` (a table:
  /// columns and cells of every type, kinds) and `inbox` (empty: its empty state shows).
  ///
  /// With `--state`, demo lists recovered from an earlier run are disposed and made afresh:
  /// the demo starts the same every time (other lists are kept).
  public func loadDemo() throws {
    for id in ["contacts", "settings", "files", "live", "processes", "inbox"] {
      guard let recovered = try? registry.list(id) else { continue }
      let disposed = recovered.queue.sync { (try? dispose(recovered)) != nil }
      if !disposed { throw ResponseError.unknownList(id) }
    }
    /// `json` is the content; `attributes` the list attributes (`columns`, `emptyState`, …).
    func load(
      _ id: String, _ title: String, _ appearance: Appearance, _ mode: SelectionMode, _ json: String,
      attributes: String = "{}"
    ) throws {
      let content = Params(try JSONParser().parse(json))
      let sections = try ContentDecoding.content(content)
      var base = ListSnapshot()
      try ListAttributeCoding.decode(Params(try JSONParser().parse(attributes)), into: &base, list: id)
      let snapshot = try ContentDecoding.snapshot(sections, sharingWith: base, selectionMode: mode)
      _ = try createList(
        id: id, snapshot: snapshot, metadata: ListMetadata(title: title, appearance: appearance),
        owner: DemoOwner())
    }
    try load("contacts", "Contacts", .plain, .multiple, DemoContent.contacts)
    try load("settings", "Settings", .grouped, .none, DemoContent.settings)
    try load("files", "Files", .sidebar, .single, DemoContent.files)
    try load(
      "processes", "Processes", .plain, .multiple, DemoContent.processes,
      attributes: DemoContent.processColumns)
    try load(
      "inbox", "Inbox", .insetGrouped, .single, DemoContent.inbox, attributes: DemoContent.inboxEmptyState)

    let demo = Mutex(LiveDemo())
    let initial = try demo.withLock { demo throws(ListModelError) in try demo.initialSnapshot() }
    let owner = DemoOwner { snapshot in
      demo.withLock { demo in
        var edited = snapshot
        if (try? edited.appendItems([demo.newJob()], toSection: "queued")) != nil { snapshot = edited }
      }
    }
    let live = try createList(
      id: "live", snapshot: initial, metadata: ListMetadata(title: "Build Queue", appearance: .insetGrouped),
      owner: owner
    ).list
    let timer = DispatchSource.makeTimerSource(queue: live.queue)
    timer.schedule(deadline: .now() + 1, repeating: 1)
    timer.setEventHandler {
      guard !live.isDisposed else { return }
      defer { live.reclaimIdentifiersIfNeeded() }  // the end of this turn of the list's queue
      _ = try? ListChanges.mutate(live, ifVersion: nil, source: ChangeSource(method: "demo")) {
        snapshot throws(ResponseError) in
        let old = snapshot
        do throws(ListModelError) {
          try demo.withLock { demo throws(ListModelError) in try demo.tick(&snapshot) }
        } catch {
          throw ResponseError.model(error, list: live.id)
        }
        return diff(old, snapshot)
      }
    }
    timer.resume()
    demoTimers.append(timer)
  }
}

/// Keeps the demo's timers alive for the life of the process. Only `loadDemo` touches it, once
/// at start-up, before any other thread could.
nonisolated(unsafe) var demoTimers: [any DispatchSourceTimer] = []
