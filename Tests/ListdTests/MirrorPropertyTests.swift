// The mirror property end to end: subscribers' wire mirrors equal the daemon's list at every version.
import Foundation
import JSON
import JSONRPC
import ListModel
import ListProtocol
import SeededRandom
import XCTest

final class MirrorPropertyTests: XCTestCase {
  /// One owner (stdio) applies 5,000 random `list/edit` batches, pipelined in windows, while
  /// three socket clients subscribe (and a fourth joins mid-stream). Each subscriber's mirror —
  /// its subscribe answer plus the `list/didChange` notifications, applied on the wire JSON —
  /// must equal the list at every version: the expected state of each version (the model run
  /// in-process on the same edits), and the daemon's own state at every window's end.
  ///
  /// `LISTD_MIRROR_SEED=n` replays a run; `LISTD_MIRROR_BATCHES=n` changes its length.
  func testSubscribersMirrorTheListAtEveryVersion() throws {
    let environment = ProcessInfo.processInfo.environment
    let seed = environment["LISTD_MIRROR_SEED"].flatMap(UInt64.init) ?? 7311
    let batches = environment["LISTD_MIRROR_BATCHES"].flatMap(Int.init) ?? 5_000
    print("MirrorPropertyTests: seed \(seed) (LISTD_MIRROR_SEED=\(seed) replays it), \(batches) batches")
    let started = Date()

    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let socket = directory.file("listd.sock")
    let daemon = try DaemonProcess.listening(on: socket)
    defer { daemon.stop() }
    let owner = try TestClient(daemon, name: "owner")
    try owner.initialize(name: "owner")

    var run = MirrorRun(seed: seed, list: "m")
    let created = try owner.request(
      "list/create",
      [
        "list": "m", "title": "Mirror", "selectionMode": "multiple", "content": run.initialContent(),
        "columns": MirrorRun.columns,
      ])
    XCTAssertEqual(created["version"], 0)
    try run.createReference()

    var subscribers: [(client: TestClient, mirror: WireMirror)] = []
    for index in 0..<3 {
      let client = try TestClient.socket(socket, name: "subscriber-\(index)")
      try client.initialize(name: "subscriber-\(index)")
      let answer = try client.request("list/subscribe", ["list": "m"])
      let mirror = try WireMirror(subscribed: try XCTUnwrap(answer["lists"]?.arrayValue?.first))
      XCTAssertEqual(mirror.version, 0)
      subscribers.append((client, mirror))
    }
    let checker = try TestClient.socket(socket, name: "checker")
    try checker.initialize(name: "checker")
    var latecomer: (client: TestClient, answer: ResultSlot)?

    // Every changeset passes the batch-update check (the model's function on the decoded wire
    // changeset, and every 50th version the daemon's check/batchUpdate) with both versions' counts.
    var countsBefore = subscribers[0].mirror.sections.map(\.rows.count)
    func checkBatchUpdate(_ mirror: WireMirror, _ params: JSONValue) throws {
      let after = mirror.sections.map(\.rows.count)
      defer { countsBefore = after }
      let changeset = params["changeset"] ?? [:]
      let update = try CheckDecoding.update(Params(changeset, path: "changeset"))
      let result = ListModel.checkBatchUpdate(before: countsBefore, update, after: after)
      guard result == .valid(after: after) else {
        throw TestFailure("seed \(seed): v\(mirror.version): UIKit would refuse \(changeset): \(result)")
      }
      if mirror.version % 50 == 0 {
        let counts = JSONValue.array(after.map { .int(Int64($0)) })
        let answer = try checker.request(
          "check/batchUpdate",
          ["before": .array(countsBefore.map { .int(Int64($0)) }), "update": changeset, "after": counts])
        guard answer == ["valid": true, "after": counts] else {
          throw TestFailure(
            "seed \(seed): v\(mirror.version): check/batchUpdate answered \(answer) for \(changeset)")
        }
      }
    }

    var sent = 0
    var checkpoints = 0
    var failedBatches = 0
    while sent < batches {
      let windowSize = min(batches - sent, run.random.int(in: 1...50))
      let joinNow = latecomer == nil && sent + windowSize >= batches / 2
      if joinNow {
        let client = try TestClient.socket(socket, name: "latecomer")
        try client.initialize(name: "latecomer")
        latecomer = (client, ResultSlot())
      }
      // Pipelined: the whole window is written before any answer is awaited.
      let answers = (0..<windowSize).map { _ in ResultSlot() }
      var expectations: [MirrorRun.Expectation] = []
      for index in 0..<windowSize {
        if joinNow && index == windowSize / 2, let latecomer {
          latecomer.client.connection.sendRequest("list/subscribe", ["list": "m"]) {
            latecomer.answer.set($0)
          }
        }
        let (params, expectation) = try run.nextBatch()
        expectations.append(expectation)
        let slot = answers[index]
        owner.connection.sendRequest("list/edit", params) { slot.set($0) }
      }
      for (index, (slot, expectation)) in zip(answers, expectations).enumerated() {
        let result = try slot.wait(timeout: 60, "list/edit #\(sent + index)")
        if case .failure = result { failedBatches += 1 }
        try run.check(result, against: expectation, batch: sent + index, seed: seed)
      }
      sent += windowSize

      // Checkpoint: the daemon's own state at the version every answer so far produced.
      let fresh = try checker.request("list/subscribe", ["list": "m"])
      try checker.request("list/unsubscribe", ["list": "m"])
      let daemonState = try WireMirror(subscribed: try XCTUnwrap(fresh["lists"]?.arrayValue?.first))
      XCTAssertEqual(daemonState.version, run.version, "seed \(seed): daemon version after \(sent) batches")
      if let difference = run.expected(at: daemonState.version)?.firstDifference(from: daemonState) {
        XCTFail("seed \(seed): after \(sent) batches the daemon differs from the model: \(difference)")
        return
      }
      if joinNow, let latecomer {
        let result = try latecomer.answer.wait(timeout: 20, "latecomer's list/subscribe")
        let mirror = try WireMirror(subscribed: try XCTUnwrap(result.get()["lists"]?.arrayValue?.first))
        print("MirrorPropertyTests: the latecomer joined at version \(mirror.version)")
        if let difference = run.expected(at: mirror.version)?.firstDifference(from: mirror) {
          XCTFail("seed \(seed): the latecomer's snapshot at v\(mirror.version) differs: \(difference)")
          return
        }
        subscribers.append((latecomer.client, mirror))
      }
      for index in subscribers.indices {
        let client = subscribers[index].client
        let name = client.connection.options.name
        try catchUp(&subscribers[index].mirror, client: client, to: daemonState.version) { mirror, params in
          if let difference = run.expected(at: mirror.version)?.firstDifference(from: mirror) {
            throw TestFailure("seed \(seed): \(name) at v\(mirror.version): \(difference)")
          }
          if let answered = run.answeredChangeset(at: mirror.version), answered != params["changeset"] {
            throw TestFailure(
              "seed \(seed): v\(mirror.version): the notification's changeset differs from the answer's")
          }
          if index == 0 { try checkBatchUpdate(mirror, params) }
        }
        if let difference = subscribers[index].mirror.firstDifference(from: daemonState) {
          XCTFail("seed \(seed): after \(sent) batches, mirror ≠ daemon: \(difference)")
          return
        }
      }
      checkpoints += 1
      run.forget(before: daemonState.version)
    }

    XCTAssertEqual(subscribers.count, 4, "the latecomer joined")
    let final = try XCTUnwrap(run.expected(at: run.version))
    for subscriber in subscribers {
      XCTAssertEqual(
        subscriber.mirror, final, "seed \(seed): final mirror of \(subscriber.client.connection.options.name)"
      )
      XCTAssertNil(
        subscriber.client.next("list/didChange", timeout: 0.05), "no change beyond the last version")
      subscriber.client.close()
    }
    let elapsed = Date().timeIntervalSince(started)
    print(
      "MirrorPropertyTests: \(batches) batches (\(failedBatches) rejected), final v\(run.version) "
        + "with \(final.rowCount) rows in \(final.sections.count) sections, \(checkpoints) checkpoints, "
        + String(format: "%.1f s", elapsed))
    XCTAssertGreaterThan(failedBatches, 0, "some batches are invalid")
    XCTAssertGreaterThan(run.version, batches / 2, "most batches change the list")
    checker.close()
    owner.close()
  }

  /// `list/changesSince` answers exactly the notifications a subscriber received, and a version
  /// older than `--history` keeps is -32015 with the oldest and current versions.
  func testChangesSinceEqualsTheNotificationsAndHistoryIsBounded() throws {
    let history = 20
    let daemon = try DaemonProcess(["--history", String(history)])
    defer { daemon.stop() }
    let owner = try TestClient(daemon, name: "owner")
    try owner.initialize()
    var run = MirrorRun(seed: 7, list: "h")
    try owner.request(
      "list/create",
      [
        "list": "h", "selectionMode": "multiple", "content": run.initialContent(),
        "columns": MirrorRun.columns,
      ])
    try run.createReference()
    // The owner subscribes too: it is the subscriber whose notifications we compare.
    let answer = try owner.request("list/subscribe", ["list": "h"])
    var mirror = try WireMirror(subscribed: try XCTUnwrap(answer["lists"]?.arrayValue?.first))

    var received: [JSONValue] = []
    while run.version < 50 {
      let (params, expectation) = try run.nextBatch()
      let result: Result<JSONValue, any Error>
      do { result = .success(try owner.request("list/edit", params)) } catch { result = .failure(error) }
      try run.check(result, against: expectation, batch: received.count, seed: 7)
    }
    while mirror.version < run.version {
      let params = try XCTUnwrap(owner.next("list/didChange"), "notification v\(mirror.version + 1)")
      try mirror.apply(didChange: params)
      received.append(params)
    }
    XCTAssertNil(try XCTUnwrap(run.expected(at: run.version)).firstDifference(from: mirror))

    let current = run.version
    for since in [current, current - 1, current - 7, current - history] {
      let answer = try owner.request("list/changesSince", ["list": "h", "version": .int(Int64(since))])
      XCTAssertEqual(answer["version"], .int(Int64(current)))
      let changes = try XCTUnwrap(answer["changes"]?.arrayValue)
      XCTAssertEqual(changes, Array(received.suffix(current - since)), "changes since v\(since)")
    }
    let error = owner.error(
      "list/changesSince", ["list": "h", "version": .int(Int64(current - history - 1))])
    XCTAssertEqual(error.code, .historyUnavailable)
    XCTAssertEqual(error.data?["oldestVersion"], .int(Int64(current - history)))
    XCTAssertEqual(error.data?["currentVersion"], .int(Int64(current)))
    XCTAssertEqual(owner.error("list/changesSince", ["list": "h", "version": 0]).code, .historyUnavailable)
    owner.close()
  }

  /// The daemon's one-pass decoding of content items (used for large content) gives exactly what
  /// the checked decoding gives, or declines; it declines every input the checked path rejects.
  func testFastContentDecodingEqualsTheCheckedPath() throws {
    var run = MirrorRun(seed: 11, list: "x")
    var fastCount = 0
    var items: [JSONValue] = (0..<2_000).map { _ in run.randomItem() }
    items += [
      ["id": "a", "text": .null, "children": .null, "expanded": .null, "accessories": [], "data": .null],
      ["id": "b7", "selectable": false, "movable": true, "children": [["id": "c", "expanded": true]]],
      ["id": "d", "text": 1], ["id": "e", "unknown": true], .object(JSONObject([("id", "f"), ("id", "g")])),
      ["text": "no id"], ["id": "h", "children": [["id": "i", "text": false]]],
      ["id": "j", "expanded": "yes"],
    ]
    for (index, item) in items.enumerated() {
      let inherit = index.isMultiple(of: 2)
      let checked = Result { () throws(ResponseError) in
        try ContentDecoding.tree(Params(item), inherit: inherit)
      }
      guard let fast = ContentDecoding.fastTrees([item], inherit: inherit) else { continue }
      fastCount += 1
      let expected = try checked.get()
      XCTAssertEqual(fast, [expected], "\(WireMirror.text(item))")
    }
    XCTAssertGreaterThan(fastCount, 500, "the fast path takes the common items")
  }

  // MARK: - Helpers

  /// Applies `client`'s pending `list/didChange` notifications to `mirror` until it reaches
  /// `version`, calling `check` after each.
  private func catchUp(
    _ mirror: inout WireMirror, client: TestClient, to version: Int,
    check: (WireMirror, JSONValue) throws -> Void
  ) throws {
    while mirror.version < version {
      guard let params = client.next("list/didChange", timeout: 20) else {
        throw TestFailure("\(client.connection.options.name): no notification after v\(mirror.version)")
      }
      try mirror.apply(didChange: params)
      try check(mirror, params)
    }
  }

}

/// An answer handed from a connection's completion handler to the test thread.
final class ResultSlot: @unchecked Sendable {
  // `@unchecked Sendable`: `result` is written once under `condition`.
  private let condition = NSCondition()
  private var result: Result<JSONValue, any Error>?

  func set(_ value: Result<JSONValue, any Error>) {
    condition.lock()
    result = value
    condition.broadcast()
    condition.unlock()
  }

  func wait(timeout: TimeInterval, _ what: String) throws -> Result<JSONValue, any Error> {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while result == nil {
      guard condition.wait(until: deadline) else {
        throw TestFailure("no answer to \(what) within \(timeout) s")
      }
    }
    return result!
  }
}

/// The random side of the mirror test: a seeded generator of `list/edit` batches, and the
/// expected outcome of each, from the model run in-process on the same wire edits (decoded by the
/// daemon's own decoder). It predicts which batches fail, each batch's version, and the rows of
/// every version; the daemon's answers and state are checked against it.
struct MirrorRun {
  /// What a batch must answer.
  enum Expectation {
    /// A new version, with this changeset (round-tripped wire JSON).
    case changed(version: Int, changeset: JSONValue)
    /// Success that changes nothing: the current version and `{}`.
    case unchanged(version: Int)
    /// An error of this code; the list stays as it was.
    case failed(ErrorCode)
  }

  var random: SplitMix64
  let list: String
  private(set) var version = 0
  private(set) var model = ListSnapshot(selectionMode: .multiple)
  /// The model's changeset of the last batch that changed the list.
  private(set) var lastChangeset: Changeset?
  /// Whether new sections get a random `kind` and `headerMode` (off by default: it would change
  /// the histories other seeds replay).
  var styledSections = false
  /// Whether ``expected(at:)`` answers: each version's state is encoded as a client reads it,
  /// O(the list) per batch (tests that check only the model's changesets turn it off).
  var recordsStates = true
  private var content: JSONValue = [:]
  private var expectedStates: [Int: WireMirror] = [:]
  /// The model at each version kept, for ``rewind(to:)``.
  private var models: [Int: ListSnapshot] = [:]
  private var answered: [Int: JSONValue] = [:]
  private var counter = 0

  init(seed: UInt64, list: String) {
    random = SplitMix64(seed: seed)
    self.list = list
  }

  // MARK: - Initial content

  /// Content for `list/create`: two plain sections and two outline sections. Call once.
  mutating func initialContent() -> JSONValue {
    var sections: [JSONValue] = []
    for (index, outline) in [false, true, false, true].enumerated() {
      var section: JSONObject = [
        "id": .string("s\(index)"), "items": .array((0..<12).map { _ in item(depth: outline ? 0 : 9) }),
      ]
      if index.isMultiple(of: 2) { section.append("header", .string("Section \(index)")) }
      if index == 1 { section.append("footer", "Footer") }
      if styledSections && index == 1 { section.append("kind", "group") }
      if styledSections && index == 2 { section.append("headerMode", "none") }
      sections.append(.object(section))
    }
    content = ["sections": .array(sections)]
    return content
  }

  /// Builds the model from the initial content, as `list/create` does.
  mutating func createReference() throws {
    let sections = try ContentDecoding.content(Params(content, path: "content"))
    var base = ListSnapshot(selectionMode: .multiple)
    try ListAttributeCoding.decode(Params(["columns": Self.columns]), into: &base, list: list)
    model = try ContentDecoding.snapshot(sections, sharingWith: base, selectionMode: .multiple)
    cachedItems = nil
    expectedStates[0] = try state()
    models[0] = model
  }

  /// Goes back to `version` (kept: not forgotten), as if the batches after it were never made:
  /// a daemon killed before committing them recovers there.
  mutating func rewind(to version: Int) throws {
    guard let kept = models[version] else { throw TestFailure("version \(version) is not kept") }
    model = kept
    self.version = version
    cachedItems = nil
    models = models.filter { $0.key <= version }
    expectedStates = expectedStates.filter { $0.key <= version }
    answered = answered.filter { $0.key <= version }
  }

  // MARK: - Batches

  /// The next batch's `list/edit` params and its expected outcome; the model moves on.
  mutating func nextBatch() throws -> (params: JSONValue, expectation: Expectation) {
    var edits: [JSONValue] = (0..<random.int(in: 1...4)).map { _ in edit() }
    if random.chance(0.05) {
      edits.insert(invalidEdit(), at: random.int(in: 0...edits.count))
    }
    let params: JSONValue = ["list": .string(list), "edits": .array(edits)]
    let before = model
    var after = model
    do {
      let decoded = try EditDecoding.edits(Params(params))
      let changeset: Changeset
      do throws(ListModelError) {
        changeset = try after.applyAndDiff(decoded.edits)
      } catch {
        return (params, .failed(ResponseError.model(error, list: list).code))
      }
      if changeset.isEmpty && after == before { return (params, .unchanged(version: version)) }
      model = after
      lastChangeset = changeset
      cachedItems = nil
      version += 1
      if recordsStates { expectedStates[version] = try state() }
      models[version] = model
      return (
        params, .changed(version: version, changeset: try roundTrip(ChangesetEncoding.changeset(changeset)))
      )
    } catch let error as ResponseError {
      return (params, .failed(error.code))
    }
  }

  /// Checks the daemon's answer to batch `batch` against its expectation.
  mutating func check(
    _ result: Result<JSONValue, any Error>, against expectation: Expectation, batch: Int, seed: UInt64
  ) throws {
    let context = "seed \(seed), batch #\(batch)"
    switch (expectation, result) {
    case (.changed(let version, let changeset), .success(let answer)):
      guard answer["version"] == .int(Int64(version)) else {
        throw TestFailure("\(context): answered version \(answer["version"] ?? .null), expected \(version)")
      }
      guard answer["changeset"] == changeset else {
        throw TestFailure(
          "\(context): answered changeset \(answer["changeset"] ?? .null), the model's \(changeset)")
      }
      answered[version] = changeset
    case (.unchanged(let version), .success(let answer)):
      guard answer["version"] == .int(Int64(version)), answer["changeset"] == [:] else {
        throw TestFailure("\(context): expected no change at v\(version), got \(answer)")
      }
    case (.failed(let code), .failure(let error as ResponseError)):
      guard error.code == code else {
        throw TestFailure("\(context): failed with \(error.code) (\(error.message)), expected \(code)")
      }
    default:
      throw TestFailure("\(context): expected \(expectation), got \(result)")
    }
  }

  /// The expected rows and selection at `version` (kept until ``forget(before:)``).
  func expected(at version: Int) -> WireMirror? { expectedStates[version] }

  /// The changeset the owner was answered for the change to `version`.
  func answeredChangeset(at version: Int) -> JSONValue? { answered[version] }

  /// Drops what is kept for versions before `version`.
  mutating func forget(before version: Int) {
    expectedStates = expectedStates.filter { $0.key >= version }
    models = models.filter { $0.key >= version }
    answered = answered.filter { $0.key > version }
  }

  private func state() throws -> WireMirror {
    try WireMirror(list: list, version: version, snapshot: roundTrip(RowEncoding.snapshot(model)))
  }

  /// The value as a client reads it: written and parsed again.
  private func roundTrip(_ value: JSONValue) throws -> JSONValue {
    try JSONValue(parsing: value.jsonBytes())
  }

  // MARK: - Random edits

  private var sections: [String] { model.sectionIdentifiers }
  /// Every item id (hidden ones too), cached until the model changes.
  private var items: [String] {
    mutating get {
      if let cachedItems { return cachedItems }
      let all = model.sectionIdentifiers.flatMap {
        model.itemIdentifiers(inSection: $0, includingHidden: true)
      }
      cachedItems = all
      return all
    }
  }
  private var cachedItems: [String]?

  private mutating func freshID(_ prefix: String) -> String {
    counter += 1
    return "\(prefix)\(counter)"
  }

  private mutating func someItem() -> String { random.element(items) ?? "missing" }
  private mutating func someSection() -> String { random.element(sections) ?? "missing" }
  private mutating func someItems(_ range: ClosedRange<Int>) -> [JSONValue] {
    let all = items
    return (0..<random.int(in: range)).compactMap { _ in random.element(all).map { .string($0) } }
  }

  /// A random payload: texts, data, accessories, actions, flags.
  private mutating func payload(into object: inout JSONObject) {
    object.append("text", .string(random.element(["Alpha", "Beta", "Gamma", "Delta", "Ε", "日本"])!))
    if random.chance(0.3) { object.append("secondaryText", .string("detail \(random.int(in: 0...3))")) }
    if random.chance(0.15) { object.append("image", "folder") }
    if random.chance(0.2) {
      object.append("data", ["n": .int(Int64(random.int(in: 0...2))), "tags": ["a", "b"]])
    }
    if random.chance(0.25) {
      let accessory: JSONValue = random.element([
        ["type": "disclosureIndicator"], ["type": "checkmark"],
        ["type": "badge", "text": .string("\(random.int(in: 1...9))")],
        ["type": "toggle", "isOn": .bool(random.chance(0.5))], ["type": "progress", "value": 0.25],
        ["type": "popUpMenu", "actions": [["id": "a", "title": "A"]]], ["type": "custom", "name": "star"],
      ])!
      object.append("accessories", [accessory])
    }
    if random.chance(0.1) {
      object.append("trailingSwipeActions", [["id": "delete", "title": "Delete", "style": "destructive"]])
    }
    if random.chance(0.05) { object.append("contextMenuActions", [["id": "copy", "title": "Copy"]]) }
    if random.chance(0.05) { object.append("selectable", false) }
    if random.chance(0.1) { object.append("movable", true) }
    if random.chance(0.3) { object.append("kind", .string(random.element(["file", "folder"])!)) }
    if random.chance(0.1) {
      object.append("bottomSeparator", .string(random.element(["visible", "hidden"])!))
    }
    if random.chance(0.1), object["accessories"] == nil {
      object.append(
        "accessories",
        [
          ["type": "delete", "placement": .string(random.element(["leading", "trailing"])!)],
          [
            "type": "reorder",
            "displayed": .string(random.element(["always", "whenEditing", "whenNotEditing"])!),
          ],
        ])
    }
    if random.chance(0.05), object["contextMenuActions"] == nil {
      object.append(
        "contextMenuActions",
        [
          [
            "id": "m", "title": "More",
            "children": [["id": "x", "title": "X", "checked": .bool(random.chance(0.5))]],
          ]
        ])
    }
    if random.chance(0.4) {
      var cells: JSONObject = ["size": .int(Int64(random.int(in: 0...3)))]
      if random.chance(0.5) {
        cells.append("name", random.chance(0.2) ? .null : .string("n\(random.int(in: 0...2))"))
      }
      object.append("cells", .object(cells))
    }
  }

  /// The columns lists are created with; cells name `size` and `name`.
  static let columns: JSONValue = [
    ["id": "name", "title": "Name"],
    ["id": "size", "title": "Size", "alignment": "trailing", "sortable": true],
  ]

  /// A new item; below `depth` 2 it may carry children (and be expanded).
  private mutating func item(depth: Int) -> JSONValue {
    var object: JSONObject = ["id": .string(freshID("i"))]
    payload(into: &object)
    if depth < 2 && random.chance(0.3) {
      object.append("children", .array((0..<random.int(in: 1...3)).map { _ in item(depth: depth + 1) }))
      if random.chance(0.5) { object.append("expanded", true) }
    }
    return .object(object)
  }

  /// A random item for decoding tests.
  mutating func randomItem() -> JSONValue { item(depth: random.int(in: 0...2)) }

  private mutating func newItems(_ range: ClosedRange<Int>) -> JSONValue {
    .array((0..<random.int(in: range)).map { _ in item(depth: random.chance(0.5) ? 0 : 2) })
  }

  private mutating func anchor(_ id: String) -> (String, JSONValue) {
    (random.chance(0.5) ? "before" : "after", .string(id))
  }

  /// One edit, mostly valid, drawn from every op of Protocol/README.md §5, weighted to keep the
  /// list between a few dozen and a few hundred items.
  private mutating func edit() -> JSONValue {
    let count = model.numberOfItems(includingHidden: true)
    let grow = count < 60 ? 3 : count > 300 ? 0 : 1
    let shrink = count > 300 ? 3 : 1
    let sectionCount = model.numberOfSections
    let weighted: [(Int, String)] = [
      (8 * grow, "appendItems"), (6 * grow, "insertItems"), (5 * grow, "appendChildren"),
      (7 * shrink, "deleteItems"), (12, "moveItem"), (6, "expand"), (5, "collapse"), (8, "updateItems"),
      (2, "reloadItems"), (2, "reconfigureItems"), (3, "replaceItems"), (6, "select"), (4, "deselect"),
      (1, "selectAll"), (1, "deselectAll"),
      (sectionCount < 3 ? 6 : sectionCount < 8 ? 1 : 0, "appendSections"),
      (sectionCount < 3 ? 4 : sectionCount < 8 ? 1 : 0, "insertSections"),
      (sectionCount > 8 ? 4 : sectionCount > 4 ? 2 : 0, "deleteSections"),
      (3, "moveSection"), (3, "updateSection"), (1, "reloadSections"), (1, "setColumns"),
      (1, "setEmptyState"), (1, "setEditing"),
    ]
    var pick = random.int(in: 0...(weighted.reduce(0) { $0 + $1.0 } - 1))
    var op = weighted[0].1
    for (weight, name) in weighted {
      if pick < weight {
        op = name
        break
      }
      pick -= weight
    }
    if random.int(in: 0...1999) == 0 { op = "deleteAllItems" }
    switch op {
    case "appendItems":
      var object: JSONObject = ["op": "appendItems", "items": newItems(1...3)]
      if random.chance(0.7) { object.append("section", .string(someSection())) }
      return .object(object)
    case "insertItems":
      let (key, id) = anchor(someItem())
      return .object(["op": "insertItems", "items": newItems(1...3), (key): id])
    case "appendChildren":
      return ["op": "appendChildren", "parent": .string(someItem()), "items": newItems(1...2)]
    case "deleteItems":
      return ["op": "deleteItems", "items": .array(Array(Set(someItems(1...3))))]
    case "moveItem":
      let item = someItem()
      switch random.int(in: 0...9) {
      case 0...5:
        let (key, id) = anchor(someItem())
        return .object(["op": "moveItem", "item": .string(item), (key): id])
      case 6...7: return ["op": "moveItem", "item": .string(item), "section": .string(someSection())]
      default: return ["op": "moveItem", "item": .string(item), "parent": .string(someItem())]
      }
    case "expand", "collapse":
      let all = items
      let withChildren = all.filter { model.hasChildren($0) }
      let id = random.element(withChildren) ?? someItem()
      var object: JSONObject = ["op": .string(op), "item": .string(id)]
      if random.chance(0.25) { object.append("recursive", true) }
      return .object(object)
    case "updateItems":
      let ids = Set(someItems(1...3).compactMap(\.stringValue))
      return [
        "op": "updateItems",
        "items": .array(
          ids.sorted().map { id in
            var object: JSONObject = ["id": .string(id)]
            payload(into: &object)
            return .object(object)
          }),
      ]
    case "reloadItems", "reconfigureItems":
      return ["op": .string(op), "items": .array(Array(Set(someItems(1...2))))]
    case "replaceItems":
      let section = someSection()
      var kept: [JSONValue] = model.rootItems(inSection: section).filter { _ in random.chance(0.7) }.map {
        id in
        var object: JSONObject = ["id": .string(id)]
        if let payload = model.payload(of: id), !random.chance(0.3) {
          if let text = payload.content.text { object.append("text", .string(text)) }
        } else {
          payload(into: &object)
        }
        return .object(object)
      }
      if let extra = newItems(0...2).arrayValue { kept += extra }
      return ["op": "replaceItems", "section": .string(section), "items": .array(random.shuffled(kept))]
    case "select", "deselect":
      let visible = model.itemIdentifiers
      let ids = (0..<random.int(in: 1...3)).compactMap { _ in random.element(visible) }
      return ["op": .string(op), "items": .array(Array(Set(ids)).sorted().map { .string($0) })]
    case "appendSections", "insertSections":
      let new: JSONValue = .array(
        (0..<random.int(in: 1...2)).map { _ in
          var object: JSONObject = ["id": .string(freshID("s"))]
          if random.chance(0.5) { object.append("header", .string("H\(counter)")) }
          if styledSections && random.chance(0.4) {
            object.append("kind", .string(random.element(["group", "card"])!))
          }
          if styledSections && random.chance(0.4) {
            object.append("headerMode", .string(random.element(["none", "firstItemInSection"])!))
          }
          if random.chance(0.7) { object.append("items", newItems(1...4)) }
          return .object(object)
        })
      if op == "appendSections" || sectionCount == 0 { return ["op": "appendSections", "sections": new] }
      let (key, id) = anchor(someSection())
      return .object(["op": "insertSections", "sections": new, (key): id])
    case "deleteSections":
      return ["op": "deleteSections", "sections": [.string(someSection())]]
    case "moveSection":
      let (key, id) = anchor(someSection())
      return .object(["op": "moveSection", "section": .string(someSection()), (key): id])
    case "updateSection":
      var object: JSONObject = ["op": "updateSection", "section": .string(someSection())]
      if random.chance(0.7) {
        object.append("header", random.chance(0.2) ? .null : .string("H\(random.int(in: 0...5))"))
      }
      if random.chance(0.5) {
        object.append("footer", random.chance(0.3) ? .null : .string("F\(random.int(in: 0...5))"))
      }
      if random.chance(0.3) { object.append("kind", random.chance(0.3) ? .null : "group") }
      if random.chance(0.3) {
        object.append(
          "headerMode",
          random.chance(0.25)
            ? .null : .string(random.element(["none", "supplementary", "firstItemInSection"])!))
      }
      return .object(object)
    case "reloadSections":
      return ["op": "reloadSections", "sections": [.string(someSection())]]
    case "setColumns":
      // Mostly a superset of the columns cells use; `[]` fails while any item has cells.
      let date: JSONValue = ["id": "date", "title": "Date", "width": 10.0]
      let choices: [JSONValue] = [
        Self.columns, .array((Self.columns.arrayValue ?? []) + [date]),
        .array((Self.columns.arrayValue ?? []).reversed()), [],
      ]
      return ["op": "setColumns", "columns": random.element(choices)!]
    case "setEmptyState":
      let states: [JSONValue] = [
        .null, ["title": "Nothing here"],
        ["title": "No files", "image": "folder", "description": "Add one."],
        ["kind": "search", "query": .string("q\(random.int(in: 0...2))")],
      ]
      return ["op": "setEmptyState", "emptyState": random.element(states)!]
    case "setEditing":
      return ["op": "setEditing", "editing": .bool(random.chance(0.5))]
    default:
      return .object(JSONObject([("op", .string(op))]))
    }
  }

  /// An edit that must fail the whole batch.
  private mutating func invalidEdit() -> JSONValue {
    switch random.int(in: 0...6) {
    case 0: return ["op": "deleteItems", "items": [.string(freshID("missing"))]]
    case 1:  // a duplicate id
      return [
        "op": "appendItems", "items": [["id": .string(random.element(items) ?? "x")]],
        "section": .string(someSection()),
      ]
    case 2:  // into its own subtree
      let all = items
      let id = random.element(all.filter { model.hasChildren($0) }) ?? someItem()
      return ["op": "moveItem", "item": .string(id), "parent": .string(model.children(of: id).first ?? id)]
    case 3: return ["op": "frobnicate"]
    case 4: return ["op": "select", "items": "everything"]
    case 5:
      return [
        "op": "insertSections", "sections": [["id": .string(freshID("s"))]], "before": "no-such-section",
      ]
    default: return ["op": "moveItem", "item": .string(someItem())]  // no anchor
    }
  }
}
