// The explain command: why a kept change of a list did what it did (list/explain).
import JSON
import ListClient

extension Command {
  static let explain = Command(
    "explain", "LIST [VERSION] [--item ID]",
    "Explains a change of a list: what made it and why each item changed (list/explain).",
    details: """
      VERSION is a change of the list (1 to its version) that the daemon still keeps.
        --item ID   only the causes that concern ID; without VERSION, the last kept change of ID
                    ("why did ID last change?"), or a message saying none is kept (exit 0)
      Prints `vN  METHOD by session S (NAME)`, then one indented line per cause: the items by id,
      why they changed, and the edit of the batch that did it, as `edit --explain` prints them.
      With --json: the daemon's answer.
      """,
    values: ["--item"], positionals: 1...2,
    input: { arguments in
      if arguments.positionals.count == 2 { _ = try version(arguments) }
      if arguments.positionals.count == 1 && arguments.value("--item") == nil {
        throw UsageError(
          "explain needs VERSION or --item ID\nusage: listctl explain LIST [VERSION] [--item ID]")
      }
      return nil
    }
  ) { context in
    let arguments = context.arguments
    let list = arguments.positionals[0]
    let item = arguments.value("--item")
    let answer = try await context.client.explain(list, version: try version(arguments), item: item)
    if context.json { return printJSON(answer.raw) }
    switch answer {
    case .notKept(let item, let oldest, _):
      let history = oldest.map { "history starts at version \($0)" } ?? "the list has no kept change"
      // A typo must not read as "nothing happened to it".
      let known = (try? await context.client.item(list, item)) != nil
      print("no change of \(item) is kept (\(history))" + (known ? "" : "; \(list) has no item \(item) now"))
    case .change(let change, _):
      guard let explanation = change.explain else { return }
      let last = arguments.positionals.count == 1 ? " — the last change of \(item ?? "?")" : ""
      print("v\(change.version)  \(ExplainLine.source(explanation.source))\(last)")
      for line in ExplainLine.lines(explanation, changeset: change.changeset) { print("  " + line) }
      if let item, explanation.causes.isEmpty { print("  (nothing in v\(change.version) concerns \(item))") }
    }
  }

  /// The VERSION argument of `explain`, if given; a usage error naming it when it is not an integer.
  private static func version(_ arguments: Arguments) throws -> Int? {
    guard arguments.positionals.count == 2 else { return nil }
    let text = arguments.positionals[1]
    guard let version = Int(text) else { throw UsageError("VERSION needs an integer, got '\(text)'") }
    return version
  }
}
