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
    "diff", "OLD NEW [--explain] | LIST FROM TO [--explain] [--edits]",
    "Prints the changes from one content file to another (diff/contents; - for stdin), or between two versions of a list (list/diff), one line each.",
    details: """
      OLD and NEW hold {"sections": […]} as `create --content` takes it; NEW is read as `apply`
      reads it (an item without "expanded" keeps its state in OLD). No list is involved.
      LIST FROM TO: the changes that take the list from version FROM to version TO, forward or
      backward (TO may be older), as one changeset; both versions must still be kept by the daemon.
      Prints one line per change, naming its items (the rows of OLD, or of the list at FROM, name
      deleted and moved ones), as `watch` does, or `(no change)`.
        --explain   one line per cause instead: the items by id, then why they changed —
                    `~ a  text "A" → "A2"`, `↕ c  reordered, now between (start) and a`,
                    `+ d1, d2  revealed: d expanded`, `+ 100000 rows from e1  revealed: e expanded`
        --edits     (LIST FROM TO) prints instead the list/edit batch, as JSON, that makes these
                    changes from FROM — to bring a list at version 9 back to version 5:
                    `listctl diff LIST 9 5 --edits | listctl edit LIST - --if-version 9`
        --json      the daemon's answer: {"changeset": …, "explain": …} (list/diff: also list,
                    from, to and edits)
      """,
    switches: ["--explain", "--edits"], positionals: 2...3,
    input: { arguments in
      let positionals = arguments.positionals
      guard positionals.count == 3 else {
        if arguments.has("--edits") {
          throw UsageError("--edits is for the versions of a list: listctl diff LIST FROM TO --edits")
        }
        return ["old": try readJSON(positionals[0]), "new": try readJSON(positionals[1])]
      }
      func version(_ text: String, _ name: String) throws -> JSONValue {
        guard let number = Int(text), number >= 0 else {
          throw UsageError("\(name) needs a version (an integer, 0 or more), got '\(text)'")
        }
        return .int(Int64(number))
      }
      return [
        "list": .string(positionals[0]), "from": try version(positionals[1], "FROM"),
        "to": try version(positionals[2], "TO"),
      ]
    }
  ) { context in
    let input = context.input ?? [:]
    if input["list"] != nil { return try await versionDiff(context) }
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

  /// `diff LIST FROM TO`: list/diff, printed as the content diff is, or its edits.
  private static func versionDiff(_ context: Context) async throws {
    let input = context.input ?? [:]
    let list = input["list"]?.stringValue ?? ""
    let from = Int(input["from"]?.intValue ?? 0)
    let to = Int(input["to"]?.intValue ?? 0)
    let arguments = context.arguments
    let client = context.client
    let diff = try await client.diff(
      list, from: from, to: to, edits: arguments.has("--edits"), explain: arguments.has("--explain"))
    if context.json {
      var answer: JSONObject = [
        "list": .string(diff.list), "from": .int(Int64(from)), "to": .int(Int64(to)),
        "changeset": diff.changeset,
      ]
      if let edits = diff.edits { answer.append("edits", .array(edits)) }
      if let explain = diff.explain { answer.append("explain", explain.raw) }
      return printJSON(.object(answer))
    }
    if let edits = diff.edits { return printJSON(.array(edits)) }
    // The rows at FROM name deleted and moved rows, as for a change (a small enough list only).
    var before: Mirror?
    let namesOld = ["itemDeletes", "itemMoves", "sectionDeletes", "sectionMoves"].contains {
      diff.changeset[$0] != nil
    }
    if namesOld, let rows = try? await client.info(list, atVersion: from)["rows"]?.intValue,
      rows <= ChangePrinter.namingLimit
    {
      before = try? await client.mirror(list, atVersion: from)
      try? await client.unsubscribe(list)
    }
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
      let value = text == "-" ? try readJSON("-") : try parseJSON(text, what: "the edit argument")
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
