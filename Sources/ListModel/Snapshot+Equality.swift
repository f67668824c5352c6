// Equality of snapshots by observable content, and a compact text dump for test failures.

extension ListSnapshot: Equatable {
  /// Whether two snapshots hold the same sections (ids, headers, footers), the same items in the
  /// same outline positions with equal payloads and expansion states, the same selection and
  /// selection mode. Pending reload/reconfigure marks are not compared. O(items).
  public static func == (lhs: ListSnapshot, rhs: ListSnapshot) -> Bool {
    guard lhs.selectionMode == rhs.selectionMode, lhs.columns == rhs.columns,
      lhs.emptyState == rhs.emptyState, lhs.isEditing == rhs.isEditing, lhs.order.count == rhs.order.count,
      lhs.itemCount == rhs.itemCount, lhs.selection.count == rhs.selection.count
    else { return false }
    let sameTable = lhs.table === rhs.table
    let left = lhs.table.strings()
    let right = sameTable ? left : rhs.table.strings()
    for (a, b) in zip(lhs.order, rhs.order) {
      let x = lhs.slots[Int(a)]
      let y = rhs.slots[Int(b)]
      if sameTable && x.stamp == y.stamp { continue }
      guard left[Int(x.id)] == right[Int(y.id)], x.header == y.header, x.footer == y.footer,
        x.kind == y.kind, x.headerMode == y.headerMode, x.nodes.count == y.nodes.count
      else { return false }
      for (m, n) in zip(x.nodes, y.nodes) {
        guard left[Int(m.id)] == right[Int(n.id)], m.level == n.level, m.isExpanded == n.isExpanded,
          m.payload == n.payload
        else { return false }
      }
    }
    return Set(lhs.selection.map { left[Int($0)] }) == Set(rhs.selection.map { right[Int($0)] })
  }
}

extension ListSnapshot: CustomStringConvertible {
  /// One line per section and item, indented by level; hidden items in brackets, selected ones
  /// starred, expanded ones with a trailing "v". O(items).
  public var description: String {
    let strings = table.strings()
    var lines: [String] = ["snapshot (\(selectionMode))"]
    if !columns.isEmpty { lines.append("columns " + columns.map(\.id).joined(separator: ", ")) }
    if let emptyState { lines.append("empty \(emptyState.kind) \(emptyState.title)") }
    if isEditing { lines.append("editing") }
    for slot in order {
      let store = slots[Int(slot)]
      lines.append(
        "§ \(strings[Int(store.id)])" + (store.header.map { " h=\($0)" } ?? "")
          + (store.footer.map { " f=\($0)" } ?? "") + (store.kind.map { " k=\($0)" } ?? "")
          + (store.headerMode != .supplementary ? " \(store.headerMode)" : ""))
      for node in store.nodes {
        var line = String(repeating: "  ", count: Int(node.level) + 1) + strings[Int(node.id)]
        if node.isExpanded { line += " v" }
        if selection.contains(node.id) { line += " *" }
        if let text = node.payload.content.text { line += " \"\(text)\"" }
        if let kind = node.payload.kind { line += " k=\(kind)" }
        if !node.payload.cells.isEmpty { line += " cells=\(node.payload.cells.keys.sorted())" }
        lines.append(node.isVisible ? line : "[" + line + "]")
      }
    }
    return lines.joined(separator: "\n")
  }
}
