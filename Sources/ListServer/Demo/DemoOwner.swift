// The daemon's own owner of the demo lists: answers user events the way an app would.
import Dispatch
import JSON
import JSONRPC
import ListModel
import ListProtocol

/// Owns the demo lists: a toggle flips, a favorite gets a star, delete deletes, a move moves,
/// and a refresh of the live list starts a new job. Every change goes through the list's queue
/// like any client's, so viewers see it as a `list/didChange`.
final class DemoOwner: ListOwner {
  /// Called on the list's queue for a refresh, to change the list; nil means nothing to do.
  let onRefresh: (@Sendable (inout ListSnapshot) -> Void)?

  init(onRefresh: (@Sendable (inout ListSnapshot) -> Void)? = nil) {
    self.onRefresh = onRefresh
  }

  var identity: OwnerIdentity { OwnerIdentity(session: 0, name: "listd demo") }
  var isReachable: Bool { true }

  func lost(_ list: LiveList, reason: String, by: OwnerIdentity) {}

  func deliver(event: OwnerEvent, on list: LiveList) {
    guard let item = event.item else { return }
    let kind = event.kind
    list.queue.async {
      defer { list.reclaimIdentifiersIfNeeded() }  // the end of this turn of the list's queue
      _ = try? ListChanges.mutate(list, ifVersion: nil, source: ChangeSource(method: "demo")) {
        snapshot throws(ResponseError) in
        do throws(ListModelError) {
          return try snapshot.applyAndDiff(Self.edits(for: kind, item: item, event: event, in: snapshot))
        } catch {
          throw ResponseError.model(error, list: list.id)
        }
      }
    }
  }

  /// The edits an app would make for a user event.
  static func edits(for kind: String, item: String, event: OwnerEvent, in snapshot: ListSnapshot)
    -> [ListEdit]
  {
    guard var payload = snapshot.payload(of: item) else { return [] }
    switch kind {
    case "toggle":
      let isOn = event.bool("isOn") ?? false
      payload.accessories = payload.accessories.map {
        if case .toggle = $0 { .toggle(isOn: isOn) } else { $0 }
      }
      return [.setPayload(item: item, payload: payload)]
    case "delete":
      return [.deleteItems([item])]
    case "action":
      switch event.string("action") {
      case "delete": return [.deleteItems([item])]
      case "favorite":
        if payload.accessories.contains(.image("star.fill")) {
          payload.accessories.removeAll { $0 == .image("star.fill") }
        } else {
          payload.accessories.insert(.image("star.fill"), at: 0)
        }
        return [.setPayload(item: item, payload: payload)]
      case "archive":
        payload.content.secondaryText = "archived"
        return [.setPayload(item: item, payload: payload)]
      default: return []
      }
    case "move":
      if let before = event.string("before") { return [.moveItemBefore(item, item: before)] }
      if let after = event.string("after") { return [.moveItemAfter(item, item: after)] }
      if let section = event.string("section") { return [.moveItemToSection(item, section: section)] }
      return []
    default:
      return []  // select/deselect: the daemon already changed the selection
    }
  }

  func refresh(
    _ list: LiveList, viewer: Int, timeout: Duration, completion: @escaping @Sendable (ListError?) -> Void
  ) {
    // Like a network reload: answer a moment later, after the change.
    list.queue.asyncAfter(deadline: .now() + .milliseconds(300)) { [onRefresh] in
      if let onRefresh {
        defer { list.reclaimIdentifiersIfNeeded() }  // the end of this turn of the list's queue
        _ = try? ListChanges.mutate(list, ifVersion: nil, source: ChangeSource(method: "demo")) {
          snapshot throws(ResponseError) in
          let old = snapshot
          onRefresh(&snapshot)
          return diff(old, snapshot)
        }
      }
      completion(nil)
    }
  }
}
