// `listctl show` page by page: each page of rows is printed before the next is asked for.
import Foundation
import JSON
import ListClient

/// Prints a list as ``TreeRenderer`` does, fetching its rows a page (`query/window`) at a time at
/// one version, so that the first lines of a long list come at once and a reader that stops
/// early (`listctl show big | head`) stops the fetching too.
enum ShowPages {
  /// Rows asked for per `query/window`.
  static let pageSize = 1_000

  /// Prints `list` as it is (or was at version `at`). A table's columns are as wide as the rows of
  /// the first page need (longer values later are cut with `…`). Throws ``OutputClosed`` when
  /// stdout's reader has gone.
  static func show(_ client: ListClient, _ list: String, at: Int?) async throws {
    let info = try await client.info(list, atVersion: at)
    // Every page at one version: the list may change while it is printed.
    let version = Int(info["version"]?.intValue ?? 0)
    let sections = try await client.sections(list, atVersion: version)["sections"]?.arrayValue ?? []
    let selection = Set(
      (try await client.selection(list, atVersion: version)["items"]?.arrayValue ?? []).compactMap {
        $0["id"]?.stringValue
      })
    let total = sections.reduce(0) { $0 + Int($1["rows"]?.intValue ?? 0) }
    var pending: ArraySlice<JSONValue> = []
    var fetched = 0
    func nextPage() async throws {
      let page = try await client.window(list, offset: fetched, limit: pageSize, atVersion: version)
      let rows = page["rows"]?.arrayValue ?? []
      guard !rows.isEmpty else { throw NoAnswer("query/window of '\(list)' answered no rows at \(fetched)") }
      fetched += rows.count
      pending += rows
    }
    var out = [
      TreeRenderer.headLine(
        list: list, info: info, version: version, editing: info["editing"]?.boolValue == true)
    ]
    if let state = info["emptyState"], total == 0 { out += TableRenderer.emptyState(state) }
    var table: TableRenderer?
    if let columns = info["columns"]?.arrayValue, !columns.isEmpty {
      if total > 0 { try await nextPage() }
      table = TableRenderer(columns: columns, sections: [["rows": .array(Array(pending))]])
      if let table { out.append("  " + table.header()) }
    }
    for section in sections {
      out.append(TreeRenderer.sectionHead(section))
      var left = Int(section["rows"]?.intValue ?? 0)
      while left > 0 {
        if pending.isEmpty {
          try StandardOutput.write(out)
          out = []
          try await nextPage()
        }
        let row = pending.removeFirst()
        out.append(
          TreeRenderer.line(row, selected: selection.contains(row["id"]?.stringValue ?? ""), table: table))
        left -= 1
      }
      if let footer = TreeRenderer.sectionFoot(section) { out.append(footer) }
    }
    try StandardOutput.write(out)
  }
}
