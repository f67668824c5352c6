// What a live list refuses, as model values: the handler layer maps each onto its JSON-RPC error.

/// Why a ``LiveList`` refused an operation. The message texts are the list's own (they name the
/// list and the versions it keeps); the codes and `data` members are the protocol's
/// (Handlers/ListErrors.swift).
enum ListError: Error, Sendable {
  /// The list is disposed, or there is none by this id (-32010).
  case unknownList(String)
  /// A list by this id exists already (-32013).
  case duplicateList(String)
  /// `ifVersion` is not the committed version (-32801).
  case staleVersion(list: String, expected: Int, current: Int)
  /// The change could not be written to the journal, so it was not made (-32020).
  case journalFailed(list: String, JournalError)
  /// The action needs ownership, which `owner` has (-32018).
  case notOwner(list: String, owner: any ListOwner, action: String)
  /// A parameter the list cannot take: a version it never had, a window without a
  /// subscription (-32602 naming `field`).
  case invalidParams(String, field: String)
  /// A version, or a change, the list had but no longer keeps (-32015).
  case historyUnavailable(String, oldestVersion: Int, currentVersion: Int)
  /// The owner did not refresh the list (`-32016`, `-32017`, or the owner's own error code).
  case refreshFailed(list: String, RefreshFailure)

  /// Why an owner did not refresh a list.
  enum RefreshFailure: Sendable {
    /// It answered with an error: its code and message.
    case answered(code: Int, message: String)
    /// It did not answer within `timeout`.
    case timedOut(Duration)
    /// It went away before answering.
    case ownerGone
  }
}
