// The keys of each screen and overlay.
import JSON

extension TUIApp {
  mutating func handle(key: Key) -> [AppEffect] {
    if key == .ctrl("l") { return [.redraw] }
    switch overlay {
    case .help:
      overlay = nil
      return []
    case .actions(let menu): return actionsKey(key, menu)
    case .search(let text): return searchKey(key, text)
    case .explain: return explainKey(key)
    case nil: break
    }
    if key == .char("?") {
      overlay = .help
      return []
    }
    return screen == .picker ? pickerKey(key) : listKey(key)
  }

  // MARK: - Picker

  mutating func pickerKey(_ key: Key) -> [AppEffect] {
    switch key {
    case .char("q"), .escape: return [.quit]
    case .char("j"), .down: picker.move(by: 1)
    case .char("k"), .up: picker.move(by: -1)
    case .char("g"), .home: picker.move(by: -picker.entries.count)
    case .char("G"), .end: picker.move(by: picker.entries.count)
    case .pageDown: picker.move(by: listHeight - 1)
    case .pageUp: picker.move(by: -(listHeight - 1))
    case .enter, .char(" "), .char("l"), .right, .tab:
      if let list = picker.selectedList { return open(list) }
    case .char("r"):
      return [.request(.subscribeAll, method: "list/subscribe", params: Self.subscribeAllParams)]
    default: break
    }
    return []
  }

  // MARK: - List

  mutating func listKey(_ key: Key) -> [AppEffect] {
    switch key {
    case .char("q"), .escape:
      closeList()
      return []
    case .tab, .backTab:
      let order = picker.entries.map(\.list)
      guard let list = shownList, let index = order.firstIndex(of: list), order.count > 1 else { return [] }
      return open(order[(index + (key == .tab ? 1 : order.count - 1)) % order.count])
    case .char("s"):
      // Before the view state is copied below: a sort renames the view's header.
      return cycleSort()
    default: break
    }
    guard var view else { return [] }
    defer { self.view = view }
    let row = view.cursor
    switch key {
    case .char("j"), .down: view.moveCursor(by: 1)
    case .char("k"), .up: view.moveCursor(by: -1)
    case .pageDown, .ctrl("f"), .ctrl("d"): view.page(1)
    case .pageUp, .ctrl("b"), .ctrl("u"): view.page(-1)
    case .char("g"), .home: view.moveCursor(to: 0)
    case .char("G"), .end: view.moveCursor(to: view.totalRows - 1)
    case .enter, .char(" "):
      guard let row else { return [] }
      guard view.selectionMode != "none" else {
        say("this list does not select (selection mode none)")
        return []
      }
      guard row.selectable else {
        say("\(label(row)) is not selectable")
        return []
      }
      let selected = view.selection.contains(row.id)
      return [
        itemRequest(
          selected ? "event/deselect" : "event/select", row.id,
          what: "\(selected ? "deselect" : "select") \(label(row))")
      ]
    case .char("h"), .left:
      guard let row else { return [] }
      if row.hasChildren && row.expanded {
        return [itemRequest("outline/collapse", row.id, what: "collapse \(label(row))")]
      }
      guard let parent = row.parent else { return [] }
      if let found = view.rows.first(where: { $0.value.id == parent }) {
        view.moveCursor(toItem: parent, row: found.key)
        return []
      }
      return [locate(parent)]
    case .char("l"), .right:
      guard let row, row.hasChildren else { return [] }
      if row.expanded {
        view.moveCursor(by: 1)
        return []
      }
      return [itemRequest("outline/expand", row.id, what: "expand \(label(row))")]
    case .char("e"):
      return [
        .request(
          .userEvent(what: "expand all", list: shownList, visit: visit), method: "outline/expand",
          params: ["list": .string(view.list), "rows": "none"])
      ]
    case .char("E"):
      return [
        .request(
          .userEvent(what: "collapse all", list: shownList, visit: visit), method: "outline/collapse",
          params: ["list": .string(view.list), "rows": "none"])
      ]
    case .char("/"): overlay = .search("")
    case .char("n"), .char("N"):
      if let number = view.nextMatch(forward: key == .char("n")) {
        say("match \(number) of \(view.matches.count)")
      } else {
        say("no matches")
      }
    case .char("a"):
      guard let row else { return [] }
      let actions = row.actions
      if actions.isEmpty {
        say("\(label(row)) has no actions")
      } else {
        overlay = .actions(ActionMenu(item: row.id, title: label(row), actions: actions))
      }
    case .char("t"):
      guard let row else { return [] }
      guard let isOn = row.toggle else {
        say("\(label(row)) has no toggle")
        return []
      }
      return [
        itemRequest(
          "event/toggle", row.id, what: "toggle \(label(row)) \(isOn ? "off" : "on")",
          [("isOn", .bool(!isOn))])
      ]
    case .char("w"):
      guard let row else { return [] }
      return explain(row)
    case .char("d"), .delete:
      guard let row else { return [] }
      return [itemRequest("event/delete", row.id, what: "delete \(label(row))")]
    case .char("r"):
      guard refreshingSince == nil else { return [] }
      refreshingSince = now
      return [
        .request(
          .refresh(visit: visit), method: "event/refresh", params: ["list": .string(view.list)])
      ]
    default: break
    }
    return []
  }

  /// A `query/item` that moves the cursor to `item` when answered.
  func locate(_ item: String) -> AppEffect {
    .request(
      .locate(generation: generation, item: item), method: "query/item",
      params: ["list": .string(view?.list ?? ""), "item": .string(item)])
  }

  /// A row's text, or its id.
  func label(_ row: ListRow) -> String { row.text ?? row.id }

  // MARK: - Overlays

  mutating func actionsKey(_ key: Key, _ menu: ActionMenu) -> [AppEffect] {
    var menu = menu
    var chosen: RowAction?
    switch key {
    case .escape, .char("q"), .char("a"):
      overlay = nil
      return []
    case .char("j"), .down, .tab: menu.cursor = (menu.cursor + 1) % menu.actions.count
    case .char("k"), .up, .backTab: menu.cursor = (menu.cursor + menu.actions.count - 1) % menu.actions.count
    case .enter, .char(" "), .char("l"), .right: chosen = menu.actions[menu.cursor]
    case .char(let character):
      if let digit = character.wholeNumberValue, digit >= 1, digit <= menu.actions.count {
        chosen = menu.actions[digit - 1]
      }
    default: break
    }
    guard let chosen else {
      overlay = .actions(menu)
      return []
    }
    overlay = nil
    return [
      itemRequest(
        "event/action", menu.item, what: "\(chosen.title) on \(menu.title)", [("action", .string(chosen.id))])
    ]
  }

  mutating func searchKey(_ key: Key, _ text: String) -> [AppEffect] {
    switch key {
    case .escape:
      overlay = nil
    case .backspace:
      overlay = text.isEmpty ? nil : .search(String(text.dropLast()))
    case .char(let character):
      overlay = .search(text + String(character))
    case .enter:
      overlay = nil
      // A table is filtered by a live view; other lists are searched.
      if view?.columns.isEmpty == false { return filter(text) }
      guard !text.isEmpty, let list = view?.list else { return [] }
      return [
        .request(
          .search(generation: generation, text: text), method: "query/search",
          params: ["list": .string(list), "text": .string(text), "limit": 1000])
      ]
    default: break
    }
    return []
  }
}
