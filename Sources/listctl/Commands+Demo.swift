// The demo command: a short scripted scenario against a private `listd --demo`.
import Foundation
import JSON
import JSONRPC
import ListClient

extension Command {
  static let demo = Command(
    "demo", "",
    "Starts listd --demo and runs a short scenario, printing each step and each change a viewer sees.",
    details: """
      Two sessions share a private daemon (a Unix socket in a fresh 0700 directory): an owner that
      creates and edits a list and answers owner/refresh, and a viewer subscribed to it. Steps:
      create, edit, move across sections, expand an outline, select, refresh. Each change the
      viewer receives is printed in the `watch` format.
      """,
    positionals: 0...0, connects: false
  ) { context in
    if context.endpoint.socket != nil || context.endpoint.spawn != nil {
      throw UsageError("demo starts its own daemon (no --socket or --spawn)")
    }
    let daemon = try DemoDaemon(timeout: context.timeout)
    defer { daemon.stop() }
    let owner: ListClient
    let viewer: ListClient
    do {
      owner = try ListClient.socket(path: daemon.socket, requestTimeout: context.timeout)
      viewer = try ListClient.socket(path: daemon.socket, requestTimeout: context.timeout)
      try await owner.initialize(name: "demo-owner")
      try await viewer.initialize(name: "demo-viewer")
    } catch {
      throw ConnectFailure("cannot connect to the demo daemon: \(error)")
    }
    defer {
      viewer.close()
      owner.close()
    }
    var scenario = DemoScenario(owner: owner, viewer: viewer, timeout: context.timeout)
    try await scenario.run()
  }
}

/// The scenario: each step is printed, then every change the viewer receives for it.
private struct DemoScenario {
  let owner: ListClient
  let viewer: ListClient
  /// The longest wait for an answer or for the viewer's next notification.
  let timeout: Duration
  let list = "tasks"
  /// The viewer's rows, to name the items of each change it sees.
  var mirror: Mirror?

  static let content: JSONValue = [
    "sections": [
      [
        "id": "todo", "header": "To do",
        "items": [
          ["id": "spec", "text": "Write the spec"],
          [
            "id": "release", "text": "Release 1.0",
            "children": [["id": "notes", "text": "Release notes"], ["id": "tag", "text": "Tag the build"]],
          ],
        ],
      ],
      ["id": "done", "header": "Done", "items": [["id": "idea", "text": "Have an idea"]]],
    ]
  ]

  func step(_ text: String) {
    print("\n▶ " + text)
    fflush(nil)
  }

  /// Prints the viewer's `didChange` notifications up to `version`, naming items from its mirror.
  mutating func changes(upTo version: Int) async throws {
    let (viewer, list, timeout) = (self.viewer, self.list, self.timeout)
    mirror = try await withIdleTimeout(
      timeout, failure: { NoAnswer("the viewer saw no change within \(seconds(timeout))") }
    ) { [mirror] liveness in
      var mirror = mirror
      for await notification in viewer.notifications {
        liveness.touch()
        guard notification.params["list"]?.stringValue == list else { continue }
        switch notification.method {
        case "list/didChange":
          let params = notification.params
          let seen = Int(params["version"]?.intValue ?? 0)
          print(
            "  viewer sees  "
              + ChangeLine.describe(version: seen, changeset: params["changeset"] ?? [:], before: mirror))
          fflush(nil)
          if mirror != nil, (try? mirror?.apply(didChange: params)) == nil { mirror = nil }
          if seen >= version { return mirror }
        case "list/didDispose":
          print("  viewer sees  v\(notification.params["version"]?.intValue ?? 0)  disposed")
          return mirror
        default:
          continue
        }
      }
      throw ConnectFailure("the viewer's connection closed")
    }
  }

  mutating func run() async throws {
    let lists = try await viewer.all().compactMap { $0["list"]?.stringValue }
    step("the daemon serves the demo lists: \(lists.joined(separator: ", "))")

    let owner = owner
    let list = list
    owner.connection.onRequestDeferred("owner/refresh") { request in
      print("  owner is asked to refresh; it reloads, then answers")
      fflush(nil)
      owner.connection.sendRequest(
        "list/edit",
        [
          "list": .string(list),
          "edits": [
            ["op": "appendItems", "section": "todo", "items": [["id": "fresh", "text": "Fetched item"]]]
          ],
        ]
      ) { result in
        if case .failure(let error) = result {
          _ = request.respond(error: ResponseError(.internalError, "the refresh failed: \(error)"))
        } else {
          _ = request.respond(["refreshed": true])
        }
      }
    }

    step("owner creates '\(list)' (two sections, one outline item)")
    let created = try await owner.create(
      list, title: "Tasks", selectionMode: "multiple", content: Self.content)
    print("  owner gets   " + ChangeLine.describe(version: created.version, changeset: created.changeset))

    step("viewer subscribes")
    if let entry = try await viewer.subscribe(list).first {
      for line in TreeRenderer.render(entry).split(separator: "\n") { print("  " + line) }
      mirror = try? Mirror(subscribed: entry)
    }

    step("owner edits: renames 'spec', appends 'Write the code'")
    var change = try await owner.edit(
      list,
      [
        ["op": "updateItems", "items": [["id": "spec", "text": "Write the spec (draft 2)"]]],
        ["op": "appendItems", "section": "todo", "items": [["id": "code", "text": "Write the code"]]],
      ])
    try await changes(upTo: change.version)

    step("owner moves 'spec' across sections, from To do to Done")
    change = try await owner.edit(list, [["op": "moveItem", "item": "spec", "section": "done"]])
    try await changes(upTo: change.version)

    step("viewer expands the outline item 'release'")
    change = try await viewer.expand(list, item: "release")
    try await changes(upTo: change.version)

    step("viewer selects 'notes' and 'code'")
    change = try await viewer.select(list, ["notes", "code"])
    try await changes(upTo: change.version)

    try await inspect(list)

    step("viewer asks for a refresh (event/refresh → owner/refresh)")
    let refreshed = try await viewer.call("event/refresh", ["list": .string(list), "timeoutMs": 5000])
    try await changes(upTo: Int(refreshed["version"]?.intValue ?? 0))
    print("  viewer's refresh answered at v\(refreshed["version"]?.intValue ?? 0)")

    step("the list now")
    if let entry = try await viewer.subscribe(list, snapshot: "full").first {
      for line in TreeRenderer.render(entry).split(separator: "\n") { print("  " + line) }
    }

    step("owner disposes '\(list)'")
    let version = try await owner.dispose(list)
    try await changes(upTo: version + 1)
    print("\ndone")
  }

  /// The inspector: a preview with its explanation (nothing committed), why a row last changed,
  /// and what UIKit would say of a batch update that does not add up.
  func inspect(_ list: String) async throws {
    step("inspector: what would deleting 'notes' do? (diff/preview, explained; nothing is committed)")
    let preview = try await owner.preview(
      list, edits: [["op": "deleteItems", "items": ["notes"]]], explain: true)
    print(
      "  would make  "
        + ChangeLine.describe(version: preview.version, changeset: preview.changeset, before: mirror))
    for line in preview.explain.map({ ExplainLine.lines($0, changeset: preview.changeset, before: mirror) })
      ?? []
    {
      print("    " + line)
    }

    step("inspector: why did 'spec' last change? (list/explain)")
    if case .change(let change, _) = try await viewer.explain(list, item: "spec"),
      let explanation = change.explain
    {
      print("  v\(change.version)  \(ExplainLine.source(explanation.source))")
      for line in ExplainLine.lines(explanation, changeset: change.changeset) { print("    " + line) }
    }

    step("inspector: would UIKit accept inserting a row into section 0 of [3, 1] that stays [3, 1]?")
    let check = try await viewer.checkBatchUpdate(
      before: [3, 1], update: ["insertItems": [[0, 3]]], after: [3, 1])
    for problem in check.problems { print("  " + problem.message) }
  }
}

/// `listd --demo --listen DIR/s --stay` in a fresh private directory (`swift run listctl demo`
/// builds listd along with listctl: listctl depends on it in Package.swift).
private final class DemoDaemon {
  let directory: String
  let socket: String
  private let process = Process()
  private let stdin = Pipe()

  /// Starts the daemon and waits at most `timeout` for its socket.
  init(timeout: Duration) throws {
    var template = Array("/tmp/listctl-demo-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw ConnectFailure("cannot make a directory in /tmp: \(String(cString: strerror(errno)))")
    }
    directory = String(cString: made)
    socket = directory + "/s"
    let listd = try Listctl.listdPath()
    process.executableURL = URL(fileURLWithPath: listd)
    process.arguments = ["--demo", "--listen", socket, "--stay", "--log-level", "warning"]
    process.standardInput = stdin
    // Its stdio session's messages (daemon/stopping at the end) are not the demo's output.
    process.standardOutput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw ConnectFailure("cannot start listd: \(error)")
    }
    let deadline = ContinuousClock.now + timeout
    while !FileManager.default.fileExists(atPath: socket) && ContinuousClock.now < deadline
      && process.isRunning
    {
      usleep(5_000)
    }
    guard FileManager.default.fileExists(atPath: socket) else {
      stop()
      throw ConnectFailure("listd --demo did not start listening on \(socket)")
    }
  }

  func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: directory)
  }
}
