// The record and replay commands: a list's versions as a transcript, and that transcript played back.
import JSON
import JSONRPC
import ListClient

/// A recording that cannot be made as asked (exit 1).
struct RecordFailure: Error, CustomStringConvertible {
  let description: String
}

extension Command {
  static let record = Command(
    "record", "LIST [--from V] [--to W]",
    "Writes versions V to W of a list to stdout as a transcript that `replay` plays back.",
    details: """
      The transcript (the format of Protocol/examples/*.jsonl; Protocol/README.md, "Recordings")
      initializes, creates the list with its title, appearance, selection mode and content at V
      (and selects what was selected then), then makes each later version with a list/edit — the
      edits list/diff gives from the version before — each request followed by the answer it
      must get: the changeset of that version.
        --from V   the first version (default: the oldest one the daemon still keeps)
        --to W     the last version (default: the current one)
      Versions of the replayed list count from its creation: version v is version v − V there
      (v − V + 1 when items were selected at V: a select comes first).
      `listctl replay FILE [--into LIST]` applies it to a daemon and checks every answer.
      """,
    values: ["--from", "--to"], positionals: 1...1
  ) { context in
    let list = context.arguments.positionals[0]
    let client = context.client
    let info = try await client.info(list)
    let current = Int(info["version"]?.intValue ?? 0)
    let to = try context.arguments.version("--to") ?? current
    guard to <= current else {
      throw RecordFailure(description: "--to \(to) is newer than the version of list '\(list)', \(current)")
    }
    let from = try context.arguments.version("--from")
    if let from, from > current {
      throw RecordFailure(
        description: "--from \(from) is newer than the version of list '\(list)', \(current)")
    }
    if let from, from > to { throw UsageError("--from \(from) is after --to \(to)") }
    let start: ListContent
    do {
      start = try await client.content(list, atVersion: from ?? 0)
    } catch let error as ResponseError where error.code.rawValue == -32015 {
      guard let oldest = error.data?["oldestVersion"]?.intValue.map(Int.init) else { throw error }
      let kept = "list '\(list)' keeps versions \(oldest) to \(current) only"
      if let from {
        throw RecordFailure(description: "--from \(from): \(kept): record --from \(oldest) or later")
      }
      guard oldest <= to else { throw RecordFailure(description: "--to \(to): \(kept)") }
      start = try await client.content(list, atVersion: oldest)  // by default, the oldest kept
    }
    let first = start.version
    let counts = try await client.info(list, atVersion: first)
    let changes = try await versionDiffs(client, list, from: first, to: to)
    for line in Recording(list: list, info: info, start: start, counts: counts, changes: changes).lines {
      printJSON(line, compact: true)
    }
  }

  /// `list/diff` with `edits` for each version after `from` up to `to`, in order, a few requests
  /// in flight at a time.
  private static func versionDiffs(_ client: ListClient, _ list: String, from: Int, to: Int) async throws
    -> [VersionDiff]
  {
    var diffs: [VersionDiff] = []
    var next = from + 1
    while next <= to {
      let window = next...min(to, next + 15)
      let batch = try await withThrowingTaskGroup(of: VersionDiff.self) { group in
        for version in window {
          group.addTask { try await client.diff(list, from: version - 1, to: version, edits: true) }
        }
        var results: [VersionDiff] = []
        for try await diff in group { results.append(diff) }
        return results.sorted { $0.to < $1.to }
      }
      diffs += batch
      next = window.upperBound + 1
    }
    return diffs
  }

  static let replay = Command(
    "replay", "FILE [--into LIST]",
    "Applies a recording (`listctl record`) to a daemon and checks every answer.",
    details: """
      FILE is a transcript as `record` writes it. The replay creates the list — with --into LIST
      under that id instead of the recorded one, in every request and expected answer — then
      sends each change and checks its answer, stopping at the first mismatch: it prints
      FILE:LINE, what differs, the expected and the actual message to stderr (exit 1).
      Notifications about other lists are ignored, so it can run on a shared daemon; with
      --spawn it runs on a private one. On success it prints how many versions it replayed.
      """,
    values: ["--into"], positionals: 1...1, connects: false
  ) { context in
    let path = context.arguments.positionals[0]
    var steps = try readScript(path)
    let create = steps.lazy.compactMap { $0.value["send"] }.first { $0["method"] == "list/create" }
    guard let recorded = create?["params"]?["list"]?.stringValue else {
      throw UsageError("\(path) creates no list: not a recording (`listctl record LIST > FILE` makes one)")
    }
    let into = context.arguments.value("--into") ?? recorded
    guard !into.isEmpty else { throw UsageError("--into needs a list id") }
    if into != recorded {
      steps = steps.map { ($0.line, Recording.renamed($0.value, from: recorded, to: into)) }
    }
    // Open until the replay is done: the list/didCreate it causes reaches every session.
    let checker = context.endpoint.spawn == nil ? try await checkAbsent(into, context) : nil
    defer { checker?.close() }
    let session: RawSession
    do {
      session = try RawSession(context.endpoint, timeout: context.timeout)
    } catch {
      throw connectFailure(error, socket: context.endpoint.socket)
    }
    defer { session.close() }
    do {
      try check(steps, session, name: path) { $0["params"]?["list"]?.stringValue == into }
    } catch var mismatch as ScriptMismatch {
      if mismatch.actual?["error"]?["code"]?.intValue == -32013 {
        mismatch = ScriptMismatch(
          description: mismatch.description
            + "\n  (list '\(into)' exists on this daemon: replay under another id with --into LIST)")
      }
      throw mismatch
    }
    let versions = steps.filter { $0.value["send"]?["method"] == "list/edit" }.count
    print(
      "replayed \(path) into '\(into)': \(versions) version\(versions == 1 ? "" : "s") after its creation, every answer as recorded"
    )
  }
}

extension Command {
  /// Fails at once when the daemon has a list `id` already (the recording's create would fail,
  /// after the wait for its `list/didCreate`). Returns the client it asked with.
  fileprivate static func checkAbsent(_ id: String, _ context: Context) async throws -> ListClient {
    let client: ListClient
    do {
      client = try ListClient.socket(
        path: context.endpoint.socket ?? UnixSocket.defaultPath, requestTimeout: context.timeout)
      try await client.initialize(name: "listctl replay")
    } catch {
      throw connectFailure(error, socket: context.endpoint.socket)
    }
    do {
      _ = try await client.info(id)
    } catch let error as ResponseError where error.code.rawValue == -32010 {
      return client
    }
    client.close()
    throw RecordFailure(
      description: "list '\(id)' exists on this daemon: replay under another id with --into LIST")
  }
}

/// A recording's lines (Protocol/README.md, "Recordings").
struct Recording {
  let list: String
  /// The list's `list/info` now (title and appearance are not versioned).
  let info: JSONValue
  /// Its content at the first version.
  let start: ListContent
  /// Its `list/info` at the first version (the counts `list/didCreate` will carry).
  let counts: JSONValue
  /// `list/diff` with edits of each later version, in order.
  let changes: [VersionDiff]

  var lines: [JSONValue] {
    let first = start.version
    let last = changes.last?.to ?? first
    let shift = first - (start.selection.isEmpty ? 0 : 1)
    let numbering =
      shift == 0
      ? "versions keep their numbers there"
      : "version v is version v \(shift > 0 ? "−" : "+") \(abs(shift)) there"
    var lines: [JSONValue] = [
      [
        "comment": .string(
          "listctl record: list '\(list)', versions \(first) to \(last). `listctl replay FILE [--into LIST]` "
            + "replays it; \(numbering).")
      ]
    ]
    var id: Int64 = 0
    func request(_ method: String, _ params: JSONValue) -> JSONValue {
      id += 1
      return ["send": ["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params]]
    }
    func expect(_ result: JSONValue) -> JSONValue {
      ["expect": ["jsonrpc": "2.0", "id": .int(id), "result": result]]
    }
    func change(_ version: Int, _ changeset: JSONValue) -> JSONValue {
      expect(["list": .string(list), "version": .int(Int64(version)), "changeset": changeset])
    }
    lines.append(request("initialize", ["clientInfo": ["name": "listctl replay"]]))
    lines.append(
      expect([
        "serverInfo": ["name": "listd", "version": "*"],
        "protocolVersion": .int(Int64(ListClient.protocolVersion)), "session": "*", "capabilities": "*",
      ]))
    lines.append(["send": ["jsonrpc": "2.0", "method": "initialized", "params": [:]]])
    let title = info["title"] ?? .string(list)
    let appearance = info["appearance"] ?? "plain"
    let mode = JSONValue.string(start.selectionMode)
    var create: JSONObject = [
      "list": .string(list), "title": title, "appearance": appearance, "selectionMode": mode,
      "content": start.content,
    ]
    var created: JSONObject = [
      "list": .string(list), "title": title, "appearance": appearance, "selectionMode": mode,
      "version": 0,
      "sections": counts["sections"] ?? 0, "items": counts["items"] ?? 0, "rows": counts["rows"] ?? 0,
      "selected": 0, "owner": "*", "subscribers": "*",
    ]
    if !start.columns.isEmpty {  // a table
      create.append("columns", .array(start.columns))
      created.append("columns", .array(start.columns))
    }
    if let state = start.emptyState {
      create.append("emptyState", state)
      created.append("emptyState", state)
    }
    if start.isEditing {
      create.append("editing", true)
      created.append("editing", true)
    }
    lines.append(request("list/create", .object(create)))
    lines.append([
      "expectNotification": [
        "jsonrpc": "2.0", "method": "list/didCreate",
        "params": ["list": .string(list), "info": .object(created)],
      ]
    ])
    lines.append(expect(["list": .string(list), "version": 0, "changeset": "*"]))
    var version = 0
    let selection = JSONValue.array(start.selection.map(JSONValue.string))
    if !start.selection.isEmpty {
      version += 1
      lines.append(
        request("list/edit", ["list": .string(list), "edits": [["op": "select", "items": selection]]]))
      lines.append(change(version, ["selected": selection]))
    }
    for diff in changes {
      version += 1
      lines.append(request("list/edit", ["list": .string(list), "edits": .array(diff.edits ?? [])]))
      lines.append(change(version, diff.changeset))
    }
    return lines
  }

  /// A recording's line with the list id `from` replaced by `to` where it names the list: the
  /// `list` of a request's params, of an answer, and of a notification and its `info`.
  static func renamed(_ line: JSONValue, from: String, to: String) -> JSONValue {
    func rename(_ value: JSONValue?) -> JSONValue? {
      guard let value, value["list"] == .string(from) else { return value }
      return value.setting("list", .string(to))
    }
    var line = line
    if let send = line["send"], let params = rename(send["params"]) {
      line = line.setting("send", send.setting("params", params))
    }
    if let expect = line["expect"], let result = rename(expect["result"]) {
      line = line.setting("expect", expect.setting("result", result))
    }
    if let notification = line["expectNotification"], var params = rename(notification["params"]) {
      if let info = rename(params["info"]) { params = params.setting("info", info) }
      line = line.setting("expectNotification", notification.setting("params", params))
    }
    return line
  }
}
