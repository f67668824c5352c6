// The view command: live views (view create, view update, view show).
import JSON
import ListClient

extension Command {
  static let view = Command(
    "view",
    "create VIEW SOURCE | update VIEW | show VIEW [--query TEXT] [--where FIELD OP VALUE]… [--any] [--sort FIELD[:desc],…] [--group FIELD[:initial]] [--filter JSON]",
    "Creates, changes or shows a live view: a read-only list derived from SOURCE, kept up to date by the daemon.",
    details: """
        --query TEXT         rows whose text, secondary text or cells contain TEXT (case- and diacritic-insensitive)
        --where 'F OP V'     a predicate: field, operator (= != < <= > >= contains in), JSON value or text
        --any                rows matching any predicate (default: all)
        --sort F[:desc],…    sort keys, e.g. size:desc,text
        --group F[:initial]  one section per value of F (or per initial)
        --filter JSON        the whole filter as JSON {query?, match?, predicates?}
        --no-filter, --no-sort, --no-group   (update) remove that part
      Fields: text, secondaryText, image, id, data.path, cells.column or a column: its id or its
      title, in any case (`--sort PID` sorts by the column titled PID whose id is pid); a name
      that is none of these is refused. A title may contain spaces: --where 'CPU % > 1' (the
      operator is the first word after a known field; or quote the field: --where '"CPU %" > 1'),
      --sort 'CPU %:desc', --group 'Started:initial' (the :desc, :asc, :initial or :value suffix
      is read from the right).
      `view show VIEW` prints the view's definition, then its rows as `show` does.
      """,
    values: ["--query", "--where", "--sort", "--group", "--filter"],
    switches: ["--any", "--no-filter", "--no-sort", "--no-group"], positionals: 2...3
  ) { context in
    let arguments = context.arguments
    let action = arguments.positionals[0]
    let id = arguments.positionals[1]
    switch action {
    case "create":
      guard arguments.positionals.count == 3 else {
        throw UsageError("missing SOURCE\nusage: listctl view create VIEW SOURCE [OPTIONS]")
      }
      let source = arguments.positionals[2]
      let fields = try await columnFields(arguments, source: source, context.client)
      let change = try await context.client.createView(
        id, source: source, filter: try viewFilter(arguments, fields),
        sort: try viewSort(arguments, fields)?.arrayValue, group: try viewGroup(arguments, fields))
      printChange(change, context)
    case "update":
      let source = try await context.client.viewInfo(id)["source"]?.stringValue
      let fields = try await columnFields(arguments, source: source, context.client)
      let filter = arguments.has("--no-filter") ? .null : try viewFilter(arguments, fields)
      let sort = arguments.has("--no-sort") ? .null : try viewSort(arguments, fields)
      let group = arguments.has("--no-group") ? .null : try viewGroup(arguments, fields)
      let change = try await context.client.updateView(id, filter: filter, sort: sort, group: group)
      printChange(change, context)
    case "show":
      let info = try await context.client.viewInfo(id)
      if context.json { return printJSON(info) }
      print(
        "view \(id) of \(info["source"]?.stringValue ?? "?")  v\(info["version"]?.intValue ?? 0)  \(info["rows"]?.intValue ?? 0) rows"
      )
      // Only what is set: an absent filter or grouping (null) and an empty sort are left out.
      for key in ["filter", "sort", "group"] {
        guard let value = info[key], !value.isNull, value.arrayValue?.isEmpty != true else { continue }
        print("\(key) \(value.jsonString())")
      }
      try await ShowPages.show(context.client, id, at: nil)
    default:
      throw UsageError(
        "unknown view action '\(action)': create, update or show\nusage: listctl view create VIEW SOURCE | update VIEW | show VIEW [OPTIONS]"
      )
    }
  }

  /// The columns of `source` when a field is named (--sort, --where, --group, --filter), to
  /// match fields to column ids and titles in any case; none otherwise (or without a source).
  static func columnFields(_ arguments: Arguments, source: String?, _ client: ListClient) async throws
    -> ColumnFields
  {
    let namesFields = ["--sort", "--where", "--group", "--filter"].contains { arguments.value($0) != nil }
    guard namesFields, let source else { return ColumnFields(columns: []) }
    return try await ColumnFields(of: source, client)
  }
}
