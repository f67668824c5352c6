// What a committed change of a live list is: the value a commit returns for its caller to publish and answer.
import ListModel
import ListProtocol

/// One change committed to a ``LiveList`` (or a change that altered nothing): the versions,
/// the changeset, the snapshots on both sides, and what remains to be done — notify
/// ``subscribers`` (once ``durabilityTicket`` is durable) and answer. The list encodes nothing:
/// the server layer turns this into `list/didChange` (Sessions/ChangeFanout.swift) and into
/// the answer (Handlers/ListChanges.swift).
struct ListCommit: Sendable {
  /// The list's id.
  var list: String
  /// The version the change was made on.
  var previousVersion: Int
  /// The version after the change: `previousVersion + 1`, or `previousVersion` when the
  /// change altered nothing (``isNewVersion`` false).
  var version: Int
  var changeset: Changeset
  var before: ListSnapshot
  var after: ListSnapshot
  /// Who made it, and the batch of edits when it was one (kept for `explain`).
  var source: ChangeSource
  /// The subscriptions to notify of it (none when no version was made).
  var subscribers: [ListSubscription]
  /// What the notifications and the answer wait for in `--sync batch` mode.
  var durabilityTicket: DurabilityTicket?

  /// Whether the change made a version (only a snapshot that differs does).
  var isNewVersion: Bool { version != previousVersion }
}

/// What disposing a list leaves to do: tell its subscribers, and answer once
/// ``durabilityTicket`` is durable.
struct ListDisposal: Sendable {
  /// The list's final version.
  var version: Int
  /// The sessions that were subscribed.
  var subscribers: [Session]
  var durabilityTicket: DurabilityTicket?
}
