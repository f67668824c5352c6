// The inspector's checks: what UIKit would do with a batch update, and a diffable snapshot's identifier rules.
import JSON

/// The answer of `check/batchUpdate` or `check/snapshot`.
public struct CheckAnswer: Sendable, Equatable {
  /// One broken rule: its stable id, UIKit's message, and where (a section index, an index
  /// path `[section, item]`, identifiers, or nil).
  public struct Problem: Sendable, Equatable {
    public var rule: String
    public var message: String
    public var at: JSONValue?
  }

  public var valid: Bool
  /// The item counts of each section after the update (`check/batchUpdate`, when valid).
  public var after: [Int]?
  /// Every problem, in the order the spec gives (empty when valid).
  public var problems: [Problem]

  /// Reads an answer; nil members become defaults. O(size of the answer).
  public init(_ result: JSONValue) {
    valid = result["valid"]?.boolValue ?? false
    after = result["after"]?.arrayValue?.compactMap { $0.intValue.map(Int.init) }
    problems = (result["problems"]?.arrayValue ?? []).map {
      Problem(rule: $0["rule"]?.stringValue ?? "", message: $0["message"]?.stringValue ?? "", at: $0["at"])
    }
  }
}

extension ListClient {
  /// `check/batchUpdate`: whether UIKit would accept `update` (listd's changeset format or UIKit
  /// index paths) on sections of `before` (counts `[4, 0, 7]` or a content), with `after` if given.
  public func checkBatchUpdate(before: JSONValue, update: JSONValue, after: JSONValue? = nil) async throws
    -> CheckAnswer
  {
    var params: JSONObject = ["before": before, "update": update]
    if let after { params.append("after", after) }
    return CheckAnswer(try await call("check/batchUpdate", .object(params)))
  }

  /// `check/batchUpdate` with the params object as given (`{before, update, after?}`).
  public func checkBatchUpdate(_ params: JSONValue) async throws -> CheckAnswer {
    CheckAnswer(try await call("check/batchUpdate", params))
  }

  /// `check/snapshot` of a content: duplicate item and section identifiers, all at once.
  public func checkSnapshot(content: JSONValue) async throws -> CheckAnswer {
    CheckAnswer(try await call("check/snapshot", ["content": content]))
  }

  /// `check/snapshot` of flat identifiers (`{sections: [id], items: [{id, section?}]}`), where an
  /// item may be in no section.
  public func checkSnapshot(flat: JSONValue) async throws -> CheckAnswer {
    CheckAnswer(try await call("check/snapshot", ["flat": flat]))
  }
}
