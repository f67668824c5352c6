// The watch command: streams a list's changes, one line each.
import Foundation
import JSON
import ListClient

extension Command {
  static let watch = Command(
    "watch", "LIST [--json] [--count N]",
    "Streams a list's changes until it is disposed (or N changes arrived).",
    details: """
      One line per version: `v12  +3 'Alice' at 0:4 · −1 at 0:9 · ↕ 0:2→1:0 · ~ 'Bob'`
        +N 'text' at s:r   rows inserted          −N at s:r        rows deleted
        ↕ s:r→s:r          rows moved             ~ 'text'         rows reconfigured
        ⟳ 'text'           rows reloaded          +§ / −§ / ↕§ / ~§  sections inserted, deleted, moved, reloaded
        ✓ ids / ✗ ids      selected / deselected  ▾ ids / ▸ ids    expanded / collapsed
      With --json: each `list/didChange` params object as one JSON line.
      """,
    values: ["--count"], positionals: 1...1
  ) { context in
    let list = context.arguments.positionals[0]
    var remaining = try context.arguments.int("--count")
    if let count = remaining, count <= 0 { return }
    _ = try await context.client.subscribe(list, snapshot: "none")
    for await notification in context.client.notifications {
      guard notification.params["list"]?.stringValue == list else { continue }
      switch notification.method {
      case "list/didChange":
        if context.json {
          printJSON(notification.params, compact: true)
        } else {
          print(
            ChangeLine.describe(
              version: Int(notification.params["version"]?.intValue ?? 0),
              changeset: notification.params["changeset"] ?? [:]))
        }
        fflush(nil)  // each line as it happens, also into a pipe
        if let count = remaining {
          remaining = count - 1
          if count == 1 { return }
        }
      case "list/didDispose":
        if context.json {
          printJSON(["disposed": notification.params], compact: true)
        } else {
          print("v\(notification.params["version"]?.intValue ?? 0)  disposed")
        }
        return
      default:
        continue
      }
    }
    throw ConnectFailure("the connection closed")
  }
}
