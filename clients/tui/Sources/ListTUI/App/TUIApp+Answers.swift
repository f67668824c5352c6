// Answers to the app's requests: loading the open list, windows, searches, user events.
import JSON

extension TUIApp {
  mutating func handle(answer tag: RequestTag, _ result: Result<JSONValue, RequestFailure>) -> [AppEffect] {
    switch (tag, result) {
    case (.subscribeAll, .success(let value)):
      picker.setAll(value["lists"]?.arrayValue ?? [])
      if screen == .list, let view, view.layout == nil, !view.windowInFlight {
        // Reconnected with a list open: subscribe to it again (its cursor kept).
        return subscribeRequest(view.list)
      }
      if let list = pendingOpen, picker.entries.contains(where: { $0.list == list }) {
        pendingOpen = nil
        return open(list)
      }
      if let list = pendingOpen, message?.until != .infinity {
        // `--list` may name a list about to be created: open it when it is (didCreate).
        sayUntilMoved("waiting for list '\(list)'…")
      }
    case (.info(let list), .success(let value)):
      infoInFlight.remove(list)
      picker.update(info: value)
      if infoStale.remove(list) != nil { return requestInfo(list) }
    case (.info(let list), .failure):
      infoInFlight.remove(list)
      infoStale.remove(list)

    case (.subscribe(let generation), .success(let value)) where generation == self.generation:
      guard var view else { break }
      let entry = value["lists"]?.arrayValue?.first { $0["list"]?.stringValue == view.list }
      guard let entry, view.load(windowed: entry, now: now) else {
        say("list/subscribe answered an unexpected shape", error: true)
        break
      }
      // A resync keeps the cursor's item; when the window does not hold it, find it.
      let located = view.cursorID.flatMap { view.cursor?.id == $0 ? nil : locate($0) }
      self.view = view
      syncPickerRows()
      return (located.map { [$0] } ?? []) + remakeDerived()
    case (.subscribe(let generation), .failure(let failure)) where generation == self.generation:
      let list = shownList
      closeList()
      if failure.code == -32010, let list, picker.entries.contains(where: { $0.list == list }),
        reopened != list
      {
        // Created since it was asked for (`--list` naming a list about to be created, whose
        // list/didCreate came before this answer): ask once more.
        reopened = list
        return open(list)
      } else if failure.code == -32010, let list {
        // Gone (a restarted daemon without it), or not made yet: open it when it is created, as
        // --list does.
        pendingOpen = list
        sayUntilMoved("'\(list)' is gone (\(failure)); it opens again when it is created", error: true)
      } else {
        say("cannot open the list: \(failure)", error: true)
      }
    case (.window(let generation), .success(let value)) where generation == self.generation:
      guard var view else { break }
      let fits = view.install(windowAnswer: value, now: now)
      self.view = view
      if !fits { return resync() }
    case (.release, _), (.dispose, _):
      break
    case (.viewCreate(let generation), .success) where generation == self.generation:
      return showDerived()
    case (.viewCreate(let generation), .failure(let failure)) where generation == self.generation:
      derived = nil
      say("view/create: \(failure)", error: true)
    case (.viewUpdate(let generation), .failure(let failure)) where generation == self.generation:
      say("view/update: \(failure)", error: true)
    case (.window(let generation), .failure(let failure)) where generation == self.generation:
      view?.windowFailed()
      if connection == .connected { say("list/setWindow: \(failure)", error: true) }
    case (.locate(let generation, let item), .success(let value)) where generation == self.generation:
      guard let view, let layout = view.layout else { break }
      let path = value["item"]?["indexPath"]?.arrayValue
      if value["version"]?.intValue.map(Int.init) != view.version {
        // The list moved on since: ask again at the new version.
        return [locate(item)]
      }
      if let path, path.count == 2, let section = path[0].intValue, let row = path[1].intValue,
        Int(section) < layout.sections.count
      {
        self.view?.moveCursor(toItem: item, row: layout.absolute(section: Int(section), row: Int(row)))
      }
    case (.search(let generation, let text), .success(let value)) where generation == self.generation:
      guard var view else { break }
      let hidden = view.setMatches(searchAnswer: value)
      let number = view.nextMatch(forward: true)
      self.view = view
      var text =
        number == nil ? "no match for '\(text)'" : "'\(text)': match \(number!) of \(view.matches.count)"
      if hidden > 0 { text += " (\(hidden) hidden in collapsed rows)" }
      if value["truncated"]?.boolValue == true { text += " (first 1000)" }
      say(text, error: number == nil)
    case (.refresh(let visit), let result) where visit == self.visit:
      refreshingSince = nil
      switch result {
      case .success(let value): say("refreshed (v\(value["version"]?.intValue ?? 0))")
      case .failure(let failure): say("refresh: \(failure)", error: true)
      }
    case (.explain(let list, let item), let result):
      explained(list, item, result)
    case (.userEvent(let what, let list, let visit), .success):
      let scope = MessageScope(list: list ?? messageScope.list, visit: visit ?? self.visit)
      say(what, about: scope)
    case (.userEvent(let what, let list, let visit), .failure(let failure)):
      let scope = MessageScope(list: list ?? messageScope.list, visit: visit ?? self.visit)
      if connection == .connected { say("\(what): \(failure)", error: true, about: scope) }
    case (let tag, _) where isStale(tag):
      // Sent for a screen the user has left: not said on the one shown now.
      break
    case (_, .failure(let failure)):
      if connection == .connected { say("\(failure)", error: true) }
    default: break
    }
    return []
  }

  /// Whether `tag` was sent for a list opened before (an older generation) or, for a refresh, on
  /// a visit left since.
  func isStale(_ tag: RequestTag) -> Bool {
    switch tag {
    case .subscribe(let sent), .window(let sent), .viewCreate(let sent), .viewUpdate(let sent),
      .search(let sent, _), .locate(let sent, _):
      return sent != generation
    case .refresh(let visit): return visit != self.visit
    case .subscribeAll, .info, .release, .dispose, .userEvent, .explain: return false
    }
  }

  /// Reloads the open list's layout after a changeset that did not fit.
  mutating func resync() -> [AppEffect] {
    guard let list = view?.list else { return [] }
    let keep = view
    generation += 1
    view = ListViewState(list: list, height: listHeight)
    view?.restoreCursor(from: keep)
    return subscribeRequest(list)
  }

  /// `list/info` for the picker's row count of `list`, one in flight per list.
  mutating func requestInfo(_ list: String) -> [AppEffect] {
    guard !infoInFlight.contains(list) else {
      infoStale.insert(list)
      return []
    }
    infoInFlight.insert(list)
    return [.request(.info(list), method: "list/info", params: ["list": .string(list)])]
  }

  /// The picker's row count and version of the open list, from its view state.
  mutating func syncPickerRows() {
    guard let view, view.layout != nil, derived == nil else { return }
    picker.update(
      info: [
        "list": .string(view.list),
        "title": .string(picker.entries.first { $0.list == view.list }?.title ?? view.list),
        "rows": .int(Int64(view.totalRows)), "version": .int(Int64(view.version)),
        "appearance": .string(picker.entries.first { $0.list == view.list }?.appearance ?? "plain"),
        "owner": picker.entries.first { $0.list == view.list }?.owner.map { ["name": .string($0)] } ?? .null,
      ])
  }
}
