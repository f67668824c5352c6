// The list commands: lists, create, dispose, show.
import JSON
import ListClient

extension Command {
  static let lists = Command(
    "lists", "[--json | --ids]", "Lists every list: id, version, rows, title.",
    details: """
        --ids   only the ids, one a line (what the shell completions read)
      """,
    switches: ["--ids"], positionals: 0...0
  ) {
    context in
    if context.json { return printJSON(["lists": .array(try await context.client.all())]) }
    let ids = context.arguments.has("--ids")
    // Page by page: the lines of each page are printed before the next is asked for.
    try await context.client.forEachPage { page in
      for info in page {
        let id = info["list"]?.stringValue ?? "?"
        if ids {
          print(id)
          continue
        }
        let version = info["version"]?.intValue ?? 0
        let rows = info["rows"]?.intValue ?? 0
        let title = info["title"]?.stringValue ?? id
        print("\(id)  v\(version)  \(rows) rows  \(info["appearance"]?.stringValue ?? "")  '\(title)'")
      }
    }
  }

  static let create = Command(
    "create", "LIST [--title T] [--appearance A] [--selection-mode M] [--content FILE|-]",
    "Creates a list (owned by this connection's session; with --spawn it lives only as long as the command).",
    details: """
        --title T            the title (default: the id)
        --appearance A       plain, grouped, insetGrouped, sidebar, sidebarPlain
        --selection-mode M   none, single, multiple
        --content FILE|-     initial content {"sections": […]} from a JSON file or stdin
      """,
    values: ["--title", "--appearance", "--selection-mode", "--content"], positionals: 1...1,
    input: { try $0.value("--content").map(readJSON) }
  ) { context in
    let arguments = context.arguments
    let content = context.input
    let change = try await context.client.create(
      arguments.positionals[0], title: arguments.value("--title"),
      appearance: arguments.value("--appearance"),
      selectionMode: arguments.value("--selection-mode"), content: content)
    if !context.json, change.changeset.objectValue?.isEmpty ?? false {
      // An empty changeset here is not "no change": the list is new, with nothing in it.
      return print("v\(change.version)  created '\(change.list)', empty (no sections)")
    }
    printChange(change, context)
  }

  static let dispose = Command(
    "dispose", "LIST [--force]", "Disposes a list.",
    details: """
      A list another live session owns (or a demo list) needs --force; its owner is then told
      (owner/lost). Without --force such a dispose fails with error -32018 naming the owner.
      """,
    switches: ["--force"], positionals: 1...1
  ) { context in
    let list = context.arguments.positionals[0]
    let version = try await context.client.dispose(list, force: context.arguments.has("--force"))
    if context.json { return printJSON(["list": .string(list), "version": .int(Int64(version))]) }
    print("disposed \(list) at v\(version)")
  }

  static let claim = Command(
    "claim", "LIST [--force]", "Makes this session the owner of a list whose owner has gone.",
    details: """
      The owner hears the list's user events and is the only session that may dispose it without
      --force. A list another live session owns needs --force; that owner is then told
      (owner/lost). The claim lasts as long as the connection: a lone `listctl claim` owns the
      list only until it exits (the list is then an orphan again), so claim inside a
      `listctl run` script, or from a client that stays connected.
      """,
    switches: ["--force"], positionals: 1...1
  ) { context in
    let list = context.arguments.positionals[0]
    let owner = try await context.client.claim(list, force: context.arguments.has("--force"))
    if context.json { return printJSON(["list": .string(list), "owner": owner]) }
    print("claimed \(list): owner is session \(owner["session"]?.intValue ?? 0)")
  }

  static let show = Command(
    "show", "LIST [--at VERSION] [--json]", "Prints a list as a readable tree.",
    details: """
      Sections show as `§ id — header`, footers as `⌊ footer`; outline rows are indented by level with
      ▸ (collapsed) / ▾ (expanded); ● marks selected rows; accessories follow in brackets.
      Rows are fetched and printed a page at a time (a table's columns fit its first page).
      With --json: the list's info and full snapshot.
        --at VERSION   the list as it was at VERSION (one the daemon still keeps)
      """,
    values: ["--at"], positionals: 1...1
  ) { context in
    let list = context.arguments.positionals[0]
    let at = try context.arguments.version("--at")
    guard context.json else { return try await ShowPages.show(context.client, list, at: at) }
    guard let entry = try await context.client.subscribe(list, atVersion: at).first else { return }
    try? await context.client.unsubscribe(list)
    printJSON(entry)
  }
}

/// Prints a mutation answer: one change line (and its causes), or the JSON answer with --json.
func printChange(_ change: Change, _ context: Context) {
  if context.json {
    var answer: JSONObject = [
      "list": .string(change.list), "version": .int(Int64(change.version)), "changeset": change.changeset,
    ]
    if let explain = change.explain { answer.append("explain", explain.raw) }
    return printJSON(.object(answer))
  }
  ChangePrinter.print(change, before: nil)
}
