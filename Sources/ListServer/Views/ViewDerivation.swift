// What makes a list a live view: its source and the engine that keeps it up to date.
import JSON
import JSONRPC
import ListModel
import ListProtocol
import Synchronization

/// A view list's link to its source. The engine runs on the source's queue (every source change
/// and every `view/update` is serialized there) and commits to the view list on the view's
/// queue, entered synchronously from the source's: a view's versions follow its source's
/// changes in order. Nothing ever waits on a source's queue from a view's, so there is no cycle.
final class ViewDerivation: Sendable {
  /// The list (or view) the view is derived from.
  let source: LiveList
  let engine: Mutex<ViewEngine>

  init(source: LiveList, engine: ViewEngine) {
    self.source = source
    self.engine = Mutex(engine)
  }

  /// The definition in force.
  var definition: ViewDefinition { engine.withLock { $0.definition } }

  /// Follows a committed source change into `view`. Must run on the source's queue.
  func follow(_ snapshot: ListSnapshot, changeset: Changeset, into view: LiveList) {
    let update = engine.withLock { $0.update(to: snapshot, changeset: changeset) }
    view.queue.sync {
      defer { view.reclaimIdentifiersIfNeeded() }  // the end of this turn of the view's queue
      do {
        try commit(update, to: view, method: "source change")
      } catch {
        // Only a disposed view lands here (it is being disposed with its source).
      }
    }
  }

  /// Changes the definition (`view/update`): one changeset. Must run on the source's queue.
  func redefine(_ definition: ViewDefinition, view: LiveList, by session: Session) throws(ResponseError)
    -> JSONValue
  {
    let update = engine.withLock { $0.redefine(definition) }
    let result = view.queue.sync { () -> Result<JSONValue, ResponseError> in
      defer { view.reclaimIdentifiersIfNeeded() }  // the end of this turn of the view's queue
      do throws(ResponseError) {
        return .success(try commit(update, to: view, method: "view/update", by: session).answer().result)
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Applies an engine update to the view's committed snapshot as one change. On the view's queue.
  @discardableResult
  private func commit(
    _ update: ViewUpdate, to view: LiveList, method: String, by session: Session? = nil
  ) throws(ResponseError) -> PublishedChange {
    try ListChanges.mutate(view, ifVersion: nil, source: ChangeSource(method: method, by: session?.ownerInfo))
    {
      snapshot throws(ResponseError) -> Changeset in
      var changeset: Changeset
      do throws(ListModelError) {
        changeset = try engine.withLock { engine throws(ListModelError) in
          try engine.apply(update, to: &snapshot)
        }
      } catch {
        throw ResponseError(.internalError, "view '\(view.id)' could not follow its source: \(error.message)")
      }
      let state = Self.emptyState(of: snapshot, definition: definition)
      if state != snapshot.emptyState {
        snapshot.setEmptyState(state)
        changeset.emptyState = .some(state)
      }
      return changeset
    }
  }

  /// The empty state a view reports: the search variant (`ContentUnavailableView.search`) while
  /// its text filter matches nothing, else none. O(sections).
  static func emptyState(of snapshot: ListSnapshot, definition: ViewDefinition) -> EmptyState? {
    guard let query = definition.filter?.query, !query.isEmpty, snapshot.numberOfItems() == 0 else {
      return nil
    }
    return .search(query: query)
  }

  /// The refusal of an edit of a view: -32014 naming the view and its source.
  static func readOnly(_ view: LiveList, source: LiveList, method: String) -> ResponseError {
    ResponseError(
      .invalidEdit,
      "'\(view.id)' is a view of '\(source.id)' and cannot be edited (\(method)): edit '\(source.id)', or change the view with view/update",
      data: [
        "list": .string(view.id), "view": .string(view.id), "source": .string(source.id),
        "reason": "read-only view",
      ])
  }
}

extension LiveList {
  /// Throws -32014 if this list is a view (its rows come from its source).
  func refuseEditIfView(_ method: String) throws(ResponseError) {
    if let derivation { throw ViewDerivation.readOnly(self, source: derivation.source, method: method) }
  }

  /// The list whose owner hears a user event of this list: the list itself, or for a view the
  /// source it comes from (through views of views).
  var eventTarget: LiveList {
    var list = self
    while let derivation = list.derivation { list = derivation.source }
    return list
  }
}
