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
      title, in any case (`--sort PID` sorts by the column titled PID whose id is pid).
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
        id, source: source, filter: fields.resolveFields(try viewFilter(arguments)),
        sort: fields.resolveFields(try viewSort(arguments))?.arrayValue,
        group: fields.resolveFields(try viewGroup(arguments)))
      printChange(change, context)
    case "update":
      let source = try await context.client.viewInfo(id)["source"]?.stringValue
      let fields = try await columnFields(arguments, source: source, context.client)
      let filter = arguments.has("--no-filter") ? .null : fields.resolveFields(try viewFilter(arguments))
      let sort = arguments.has("--no-sort") ? .null : fields.resolveFields(try viewSort(arguments))
      let group = arguments.has("--no-group") ? .null : fields.resolveFields(try viewGroup(arguments))
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

  /// The filter from --filter, or from --query, --where and --any; nil when none is given.
  static func viewFilter(_ arguments: Arguments) throws -> JSONValue? {
    if let json = arguments.value("--filter") {
      guard let value = try? JSONValue(parsing: Array(json.utf8)) else {
        throw UsageError("--filter must be JSON, got \(json)")
      }
      return value
    }
    let wheres = arguments.all("--where")
    let query = arguments.value("--query")
    guard query != nil || !wheres.isEmpty else { return nil }
    var filter: JSONObject = [:]
    if let query { filter.append("query", .string(query)) }
    if arguments.has("--any") { filter.append("match", "any") }
    var predicates: [JSONValue] = []
    for clause in wheres {
      let parts = clause.split(separator: " ", maxSplits: 2).map(String.init)
      guard parts.count == 3 else { throw UsageError("--where needs 'FIELD OP VALUE', got '\(clause)'") }
      let value = (try? JSONValue(parsing: Array(parts[2].utf8))) ?? .string(parts[2])
      predicates.append(["field": .string(parts[0]), "op": .string(parts[1]), "value": value])
    }
    if !predicates.isEmpty { filter.append("predicates", .array(predicates)) }
    return .object(filter)
  }

  /// `[{field, descending}]` from --sort F[:desc],…
  static func viewSort(_ arguments: Arguments) throws -> JSONValue? {
    guard let sort = arguments.value("--sort") else { return nil }
    return .array(
      sort.split(separator: ",").map { key in
        let parts = key.split(separator: ":").map(String.init)
        return ["field": .string(parts[0]), "descending": .bool(parts.count > 1 && parts[1] == "desc")]
      })
  }

  /// `{field, by}` from --group F[:initial].
  static func viewGroup(_ arguments: Arguments) throws -> JSONValue? {
    guard let group = arguments.value("--group") else { return nil }
    let parts = group.split(separator: ":").map(String.init)
    return [
      "field": .string(parts[0]),
      "by": .string(parts.count > 1 && parts[1] == "initial" ? "initial" : "value"),
    ]
  }
}
