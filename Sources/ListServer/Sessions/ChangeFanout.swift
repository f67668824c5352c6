// A committed change told to a list's subscribers: `list/didChange`, encoded once per form.
import JSON
import ListModel
import ListProtocol

/// Turns a ``ListCommit`` into the `list/didChange` notifications of its subscribers.
enum ChangeFanout {
  /// The `list/didChange` params `{list, version, previousVersion, changeset}` of a change
  /// whose changeset is `encoded`. (`list/changesSince` answers the same.)
  static func params(list: String, version: Int, previousVersion: Int, changeset encoded: JSONValue)
    -> JSONValue
  {
    [
      "list": .string(list), "version": .int(Int64(version)), "previousVersion": .int(Int64(previousVersion)),
      "changeset": encoded,
    ]
  }

  /// The params of a kept change: as published, or its changeset encoded with every row.
  static func params(list: String, _ change: KeptChange) -> JSONValue {
    switch change.form {
    case .published(let params as JSONValue):
      return params
    case .published(let other):
      preconditionFailure("a change is published as its list/didChange params, not \(type(of: other))")
    case .changeset(let changeset):
      return params(
        list: list, version: change.version, previousVersion: change.previousVersion,
        changeset: ChangesetEncoding.changeset(changeset))
    }
  }

  /// Publishes `commit`: its `list/didChange` params (the changeset with every row) are kept
  /// in the list's history, for catch-ups (`list/changesSince`, a subscription from a past
  /// version) to replay, and queued to every subscriber once its ticket is durable (each
  /// subscription's gate orders it with that session's answers); a subscriber that can no
  /// longer take it is dropped. Returns the changeset's full encoding (for the answer to
  /// share), nil for a change that made no version. Encodes on the caller's thread, the list's
  /// queue: once in full, once per distinct window. O(size of the changeset · forms).
  @discardableResult
  static func publish(_ commit: ListCommit, of list: LiveList) -> JSONValue? {
    guard commit.isNewVersion else { return nil }
    let full = ChangesetEncoding.changeset(commit.changeset)
    list.keep(
      published: params(
        list: commit.list, version: commit.version, previousVersion: commit.previousVersion, changeset: full),
      ofVersion: commit.version)
    let subscribers = commit.subscribers
    guard !subscribers.isEmpty else { return full }
    let bodies = notificationBodies(commit, full: full)
    let (version, old, new) = (commit.version, commit.before, commit.after)
    DurabilityTicket.afterDurable(commit.durabilityTicket) {
      for (subscriber, body) in zip(subscribers, bodies)
      where !subscriber.deliver(version: version, body: body, old: old, new: new) {
        list.unsubscribe(subscriber.session.id)
      }
    }
    return full
  }

  /// The encoded `didChange` for each subscriber: one encoding for every full subscriber
  /// (`full`, the changeset with every row), one per distinct window for the windowed ones
  /// (their rows filtered by the window). Each body shares the bytes of the others of its form.
  private static func notificationBodies(_ commit: ListCommit, full: JSONValue) -> [[UInt8]] {
    var fullBody: [UInt8]?
    var windowed: [RowWindow: [UInt8]] = [:]
    func body(_ changeset: JSONValue) -> [UInt8] {
      Session.encodeNotification(
        "list/didChange",
        params(
          list: commit.list, version: commit.version, previousVersion: commit.previousVersion,
          changeset: changeset))
    }
    return commit.subscribers.map { subscriber in
      guard let window = subscriber.window else {
        if let fullBody { return fullBody }
        let made = body(full)
        fullBody = made
        return made
      }
      if let made = windowed[window] { return made }
      let made = body(
        ChangesetEncoding.changeset(
          commit.changeset, rows: .window(window, old: commit.before, new: commit.after)))
      windowed[window] = made
      return made
    }
  }
}
