// End-to-end tests of a clean stop: every request read before SIGTERM, SIGINT, exit or stdin closing is answered, nothing read after is executed.
import Foundation
import JSON
import JSONRPC
import SeededRandom
import XCTest

/// Pipelined bursts of changes on stdio and on several sockets, cut by a stop at a random moment:
/// each session's answers must be a prefix of what it sent (results, then `-32019` refusals),
/// followed by `daemon/stopping`; the versions answered per list must be consecutive, and a
/// subscriber must have seen exactly the changes that were answered, each as answered.
final class CleanStopTests: XCTestCase {
  enum Stop: CustomStringConvertible {
    case signal(Int32)
    /// `shutdown` then `exit`, pipelined on stdio behind its burst.
    case shutdownAndExit
    /// stdin closed (the daemon was started without `--stay`).
    case endOfInput

    var description: String {
      switch self {
      case .signal(SIGTERM): return "SIGTERM"
      case .signal(SIGINT): return "SIGINT"
      case .signal(let number): return "signal \(number)"
      case .shutdownAndExit: return "shutdown+exit"
      case .endOfInput: return "stdin closed"
      }
    }
  }

  override func setUp() {
    signal(SIGPIPE, SIG_IGN)  // a burst written to a daemon that stopped fails with EPIPE instead
  }

  func testEveryRequestReadBeforeAStopIsAnsweredAndNoAnswerIsLost() throws {
    let environment = ProcessInfo.processInfo.environment
    let seed = environment["LISTD_STOP_SEED"].flatMap(UInt64.init) ?? 3311
    let rounds = environment["LISTD_STOP_ROUNDS"].flatMap(Int.init) ?? 12
    print("CleanStopTests: seed \(seed) (LISTD_STOP_SEED=\(seed) replays it), \(rounds) rounds")
    var random = SplitMix64(seed: seed)
    let stops: [Stop] = [.signal(SIGTERM), .signal(SIGINT), .shutdownAndExit, .endOfInput]
    let tally = Tally()
    for round in 0..<rounds {
      var scenario = Scenario(stop: stops[round % stops.count], random: &random)
      scenario.label = "seed \(seed) round \(round) (\(scenario))"
      scenario.tally = tally
      try scenario.run()
      if testRun?.failureCount ?? 0 > 0 { return }  // one failing round says enough
    }
    print(
      "CleanStopTests: \(tally.executed) requests executed and answered, \(tally.refused) read after a stop "
        + "and refused, \(tally.unread) never read")
  }

  /// A session that stops reading its answers does not hold the stop up for longer than the
  /// flush timeout, and the sessions that read still get every answer.
  func testAClientThatDoesNotReadCannotHoldTheStopUp() throws {
    var random = SplitMix64(seed: 7)
    var scenario = Scenario(stop: .signal(SIGTERM), random: &random)
    scenario.bursts = [500, 500]
    scenario.latecomers = false
    scenario.stay = false
    scenario.silentPayload = String(repeating: "x", count: 4096)  // answers far beyond the socket's buffers
    scenario.label = "a session that does not read"
    try scenario.run()
  }
}

/// One daemon, a subscriber, sessions that pipeline bursts, and a stop.
private struct Scenario: CustomStringConvertible {
  let stop: CleanStopTests.Stop
  var random: SplitMix64
  /// The burst of each socket session (and of stdio, last, unless its input is closed).
  var bursts: [Int]
  /// `--stay`; with a signal, stdin is closed before the bursts (the daemon serves on).
  var stay: Bool
  var closesStdinFirst: Bool {
    if case .signal = stop { return stay }
    return false
  }
  /// Sessions connecting one after another while the burst runs, each sending one change.
  var latecomers: Bool
  /// Microseconds between the start of the bursts and the signal, or stdin closing.
  var delay: Int
  /// When set, one more session sends 200 changes with this text and never reads an answer.
  var silentPayload: String?
  var label = ""
  /// What the rounds' requests came to, over the whole test.
  var tally = Tally()
  static let lists = ["l0", "l1", "l2"]

  init(stop: CleanStopTests.Stop, random: inout SplitMix64) {
    self.stop = stop
    self.random = SplitMix64(seed: random.next())
    let large = random.chance(0.5)
    bursts = (0..<3).map { _ in large ? 500 : 16 }
    if case .endOfInput = stop { stay = false } else { stay = random.chance(0.3) }
    latecomers = random.chance(0.5)
    delay = random.int(0..<(large ? 20_000 : 3_000))
  }

  var description: String {
    "\(stop), bursts \(bursts)\(stay ? ", --stay" : "")\(closesStdinFirst ? " with stdin closed" : "")"
      + "\(latecomers ? ", latecomers" : ""), stop after \(delay) µs"
  }

  mutating func run() throws {
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let path = directory.file("listd.sock")
    let daemon = try DaemonProcess.listening(
      on: path, (stay ? ["--stay"] : []) + ["--log-level", "warning"])
    defer { daemon.stop() }

    let stdio = PipeliningClient(daemon)
    try stdio.call(id: 1, "initialize", [:])
    for (index, list) in Self.lists.enumerated() {
      try stdio.call(
        id: 2 + index, "list/create", ["list": .string(list), "content": ["sections": [["id": "s"]]]])
    }
    guard let subscriber = PipeliningClient.socket(path, name: "subscriber") else {
      throw TestFailure("\(label): cannot connect")
    }
    try subscriber.call(id: 1, "initialize", [:])
    try subscriber.call(id: 2, "list/subscribe", ["snapshot": "none"])

    var senders: [Sender] = []
    for (index, count) in bursts.enumerated() {
      guard let client = PipeliningClient.socket(path, name: "socket\(index)") else {
        throw TestFailure("\(label): cannot connect")
      }
      try client.call(id: 1, "initialize", [:])
      senders.append(Sender(client: client, requests: edits(count, session: "socket\(index)")))
    }
    // A session that never reads: its answers fill the socket's buffers and wait in the daemon.
    var silent: Int32 = -1
    defer { if silent >= 0 { close(silent) } }
    if let payload = silentPayload {
      try stdio.call(id: 9, "list/create", ["list": "quiet", "content": ["sections": [["id": "s"]]]])
      silent = try UnixSocket.connect(to: path)
      let writer = PipeliningClient.Writer(fd: silent)
      writer.write(PipeliningClient.frame(id: 1, "initialize", [:]))
      for index in 0..<200 {
        let item: JSONValue = ["id": .string("silent-\(index)"), "text": .string(payload)]
        writer.write(
          PipeliningClient.frame(
            id: 100 + index, "list/edit",
            ["list": "quiet", "edits": [["op": "appendItems", "items": [item]]]]))
      }
    }
    if closesStdinFirst {
      daemon.closeInput()  // stdout stays open until the daemon exits: the stdio session is done
    } else if case .endOfInput = stop {
      // stdio only closes its input, which stops the daemon.
    } else {
      var requests = edits(bursts.count > 0 ? random.element(bursts)! : 16, session: "stdio")
      if case .shutdownAndExit = stop {
        requests.append((99_999, PipeliningClient.frame(id: 99_999, "shutdown")))
        requests.append((nil, PipeliningClient.notificationFrame("exit")))
      }
      senders.append(Sender(client: stdio, requests: requests))
    }

    // Go: every sender writes its burst in chunks of random sizes, latecomers connect, and the stop comes.
    let group = DispatchGroup()
    for sender in senders {
      let seed = random.next()
      DispatchQueue.global().async(group: group) { sender.send(seed: seed) }
    }
    let late = Latecomers(path: path)
    if latecomers { DispatchQueue.global().async(group: group) { late.run() } }
    switch stop {
    case .signal(let number):
      usleep(UInt32(delay))
      daemon.send(signal: number)
    case .endOfInput:
      usleep(UInt32(delay))
      daemon.closeInput()
    case .shutdownAndExit: break
    }
    if silentPayload != nil {
      // The stop now waits (up to 5 s) for a peer that does not read; the listener is already gone.
      XCTAssertTrue(waitUntil { fileStatus(path) == nil }, "\(label): the socket is still there")
      XCTAssertThrowsError(try UnixSocket.connect(to: path), "\(label): a connection during the stop")
      XCTAssertTrue(daemon.process.isRunning, "\(label): the stop did not wait for the silent session")
    }
    let status = daemon.exitStatusKillingAfter(30)
    late.finish()
    XCTAssertEqual(group.wait(timeout: .now() + 30), .success, "\(label): a sender is still writing")
    XCTAssertEqual(status, 0, "\(label): exit status; stderr: \(daemon.standardError())")
    XCTAssertNil(fileStatus(path), "\(label): the socket was not removed")
    if silentPayload != nil {
      let log = daemon.standardError()
      XCTAssertTrue(log.contains("output not flushed"), "\(label): the flush did not time out: \(log)")
    }
    for client in [subscriber] + senders.map(\.client) + late.clients {
      XCTAssertTrue(client.waitForEndOfFile(), "\(label): \(client.name) was not disconnected")
      XCTAssertEqual(client.malformed, [], "\(label): \(client.name)")
    }
    check(senders: senders, latecomers: late.clients, subscriber: subscriber)
  }

  /// `count` pipelined `list/edit`s, each appending an item named after the session and its
  /// index to a random list.
  private mutating func edits(_ count: Int, session: String) -> [(Int?, [UInt8])] {
    (0..<count).map { index in
      let list = random.element(Self.lists)!
      let item = "\(session)-\(index)"
      return (
        100 + index,
        PipeliningClient.frame(
          id: 100 + index, "list/edit",
          ["list": .string(list), "edits": [["op": "appendItems", "items": [["id": .string(item)]]]]])
      )
    }
  }

  /// Every session's answers against what it sent, and every answered change against the
  /// subscriber's notifications. Reports the first problems found, in one failure.
  private func check(senders: [Sender], latecomers: [PipeliningClient], subscriber: PipeliningClient) {
    var problems: [String] = []
    /// Problems with the last message, reported after the others.
    var endings: [String] = []
    func expect(_ condition: Bool, _ problem: @autoclosure () -> String) {
      if !condition { problems.append(problem()) }
    }
    /// (list, version) → the item the answer's request appended, and the changeset answered.
    var answered: [String: [Int64: (item: String, changeset: JSONValue)]] = [:]
    func record(_ result: JSONValue, item: String, in session: String) {
      guard let list = result["list"]?.stringValue, let version = result["version"]?.intValue,
        let changeset = result["changeset"]
      else {
        return problems.append("\(session): a list/edit result without list, version or changeset: \(result)")
      }
      expect(
        answered[list, default: [:]][version] == nil, "\(session): \(list) v\(version) was answered twice")
      answered[list, default: [:]][version] = (item, changeset)
    }

    for sender in senders {
      let session = sender.client.name
      let messages = sender.client.received
      let (written, stopsDaemon) = sender.outcome
      var responses: [Int64: [JSONValue]] = [:]
      for message in messages where message["method"] == nil {
        guard let id = message["id"]?.intValue else {
          problems.append("\(session): an answer without an id: \(message)")
          continue
        }
        responses[id, default: []].append(message)
      }
      // Answers: a prefix of the requests written (no answer lost behind one given), each once;
      // results first, then refusals (nothing is executed once the stop has begun).
      var firstUnanswered: Int?
      var firstRefused: Int?
      for (index, request) in sender.requests.enumerated() {
        guard let id = request.id else { continue }
        let answers = responses.removeValue(forKey: Int64(id)) ?? []
        expect(answers.count <= 1, "\(session): request \(id) answered \(answers.count) times")
        guard let answer = answers.first else {
          if firstUnanswered == nil { firstUnanswered = id }
          tally.unread += 1
          continue
        }
        expect(index < written, "\(session): request \(id) was answered but never fully written")
        if let unanswered = firstUnanswered {
          problems.append(
            "\(session): request \(id) was answered, but not request \(unanswered) sent before it: an answer was lost"
          )
        }
        if let error = answer["error"] {
          if firstRefused == nil { firstRefused = id }
          tally.refused += 1
          problems += ProtocolSpec.shared.checkError(
            id == 99_999 ? "shutdown" : "list/edit", code: Int(error["code"]?.intValue ?? 0),
            message: error["message"]?.stringValue ?? "")
          expect(
            error["code"] == -32019
              && (error["message"]?.stringValue?.contains("'list/edit'") ?? false || id == 99_999),
            "\(session): request \(id): not a refusal naming the method: \(brief(answer))")
        } else if id == 99_999 {
          expect(answer["result"] == .null, "\(session): shutdown answered \(brief(answer))")
        } else {
          if let refused = firstRefused {
            problems.append(
              "\(session): request \(id) was executed after request \(refused), sent before it, was refused")
          }
          record(answer["result"] ?? .null, item: "\(session)-\(id - 100)", in: session)
          tally.executed += 1
        }
      }
      let unsent = responses.keys.filter { $0 >= 100 }.sorted()  // below 100: the setup's requests
      expect(unsent.isEmpty, "\(session): answers to requests never sent: \(unsent)")
      // The last message: daemon/stopping, unless this session's own exit stopped the daemon.
      let last = messages.last
      if stopsDaemon {
        expect(
          firstUnanswered == nil, "\(session): request \(firstUnanswered ?? 0) before exit was not answered")
        if last?["method"] == "daemon/stopping" {
          endings.append("\(session) sent exit itself, yet got daemon/stopping")
        }
      } else if last?["method"] != "daemon/stopping" {
        endings.append("\(session): the last message is \(brief(last))")
      }
    }

    // Latecomers: `initialize` then one change each; whatever they got, a prefix, and each change
    // answered is one more version.
    for client in latecomers {
      let messages = client.received
      let initialize = messages.first { $0["id"] == 1 }
      let change = messages.first { $0["id"] == 2 }
      expect(
        change == nil || initialize != nil,
        "\(client.name): the change was answered, not initialize before it")
      if let result = change?["result"] {
        record(result, item: client.name, in: client.name)
      } else if let change {
        expect(change["error"]?["code"] == -32019, "\(client.name): \(brief(change))")
      }
      if !messages.isEmpty && messages.last?["method"] != "daemon/stopping" {
        endings.append("\(client.name): the last message is \(brief(messages.last))")
      }
    }

    // The subscriber saw every version of each list once, in order, and exactly those answered.
    var seen: [String: [Int64]] = [:]
    for message in subscriber.received where message["method"] == "list/didChange" {
      guard let params = message["params"], let list = params["list"]?.stringValue,
        let version = params["version"]?.intValue
      else { continue }
      guard Self.lists.contains(list) else { continue }  // the silent session's list: its answers are unread
      seen[list, default: []].append(version)
      guard let answer = answered[list]?[version] else {
        problems.append("\(list) v\(version) was committed (the subscriber saw it) but never answered")
        continue
      }
      expect(params["changeset"] == answer.changeset, "\(list) v\(version): the changesets differ")
      let inserted = params["changeset"]?["itemInserts"]?[0]?["rows"]?[0]?["id"]?.stringValue
      expect(
        inserted == answer.item, "\(list) v\(version) inserted \(inserted ?? "nothing"), not \(answer.item)")
    }
    let last = subscriber.received.last
    if last?["method"] != "daemon/stopping" {
      endings.append("subscriber: the last message is \(brief(last))")
    }
    for list in Self.lists {
      let versions = seen[list] ?? []
      expect(
        versions == (0..<versions.count).map { Int64($0 + 1) },
        "\(list): the subscriber's versions are not consecutive from 1: \(versions)")
      let answeredVersions = (answered[list] ?? [:]).keys.sorted()
      expect(
        answeredVersions == versions,
        "\(list): versions answered \(compact(answeredVersions)) ≠ versions committed \(compact(versions))")
    }
    // Every daemon/stopping names the stop, as the schema says.
    let reason: JSONValue
    switch stop {
    case .signal(let number): reason = number == SIGINT ? "SIGINT" : "SIGTERM"
    case .shutdownAndExit: reason = "exit"
    case .endOfInput: reason = "endOfInput"
    }
    for client in [subscriber] + senders.map(\.client) + latecomers {
      for message in client.received where message["method"] == "daemon/stopping" {
        expect(message["params"]?["reason"] == reason, "\(client.name): \(brief(message))")
        problems += ProtocolSpec.shared.checkParams("daemon/stopping", message["params"])
      }
    }
    problems += endings
    if !problems.isEmpty {
      XCTFail(
        "\(label): \(problems.count) problems:\n  " + problems.prefix(12).joined(separator: "\n  ")
          + (problems.count > 12 ? "\n  …" : ""))
    }
  }

  /// A message in one short line.
  private func brief(_ message: JSONValue?) -> String {
    String((message?.jsonString(prettyPrinted: false) ?? "nothing").prefix(160))
  }

  /// Versions as runs: `1-40, 42`.
  private func compact(_ versions: [Int64]) -> String {
    var runs: [String] = []
    var start: Int64?
    var previous: Int64 = 0
    for version in versions + [-1] {
      if let first = start, version != previous + 1 {
        runs.append(first == previous ? "\(first)" : "\(first)-\(previous)")
        start = nil
      }
      if start == nil { start = version }
      previous = version
    }
    return "[" + runs.joined(separator: ", ") + "]"
  }
}

/// Counts of requests over the rounds of a test.
private final class Tally {
  var executed = 0
  var refused = 0
  var unread = 0
}

/// A session's burst: written in chunks from a thread of its own until done or refused.
private final class Sender: @unchecked Sendable {
  // `@unchecked Sendable`: `written` is set by the sending thread before the test reads it
  // (after the dispatch group's wait).
  let client: PipeliningClient
  let requests: [(id: Int?, frame: [UInt8])]
  private let lock = NSLock()
  private var written = 0

  init(client: PipeliningClient, requests: [(Int?, [UInt8])]) {
    self.client = client
    self.requests = requests.map { (id: $0.0, frame: $0.1) }
  }

  /// How many requests were written in full, and whether this session's `exit` went out.
  var outcome: (written: Int, stopsDaemon: Bool) {
    lock.withLock { (written, written == requests.count && requests.last?.id == nil) }
  }

  func send(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var next = 0
    while next < requests.count {
      let end = min(requests.count, next + random.int(in: 1...64))
      guard client.write(requests[next..<end].flatMap(\.frame)) else { return }
      lock.withLock { written = end }
      next = end
      if random.chance(0.3) { usleep(UInt32(random.int(0..<300))) }
    }
  }
}

/// Sessions that keep connecting, each sending `initialize` and one change, until the socket is gone.
private final class Latecomers: @unchecked Sendable {
  // `@unchecked Sendable`: `connected` and `finished` are behind `lock`.
  let path: String
  private let lock = NSLock()
  private var connected: [PipeliningClient] = []
  private var finished = false

  init(path: String) { self.path = path }

  var clients: [PipeliningClient] { lock.withLock { connected } }

  func finish() { lock.withLock { finished = true } }

  func run() {
    for index in 0..<200 {
      if lock.withLock({ finished }) { return }
      guard let client = PipeliningClient.socket(path, name: "late\(index)") else { return }
      lock.withLock { connected.append(client) }
      let frames =
        PipeliningClient.frame(id: 1, "initialize", [:])
        + PipeliningClient.frame(
          id: 2, "list/edit",
          ["list": "l1", "edits": [["op": "appendItems", "items": [["id": .string("late\(index)")]]]]])
      client.write(frames)
      usleep(500)
    }
  }
}
