// What a subscription delivers of a list's content: the full snapshot, a window of rows, or nothing.
import JSON
import JSONRPC
import ListModel

/// The `snapshot` (and `window`) params of `list/subscribe`: what its answer carries for each
/// list, and what a `list/didCreate` carries for a list created later when the subscription is
/// to every list.
public enum SnapshotForm: Sendable, Equatable {
  case full
  case window(offset: Int, limit: Int)
  case none

  public static let names = ["full", "window", "none"]

  /// Reads `snapshot` and `window` from `list/subscribe` params. `snapshot` defaults to `window`
  /// when a `window` is given, else to `full`; a `window` with `full` or `none` contradicts it.
  public init(_ p: Params, maxWindow: Int) throws(ResponseError) {
    let name = try p.optionalString("snapshot")
    if let name, !Self.names.contains(name) {
      throw p.mismatch("snapshot", "one of full, window, none", .string(name))
    }
    guard let w = try p.optionalObject("window") else {
      if name == "window" { throw p.missing("window") }
      self = name == "none" ? .none : .full
      return
    }
    if let name, name != "window" {
      throw p.invalid("window", "is only for \"snapshot\": \"window\", not \"\(name)\"")
    }
    try w.requireKnown(["offset", "limit"])
    let offset = try w.int("offset")
    let limit = try w.int("limit")
    guard offset >= 0 else { throw w.invalid("offset", "must be 0 or more, got \(offset)") }
    guard limit >= 0 && limit <= maxWindow else {
      throw w.invalid("limit", "must be between 0 and \(maxWindow), got \(limit)")
    }
    self = .window(offset: offset, limit: limit)
  }

  /// The window of a windowed subscription, nil for the other forms.
  public var window: RowWindow? {
    if case .window(let offset, let limit) = self { return RowWindow(offset: offset, limit: limit) }
    return nil
  }

  /// Appends `snapshot` (full), or `window`, `sections` and `selection` (a windowed
  /// subscription), describing `content` to `object`. O(rows carried).
  public func append(_ content: ListSnapshot, to object: inout JSONObject) {
    switch self {
    case .full: object.append("snapshot", RowEncoding.snapshot(content))
    case .window(let offset, let limit):
      WindowEncoding.appendWindowed(content, window: RowWindow(offset: offset, limit: limit), to: &object)
    case .none: break
    }
  }
}
