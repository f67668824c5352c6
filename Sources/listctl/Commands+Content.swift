// The content commands: apply, edit, select, deselect, expand, collapse.
import JSON
import ListClient

extension Command {
  static let apply = Command(
    "apply", "LIST FILE|- [--if-version N] [--explain]",
    "Replaces a list's content with {\"sections\": […]} from a file or stdin.",
    details: explainHelp, values: ["--if-version"], switches: ["--explain"], positionals: 2...2,
    input: { try readJSON($0.positionals[1]) }
  ) { context in
    let arguments = context.arguments
    let content = context.input ?? [:]
    let ifVersion = try arguments.int("--if-version")
    try await ChangePrinter.run(context, list: arguments.positionals[0]) {
      try await context.client.replace(
        arguments.positionals[0], content: content, ifVersion: ifVersion, explain: arguments.has("--explain"))
    }
  }

  static let edit = Command(
    "edit",
    "LIST [JSON|-] [--append ID=TEXT…] [--section S] [--update ID=TEXT…] [--delete ID…] [--if-version N] [--explain]",
    "Applies one atomic batch of edits (Protocol/README.md §5).",
    details: """
      JSON is an edit object or an array of them ([{"op": "appendItems", …}]), given inline or `-` for stdin.
      Flags add common edits after it, in this order:
        --append ID=TEXT   appendItems (into --section S, default the last section)
        --update ID=TEXT   patchItems: sets the text, keeps every other field of the item
        --delete ID        deleteItems

      """ + explainHelp,
    values: ["--append", "--section", "--update", "--delete", "--if-version"], switches: ["--explain"],
    positionals: 1...2, input: edits
  ) { context in
    let arguments = context.arguments
    let edits = context.input?.arrayValue ?? []
    let ifVersion = try arguments.int("--if-version")
    try await ChangePrinter.run(context, list: arguments.positionals[0]) {
      try await context.client.edit(
        arguments.positionals[0], edits, ifVersion: ifVersion, explain: arguments.has("--explain"))
    }
  }

  /// The help of `--explain` on the commands that change a list (and `preview`).
  static let explainHelp = """
      --explain   after the change line, one indented line per cause (list/explain tells the
                  same later): the items by id, why they changed, and the edit that did it —
                  `~ spec  text "Write the spec" → "Draft" (edit 0 patchItems)`
    """

  static let preview = Command(
    "preview",
    "LIST ([JSON|-] [--append ID=TEXT…] [--section S] [--update ID=TEXT…] [--delete ID…] | --content FILE) [--if-version N] [--explain]",
    "Shows what an edit (as `edit` takes it) or a new content (--content, as `apply`) would do, committing nothing.",
    details: """
      Prints the change line the real command would print, after `would make`, or with --json the
      answer the daemon would give (diff/preview). Nothing changes: no version, no notification.
      To then apply exactly what was previewed, pass --if-version with the version it started from.

      """ + explainHelp,
    values: ["--append", "--section", "--update", "--delete", "--if-version", "--content"],
    switches: ["--explain"], positionals: 1...2,
    input: { arguments in
      if let path = arguments.value("--content") { return ["content": try readJSON(path)] }
      return ["edits": try edits(arguments)]
    }
  ) { context in
    let arguments = context.arguments
    let list = arguments.positionals[0]
    let ifVersion = try arguments.int("--if-version")
    let explain = arguments.has("--explain")
    let before = context.json ? nil : await ChangePrinter.mirror(context.client, list)
    let change: Change
    if let content = context.input?["content"] {
      change = try await context.client.preview(
        list, content: content, ifVersion: ifVersion, explain: explain)
    } else {
      change = try await context.client.preview(
        list, edits: context.input?["edits"]?.arrayValue ?? [], ifVersion: ifVersion, explain: explain)
    }
    if context.json { return printChange(change, context) }
    ChangePrinter.print(change, before: before, prefix: "would make ")
  }

  static let diff = Command(
    "diff", "OLD NEW [--explain]",
    "Prints the changes from one content file to another, one line each (diff/contents; - for stdin).",
    details: """
      OLD and NEW hold {"sections": […]} as `create --content` takes it; NEW is read as `apply`
      reads it (an item without "expanded" keeps its state in OLD). No list is involved.
      Prints one line per change, naming its items (the rows of OLD name deleted and moved ones),
      as `watch` does, or `(no change)`.
        --explain   one line per cause instead: the items by id, then why they changed —
                    `~ a  text "A" → "A2"`, `↕ c  reordered, now between (start) and a`,
                    `+ d1, d2  revealed: d expanded`, `+ 100000 rows from e1  revealed: e expanded`
        --json      the daemon's answer: {"changeset": …, "explain": …}
      """,
    switches: ["--explain"], positionals: 2...2,
    input: { ["old": try readJSON($0.positionals[0]), "new": try readJSON($0.positionals[1])] }
  ) { context in
    let input = context.input ?? [:]
    let old = input["old"] ?? [:]
    let diff = try await context.client.diffContents(
      old: old, new: input["new"] ?? [:], explain: context.arguments.has("--explain"))
    if context.json {
      var answer: JSONObject = ["changeset": diff.changeset]
      if let explain = diff.explain { answer.append("explain", explain.raw) }
      return printJSON(.object(answer))
    }
    // Naming is a nicety: without OLD's rows, lines show index paths (and first ids) instead.
    let before = try? await rows(of: old, naming: diff.changeset, context.client)
    let lines =
      diff.explain.map { ExplainLine.lines($0, changeset: diff.changeset, before: before) }
      ?? ChangeLine.parts(diff.changeset, before: before)
    print(lines.isEmpty ? "(no change)" : lines.joined(separator: "\n"))
  }

  /// The rows of `content` (as `list/create` shows them), when `changeset` deletes or moves
  /// any: the wire names those by their index in the old rows only. The daemon lays the rows
  /// out — the diff from no sections to `content` inserts every one — so that listctl does not
  /// repeat its outline rules.
  private static func rows(of content: JSONValue, naming changeset: JSONValue, _ client: ListClient)
    async throws -> Mirror?
  {
    let namesOld = ["itemDeletes", "itemMoves", "sectionDeletes", "sectionMoves"].contains {
      changeset[$0] != nil
    }
    guard namesOld else { return nil }
    let inserts = try await client.diffContents(old: ["sections": []], new: content)
    var mirror = try Mirror(list: "OLD", version: 0, snapshot: ["sections": [], "selection": []])
    try mirror.apply(changeset: inserts)
    return mirror
  }

  /// The edits of `edit`: the JSON argument's, then those of the flags.
  private static func edits(_ arguments: Arguments) throws -> JSONValue {
    var edits: [JSONValue] = []
    if arguments.positionals.count == 2 {
      let text = arguments.positionals[1]
      let value = text == "-" ? try readJSON("-") : try parseJSON(text, what: "the edits")
      edits = value.arrayValue ?? [value]
    }
    func items(_ flag: String) throws -> [JSONValue] {
      try (arguments.values[flag] ?? []).map { pair in
        guard let equals = pair.firstIndex(of: "=") else {
          throw UsageError("\(flag) needs ID=TEXT, got '\(pair)'")
        }
        return [
          "id": .string(String(pair[..<equals])), "text": .string(String(pair[pair.index(after: equals)...])),
        ]
      }
    }
    let appended = try items("--append")
    if !appended.isEmpty {
      var edit: JSONObject = ["op": "appendItems", "items": .array(appended)]
      if let section = arguments.value("--section") { edit.append("section", .string(section)) }
      edits.append(.object(edit))
    }
    let updated = try items("--update")
    if !updated.isEmpty { edits.append(["op": "patchItems", "items": .array(updated)]) }
    if let deleted = arguments.values["--delete"] {
      edits.append(["op": "deleteItems", "items": .array(deleted.map { .string($0) })])
    }
    guard !edits.isEmpty else { throw UsageError("no edits: give JSON or --append/--update/--delete") }
    return .array(edits)
  }

  static let select = Command(
    "select", "LIST ID… [--if-version N]", "Selects items (as the list's selection mode allows).",
    values: ["--if-version"], positionals: 2...Int.max
  ) { context in
    let arguments = context.arguments
    let ifVersion = try arguments.int("--if-version")
    try await ChangePrinter.run(context, list: arguments.positionals[0]) {
      try await context.client.select(
        arguments.positionals[0], Array(arguments.positionals.dropFirst()), ifVersion: ifVersion)
    }
  }

  static let deselect = Command(
    "deselect", "LIST ID… [--if-version N]", "Deselects items.", values: ["--if-version"],
    positionals: 2...Int.max
  ) { context in
    let arguments = context.arguments
    let ifVersion = try arguments.int("--if-version")
    try await ChangePrinter.run(context, list: arguments.positionals[0]) {
      try await context.client.deselect(
        arguments.positionals[0], Array(arguments.positionals.dropFirst()), ifVersion: ifVersion)
    }
  }

  static let expand = outline("expand", "Expands", expand: true)
  static let collapse = outline("collapse", "Collapses", expand: false)

  /// `expand` / `collapse`: one item, its subtree with --recursive, or every item without ID.
  private static func outline(_ name: String, _ verb: String, expand: Bool) -> Command {
    Command(
      name, "LIST [ID] [--recursive] [--if-version N]",
      "\(verb) an outline item (its subtree with --recursive), or every item without ID.",
      values: ["--if-version"], switches: ["--recursive"], positionals: 1...2
    ) { context in
      let arguments = context.arguments
      let list = arguments.positionals[0]
      let item = arguments.positionals.dropFirst().first
      let recursive = arguments.has("--recursive")
      let ifVersion = try arguments.int("--if-version")
      try await ChangePrinter.run(context, list: list) {
        expand
          ? try await context.client.expand(list, item: item, recursive: recursive, ifVersion: ifVersion)
          : try await context.client.collapse(list, item: item, recursive: recursive, ifVersion: ifVersion)
      }
    }
  }
}
