// A list's owner: who receives its user events, and how a list is orphaned and claimed.

extension LiveList {
  /// The list's owner, if it still has a reachable one.
  var owner: (any ListOwner)? {
    state.withLock { $0.owner }.flatMap { $0.isReachable ? $0 : nil }
  }

  /// Drops the owner if it is `owner` (its session closed) and returns the orphaning's
  /// number (for ``isStillOrphaned(_:)``), or nil if `owner` did not own the list.
  @discardableResult
  func releaseOwner(_ owner: any ListOwner) -> Int? {
    state.withLock { state in
      guard let current = state.owner, current === owner else { return nil }
      state.owner = nil
      state.orphanings += 1
      return state.orphanings
    }
  }

  /// Whether `orphaning` (from ``releaseOwner(_:)``) is still the list's state: nobody claimed it since.
  func isStillOrphaned(_ orphaning: Int) -> Bool {
    state.withLock { $0.owner == nil && $0.orphanings == orphaning && !$0.isDisposed }
  }

  /// Checks that `session` may act as the owner: it owns the list, the list has no reachable
  /// owner, or `force` is given. Returns the owner it displaces (to be told), if any.
  /// Throws ``ListError/notOwner(list:owner:action:)`` otherwise.
  func checkOwnership(
    by session: Session, force: Bool, action: String
  ) throws(ListError) -> (any ListOwner)? {
    guard let owner, owner !== session else { return nil }
    if !force { throw .notOwner(list: id, owner: owner, action: action) }
    return owner
  }

  /// Makes `session` the owner (`list/claim`). The caller checks ``Session/isDetached`` after.
  func setOwner(_ session: Session) {
    state.withLock { $0.owner = session }
  }
}
