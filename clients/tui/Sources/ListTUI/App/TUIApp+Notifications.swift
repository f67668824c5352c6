// Notifications from the daemon: changes of the open list, lists created, changed and disposed.
import JSON

extension TUIApp {
  mutating func handle(notification method: String, _ params: JSONValue) -> [AppEffect] {
    guard let list = params["list"]?.stringValue else { return [] }
    switch method {
    case "list/didChange":
      let version = Int(params["version"]?.intValue ?? 0)
      picker.noteVersion(list, version)
      guard view?.list == list, var view else { return requestInfo(list) }
      do {
        try view.apply(didChange: params, now: now)
        self.view = view
        syncPickerRows()
      } catch {
        self.view = view
        return resync()
      }
    case "list/didCreate":
      guard list != derived?.view else { return [] }
      picker.update(info: params["info"] ?? ["list": .string(list)])
      if pendingOpen == list {
        pendingOpen = nil
        message = nil
        return open(list)
      }
    case "list/didDispose":
      picker.remove(list)
      if view?.list == list || derived?.source == list {
        closeList()
        say("'\(list)' was disposed", error: true)
      }
    default: break
    }
    return []
  }
}
