// The query commands: query item|window|search, and call for any raw request.
import JSON
import JSONRPC
import ListClient

extension Command {
  static let query = Command(
    "query",
    "(item LIST ID | window LIST [--offset N] [--limit N] | search LIST TEXT [--case-sensitive] [--limit N] | content LIST) [--at VERSION]",
    "Queries a list: one item, a window of visible rows, a text search, or its whole content.",
    details: """
      item     the item's row, index path (section:row, or hidden), level and selection
      window   visible rows from --offset (default 0), --limit of them (default 100)
      search   items whose text or secondary text contains TEXT (case-insensitive unless --case-sensitive)
      content  every item, hidden ones too, as JSON in the format `create --content` reads
               (with --json: also the selection mode and the selection)
        --at VERSION   as the list was at VERSION (one the daemon still keeps; `listctl diff LIST
                       FROM TO` says what changed between two)
      """,
    values: ["--offset", "--limit", "--at"], switches: ["--case-sensitive"], positionals: 2...3,
    input: { arguments in
      let count = arguments.positionals.count
      switch arguments.positionals[0] {
      case "item" where count != 3: throw UsageError("usage: listctl query item LIST ID")
      case "window" where count != 2: throw UsageError("usage: listctl query window LIST")
      case "search" where count != 3: throw UsageError("usage: listctl query search LIST TEXT")
      case "content" where count != 2: throw UsageError("usage: listctl query content LIST")
      case "item", "window", "search", "content": return nil
      case let kind: throw UsageError("query: unknown kind '\(kind)' (item, window, search, content)")
      }
    }
  ) { context in
    let arguments = context.arguments
    let kind = arguments.positionals[0]
    let list = arguments.positionals[1]
    let client = context.client
    let at = try arguments.version("--at")
    switch kind {
    case "item":
      guard arguments.positionals.count == 3 else { throw UsageError("usage: listctl query item LIST ID") }
      let item = try await client.item(list, arguments.positionals[2], atVersion: at)
      if context.json { return printJSON(item) }
      var parts = ["\(item["id"]?.stringValue ?? "?") '\(item["text"]?.stringValue ?? "")'"]
      parts.append(indexPath(item["indexPath"]).map { "at \($0)" } ?? "hidden")
      parts.append("level \(item["level"]?.intValue ?? 0)")
      if let parent = item["parent"]?.stringValue { parts.append("parent \(parent)") }
      if let children = item["children"]?.arrayValue, !children.isEmpty {
        parts.append(
          "\(children.count) children" + (item["expanded"]?.boolValue == true ? " (expanded)" : ""))
      }
      if item["selected"]?.boolValue == true { parts.append("selected") }
      print(parts.joined(separator: " · "))
    case "window":
      guard arguments.positionals.count == 2 else { throw UsageError("usage: listctl query window LIST") }
      let window = try await client.window(
        list, offset: try arguments.int("--offset") ?? 0, limit: try arguments.int("--limit") ?? 100,
        atVersion: at)
      if context.json { return printJSON(window) }
      for row in window["rows"]?.arrayValue ?? [] {
        let indent = String(repeating: "  ", count: Int(row["level"]?.intValue ?? 0))
        print("\(indexPath(row["indexPath"]) ?? "?")  \(indent)\(TreeRenderer.label(row))")
      }
      print(
        "(\(window["rows"]?.arrayValue?.count ?? 0) of \(window["totalRows"]?.intValue ?? 0) rows, v\(window["version"]?.intValue ?? 0))"
      )
    case "search":
      guard arguments.positionals.count == 3 else {
        throw UsageError("usage: listctl query search LIST TEXT")
      }
      let result = try await client.search(
        list, arguments.positionals[2], caseSensitive: arguments.has("--case-sensitive"),
        limit: try arguments.int("--limit"), atVersion: at)
      if context.json { return printJSON(result) }
      for match in result["matches"]?.arrayValue ?? [] {
        print("\(match["id"]?.stringValue ?? "?")  \(indexPath(match["indexPath"]) ?? "hidden")")
      }
      if result["truncated"]?.boolValue == true { print("(truncated)") }
    case "content":
      let content = try await client.content(list, atVersion: at)
      guard context.json else { return printJSON(content.content) }
      printJSON([
        "list": .string(content.list), "version": .int(Int64(content.version)),
        "selectionMode": .string(content.selectionMode), "content": content.content,
        "selection": .array(content.selection.map(JSONValue.string)),
      ])
    default:
      throw UsageError("query: unknown kind '\(kind)' (item, window, search, content)")
    }
  }

  static let call = Command(
    "call", "METHOD [PARAMS|-]",
    "Sends any request and prints its result as JSON (PARAMS: JSON text, or - for stdin).",
    positionals: 1...2,
    input: { arguments in
      guard arguments.positionals.count == 2 else { return nil }
      let text = arguments.positionals[1]
      return text == "-" ? try readJSON("-") : try parseJSON(text, what: "PARAMS")
    }
  ) { context in
    let arguments = context.arguments
    let params = context.input
    // A request that says how long the daemon may take (event/refresh's timeoutMs) gets that long.
    var timeout = context.timeout
    if let milliseconds = params?["timeoutMs"]?.intValue, milliseconds > 0 {
      timeout = max(timeout, .milliseconds(milliseconds) + .seconds(5))
    }
    do {
      printJSON(try await context.client.call(arguments.positionals[0], params, timeout: timeout))
    } catch let error as ConnectionError where error.isTimeout {
      throw NoAnswer(describe(error, timeout: timeout).message)
    }
  }
}

/// `section:row` for a wire index path, or nil for `null`.
func indexPath(_ value: JSONValue?) -> String? {
  guard let path = value?.arrayValue, path.count == 2, let section = path[0].intValue,
    let row = path[1].intValue
  else { return nil }
  return "\(section):\(row)"
}
