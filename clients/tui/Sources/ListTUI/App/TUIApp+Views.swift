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
  /// Whether it is to be made again once its source is loaded (after a reconnect).
  var remake = false
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
    let effects = derive(sort: .some(next), filter: nil)
    // A sort shows in the title and status lines already; only its removal needs saying.
    if !effects.isEmpty && next == nil { say("unsorted") }
    return effects
  }

  /// `/` then Enter on a table: filter by `text` (empty: no filter).
  mutating func filter(_ text: String) -> [AppEffect] {
    let effects = derive(sort: nil, filter: text)
    // A filter shows in the title and status lines already; only its removal needs saying.
    if !effects.isEmpty && text.isEmpty { say("unfiltered") }
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
      nameBlankHeader()
      return [.request(.viewUpdate(generation: generation), method: "view/update", params: .object(params))]
    }
    let derived = DerivedView(
      source: view.list, view: newViewID(view.list), sort: sort ?? nil, filter: filter ?? "")
    self.derived = derived
    return [createRequest(derived)]
  }

  /// A new id for a view of `source`, this app's own.
  mutating func newViewID(_ source: String) -> String {
    viewsMade += 1
    return "\(source)·tui-\(viewToken)" + (viewsMade == 1 ? "" : "-\(viewsMade)")
  }

  /// `view/create {view, source, sort?, filter?}` of `derived`.
  func createRequest(_ derived: DerivedView) -> AppEffect {
    var params: JSONObject = ["view": .string(derived.view), "source": .string(derived.source)]
    if let key = derived.sort { params.append("sort", Self.sortParam(key)) }
    if !derived.filter.isEmpty { params.append("filter", Self.filterParam(derived.filter)) }
    return .request(.viewCreate(generation: generation), method: "view/create", params: .object(params))
  }

  /// After a reconnect, the view is made again once its source is loaded (its columns known).
  mutating func remakeDerived() -> [AppEffect] {
    guard var derived, derived.remake, view?.list == derived.source, view?.layout != nil else { return [] }
    derived.remake = false
    self.derived = derived
    return [createRequest(derived)]
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
    nameBlankHeader()
    return subscribeRequest(derived.view)
  }

  /// A view has one section of all rows without header text: its header line says what it
  /// holds (`all rows of processes, sorted by PID ▼`, as the Neovim plugin's), where the list
  /// showed its own sections' headers.
  mutating func nameBlankHeader() {
    guard let derived, derived.created, view?.list == derived.view else { return }
    let rows = derived.filter.isEmpty ? "all rows of " : "rows of "
    let header = ([rows + derived.source] + Renderer.derivedWords(self)).joined(separator: ", ")
    view?.blankHeader = header
  }

  /// `[{field, descending}]`, or null for the source's order.
  static func sortParam(_ key: SortKey?) -> JSONValue {
    guard let key else { return .null }
    return [["field": .string(key.column), "descending": .bool(key.descending)]]
  }

  /// `{query}`, or null for no filter.
  static func filterParam(_ text: String) -> JSONValue { text.isEmpty ? .null : ["query": .string(text)] }
}
