// The watch command: streams a list's changes, one line each.
import Foundation
import JSON
import ListClient

extension Command {
  static let watch = Command(
    "watch", "LIST [--json] [--ready] [--count N]",
    "Streams a list's changes until it is disposed (or N changes arrived).",
    details: """
      The first line, printed once subscribed (so a script can wait for it before changing the
      list), is `watching LIST at version N`. Then one line per version, naming the items:
        v12  +2 'Alice', 'Bob' at 0:4 · −1 'Carol' at 0:9 · ↕ 'Dave' 0:2→1:0 · ~ 'Eve'
        +N 'a', 'b' at s:r   rows inserted        −N 'a' at s:r     rows deleted (or hidden)
        ↕ 'a' s:r→s:r        rows moved           ~ 'a' / ⟳ 'a'     rows reconfigured / reloaded
        +§ 'id' at i with 'a'  section inserted with its rows       −§ 'id'  section deleted
        ↕§ 'id' i→j / ~§ 'id'  section moved / reloaded
        ✓ ids / ✗ ids        selected / deselected  ▾ ids / ▸ ids  expanded / collapsed
      The first three names of a run are shown, then `…`. Lists of more than \(ChangePrinter.namingLimit) rows show
      deleted and moved rows as index paths only. The last line is `vN  disposed`.
      With --json: each `list/didChange` params object as one JSON line, the last one
      {"disposed": {list, version}}; --ready first prints {"watching": {list, version}}.
      Waits for changes without a limit, unless --timeout SECONDS is given: then it fails (exit 3)
      when no change came for that long.
      """,
    values: ["--count"], switches: ["--ready"], positionals: 1...1
  ) { context in
    let list = context.arguments.positionals[0]
    let remaining = try context.arguments.int("--count")
    if let count = remaining, count <= 0 { return }
    let client = context.client
    let json = context.json
    let mirror = json ? nil : await ChangePrinter.mirror(client, list)
    let version: Int
    if let mirror {
      version = mirror.version
    } else {
      version = Int(try await client.subscribe(list, snapshot: "none").first?["version"]?.intValue ?? 0)
    }
    if !json {
      print("watching \(list) at version \(version)")
    } else if context.arguments.has("--ready") {
      printJSON(["watching": ["list": .string(list), "version": .int(Int64(version))]], compact: true)
    }
    fflush(nil)
    let idle = context.idleTimeout
    try await withIdleTimeout(
      idle, failure: { NoAnswer("watch: no change to '\(list)' within \(idle.map(seconds) ?? "")") }
    ) { [mirror, remaining] liveness in
      var mirror = mirror
      var remaining = remaining
      for await notification in client.notifications {
        guard notification.params["list"]?.stringValue == list else { continue }
        switch notification.method {
        case "list/didChange":
          liveness.touch()
          let params = notification.params
          if json {
            printJSON(params, compact: true)
          } else {
            let version = Int(params["version"]?.intValue ?? 0)
            print(
              ChangeLine.describe(version: version, changeset: params["changeset"] ?? [:], before: mirror))
            // A mirror that no longer fits (it cannot, short of a daemon bug) stops naming.
            if mirror != nil, (try? mirror?.apply(didChange: params)) == nil { mirror = nil }
          }
          fflush(nil)  // each line as it happens, also into a pipe
          if let count = remaining {
            remaining = count - 1
            if count == 1 { return }
          }
        case "list/didDispose":
          if json {
            printJSON(["disposed": notification.params], compact: true)
          } else {
            print("v\(notification.params["version"]?.intValue ?? 0)  disposed")
          }
          return
        default:
          continue
        }
      }
      throw ConnectFailure("the daemon closed the connection (it stopped, or dropped this client)")
    }
  }
}
