// ListClient: list/explain — why a kept change of a list did what it did.
import JSON

/// The answer of `list/explain`: the change explained, or — asked about an item without a
/// version — that no kept change concerns it.
public enum Explained: Sendable, Equatable {
  /// The change (its ``Change/explain`` set; with an item, only the causes that concern it),
  /// and the answer as it came.
  case change(Change, raw: JSONValue)
  /// No change the history keeps concerns `item`; `oldestVersion` is the oldest explainable
  /// version (nil when the history keeps none).
  case notKept(item: String, oldestVersion: Int?, raw: JSONValue)

  /// The answer as it came.
  public var raw: JSONValue {
    switch self {
    case .change(_, let raw), .notKept(_, _, let raw): return raw
    }
  }
}

extension ListClient {
  /// `list/explain`: the change that produced `version`, with the cause of each part of its
  /// changeset. With `item`, only the causes that concern it; with `item` and no `version`, the
  /// latest kept change that concerns it ("why did this row last change?"). One of `version`
  /// and `item` is required. Throws -32015 when the change's record is no longer kept.
  public func explain(_ list: String, version: Int? = nil, item: String? = nil) async throws -> Explained {
    let object = params(
      list, ifVersion: nil, ("version", version.map { .int(Int64($0)) }), ("item", item.map(JSONValue.string))
    )
    let value = try await call("list/explain", .object(object))
    if value["version"] == .null, let item = value["item"]?.stringValue {
      return .notKept(item: item, oldestVersion: value["oldestVersion"]?.intValue.map(Int.init), raw: value)
    }
    guard let change = Change(value), change.explain != nil else {
      throw UnexpectedAnswer(description: "list/explain answered \(value)")
    }
    return .change(change, raw: value)
  }
}
