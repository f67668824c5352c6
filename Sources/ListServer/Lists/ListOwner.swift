// Who answers a list's user events: a client session, or the daemon itself (demo lists).

/// Who owns a list, as list info and ownership refusals name it (`{session, name?}` on the wire).
struct OwnerIdentity: Sendable, Equatable {
  /// The owning session's id (0: the daemon itself).
  let session: Int
  /// The client name it gave, if any.
  let name: String?
}

/// A user event as the owner receives it (`owner/event`): what the user did to `item` of `list`,
/// checked against `version`, and who did it. The handler layer encodes it.
struct OwnerEvent: Sendable {
  /// An operand of the event (`isOn`, `action`, `before`, …).
  enum Operand: Sendable {
    case bool(Bool)
    case string(String)
  }

  /// `select`, `deselect`, `toggle`, `action`, `delete` or `move`.
  let kind: String
  /// The list whose owner receives it (a view's source, for an event on a view).
  let list: String
  /// The view the event happened on, if any.
  let view: String?
  /// The item, if any.
  let item: String?
  /// The event's operands, in the order the wire carries them.
  let operands: [(key: String, value: Operand)]
  /// The viewer's session.
  let session: Int
  /// The version of `list` the event was checked against.
  let version: Int

  /// The string operand `key`, if any.
  func string(_ key: String) -> String? {
    for (name, value) in operands where name == key { if case .string(let string) = value { return string } }
    return nil
  }

  /// The boolean operand `key`, if any.
  func bool(_ key: String) -> Bool? {
    for (name, value) in operands where name == key { if case .bool(let flag) = value { return flag } }
    return nil
  }
}

/// The receiver of a list's user events (`owner/event`) and refresh requests (`owner/refresh`).
protocol ListOwner: AnyObject, Sendable {
  /// Who the owner is, as list info shows it.
  var identity: OwnerIdentity { get }
  /// Whether the owner can still receive events (a session that closed cannot).
  var isReachable: Bool { get }
  /// Tells the owner it no longer owns `list`: another session disposed it (`disposed`) or
  /// claimed it (`claimed`) with `force`; `by` is that session.
  func lost(_ list: LiveList, reason: String, by: OwnerIdentity)
  /// Delivers a user event.
  func deliver(event: OwnerEvent, on list: LiveList)
  /// Asks the owner to refresh `list`; `completion` gets nil once it has, or why it did not
  /// (``ListError/refreshFailed(list:_:)``). Called exactly once, on any thread.
  func refresh(
    _ list: LiveList, viewer: Int, timeout: Duration, completion: @escaping @Sendable (ListError?) -> Void
  )
}
