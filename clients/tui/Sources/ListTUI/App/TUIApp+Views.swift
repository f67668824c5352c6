// Sorting and filtering a table by a live view the daemon keeps (view/create, view/update), shown in the list's place.
import JSON

/// A live view the TUI made of the list the user opened, to sort or filter it: the daemon sorts
/// and filters (Protocol/README.md, Live views); the TUI shows the view in the list's place.
public struct DerivedView: Equatable, Sendable {
  /// The list the user opened.
  public var source: String
  /// The view's id (a list id of its own).
  public var view: String
  /// The sort column and direction, nil for the source's order.
  public var sort: SortKey?
  /// The filter's text query, empty for none.
  public var filter: String
  /// Whether `view/create` answered (until then, changes wait for it).
  public var created = false
}

/// A sort by one column.
public struct SortKey: Equatable, Sendable {
  /// The column id.
  public var column: String
  /// Descending (▼) rather than ascending (▲).
  public var descending: Bool
}

extension TUIApp {
  /// The id of the list whose title and columns the user sees: the source of a derived view.
  var shownList: String? { derived?.source ?? view?.list }

  /// `s`: the next sort — each sortable column ascending, then descending, then the source's
  /// order again.
  mutating func cycleSort() -> [AppEffect] {
    guard let view else { return [] }
    let sortable = view.columns.filter(\.sortable)
    guard !view.columns.isEmpty else {
      say("only a table sorts (this list has no columns)")
      return []
    }
    guard !sortable.isEmpty else {
      say("no column of this table is sortable")
      return []
    }
    let current = derived?.sort
    var next: SortKey?
    if let current, let index = sortable.firstIndex(where: { $0.id == current.column }) {
      if !current.descending {
        next = SortKey(column: current.column, descending: true)
      } else if index + 1 < sortable.count {
        next = SortKey(column: sortable[index + 1].id, descending: false)
      }
    } else {
      next = SortKey(column: sortable[0].id, descending: false)
    }
    let title = next.map { key in view.columns.first { $0.id == key.column }?.title ?? key.column }
    let effects = derive(sort: .some(next), filter: nil)
    if !effects.isEmpty { say(next.map { "sorted by \(title!) \($0.descending ? "▼" : "▲")" } ?? "unsorted") }
    return effects
  }

  /// `/` then Enter on a table: filter by `text` (empty: no filter).
  mutating func filter(_ text: String) -> [AppEffect] {
    let effects = derive(sort: nil, filter: text)
    if !effects.isEmpty { say(text.isEmpty ? "unfiltered" : "filter '\(text)'") }
    return effects
  }

  /// Creates the view (the first sort or filter) or updates it. `sort` nil leaves the sort as
  /// it is; `.some(nil)` removes it.
  mutating func derive(sort: SortKey??, filter: String?) -> [AppEffect] {
    guard let view else { return [] }
    if var derived {
      guard derived.created else {
        say("the view is being created…")
        return []
      }
      if let sort { derived.sort = sort }
      if let filter { derived.filter = filter }
      self.derived = derived
      var params: JSONObject = ["view": .string(derived.view)]
      if sort != nil { params.append("sort", Self.sortParam(derived.sort)) }
      if filter != nil { params.append("filter", Self.filterParam(derived.filter)) }
      return [.request(.viewUpdate(generation: generation), method: "view/update", params: .object(params))]
    }
    let id = "\(view.list)·tui-\(viewToken)"
    derived = DerivedView(source: view.list, view: id, sort: sort ?? nil, filter: filter ?? "")
    var params: JSONObject = ["view": .string(id), "source": .string(view.list)]
    if let key = sort ?? nil { params.append("sort", Self.sortParam(key)) }
    if let filter, !filter.isEmpty { params.append("filter", Self.filterParam(filter)) }
    return [.request(.viewCreate(generation: generation), method: "view/create", params: .object(params))]
  }

  /// The view was created: show it in the list's place, the cursor on the same item.
  mutating func showDerived() -> [AppEffect] {
    guard var derived, let old = view else { return [] }
    derived.created = true
    self.derived = derived
    generation += 1
    released.append(derived.source)  // the view's changes replace the source's
    var view = ListViewState(list: derived.view, height: listHeight, columns: old.columns)
    view.follow(item: old.cursorID)
    self.view = view
    return subscribeRequest(derived.view)
  }

  /// `[{field, descending}]`, or null for the source's order.
  static func sortParam(_ key: SortKey?) -> JSONValue {
    guard let key else { return .null }
    return [["field": .string(key.column), "descending": .bool(key.descending)]]
  }

  /// `{query}`, or null for no filter.
  static func filterParam(_ text: String) -> JSONValue { text.isEmpty ? .null : ["query": .string(text)] }
}
