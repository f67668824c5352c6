// Printing a mutation's answer: one change line that names its items, from the rows just before,
// and with an explanation one line per cause.
import JSON
import ListClient

/// How mutation commands (apply, edit, select, deselect, expand, collapse) print their answer.
enum ChangePrinter {
  /// Lists with more visible rows are not mirrored: their lines show deletes and moves as
  /// index paths only, instead of fetching a large snapshot to name them.
  static let namingLimit = 20_000

  /// Runs `mutate` on `list` and prints its answer: as JSON with `--json`, else with
  /// ``print(_:before:prefix:)``. The line names deleted and moved rows from a mirror of the list
  /// taken just before (a full subscription; its notifications bring it up to the version before
  /// the change).
  static func run(_ context: Context, list: String, _ mutate: () async throws -> Change) async throws {
    guard !context.json else { return printChange(try await mutate(), context) }
    let mirror = await mirror(context.client, list)
    let change = try await mutate()
    var before: Mirror?
    if let mirror { before = try? await advance(mirror, toJustBefore: change, context) }
    print(change, before: before)
  }

  /// Prints the change line of `change` after `prefix`, then, when it carries an explanation,
  /// one indented line per cause. `before` holds the rows before the change (nil: deletes and
  /// moves show index paths, and runs of them their first id).
  static func print(_ change: Change, before: Mirror?, prefix: String = "") {
    Swift.print(
      prefix + ChangeLine.describe(version: change.version, changeset: change.changeset, before: before))
    guard let explain = change.explain else { return }
    for line in ExplainLine.lines(explain, changeset: change.changeset, before: before) {
      Swift.print("  " + line)
    }
  }

  /// A mirror of `list`, or nil when it has more than ``namingLimit`` rows or cannot be had
  /// (the mutation then reports why, if the list does not exist).
  static func mirror(_ client: ListClient, _ list: String) async -> Mirror? {
    guard let info = try? await client.info(list), let rows = info["rows"]?.intValue, rows <= namingLimit
    else { return nil }
    return try? await client.mirror(list)
  }

  /// `mirror` brought to the version just before `change` by the notifications it receives.
  private static func advance(_ mirror: Mirror, toJustBefore change: Change, _ context: Context) async throws
    -> Mirror
  {
    if change.version <= mirror.version { return mirror }
    let client = context.client
    return try await withIdleTimeout(
      context.timeout, failure: { NoAnswer("no list/didChange for version \(change.version)") }
    ) { liveness in
      var mirror = mirror
      for await notification in client.notifications {
        liveness.touch()
        guard notification.method == "list/didChange",
          notification.params["list"]?.stringValue == change.list,
          let version = notification.params["version"]?.intValue.map(Int.init), version > mirror.version
        else { continue }
        if version == change.version { return mirror }
        try mirror.apply(didChange: notification.params)
      }
      throw ConnectFailure("the daemon closed the connection (it stopped, or dropped this client)")
    }
  }
}
