// Decodes the wire `explain` member (ExplanationEncoding's output), typed: the source of a change and the cause of each part.
import JSON

/// Why a changeset is what it is: the `explain` member that `list/edit`, `list/replace`,
/// `diff/preview`, `diff/contents`, `list/changesSince` (with `explain: true`) and `list/explain`
/// answer (Protocol/README.md, "Inspector: explanations").
///
/// The members the protocol defines are typed; ``raw`` keeps the JSON as it came, for anything
/// a later protocol adds.
public struct Explanation: Sendable, Equatable {
  /// What made the change: a method, and the session that sent it.
  public struct Source: Sendable, Equatable {
    /// The method (`list/edit`, `list/replace`, `outline/expand`, `demo`, `diff/contents`, …).
    public let method: String
    /// The session that sent it; nil for the daemon's own changes and for `diff/contents`.
    public let session: Int?
    /// That session's client name, if it gave one.
    public let name: String?
  }

  /// One field of a row or section that changed, with its wire values (`null`: not set).
  public struct FieldChange: Sendable, Equatable {
    /// The field's wire name (`text`, `accessories`, `expanded`, `header`, …).
    public let field: String
    /// The value before.
    public let old: JSONValue
    /// The value after.
    public let new: JSONValue
  }

  /// The edit of a `list/edit` batch that caused a change (`{index: 0, op: method}` for the
  /// `outline/*`, `selection/*` and `event/*` methods).
  public struct Edit: Sendable, Equatable {
    /// The edit's index in the batch.
    public let index: Int
    /// Its `op`, or the method.
    public let op: String
  }

  /// The cause of part of a changeset: consecutive rows (sections, ids) of one entry that
  /// changed for one reason.
  public struct Cause: Sendable, Equatable {
    /// The changeset member explained (`itemInserts`, `sectionMoves`, `selected`, …).
    public let change: String
    /// Why (`added`, `removed`, `revealed`, `reordered`, `changed`, …).
    public let reason: String
    /// The index of the entry in its member; nil for id lists and `selectionMode`.
    public let entry: Int?
    /// The first row (section) of the entry covered; 0 for id lists.
    public let offset: Int
    /// How many rows (sections, ids) are covered.
    public let count: Int
    /// For item runs: the id of the first row covered.
    public let item: String?
    /// For section changes, the first section covered; for `fromDeletedSection` and
    /// `toInsertedSection`, the section the row came from or left for.
    public let section: String?
    /// For id lists (`selected`, `deselected`, `expanded`, `collapsed`): every id covered.
    public let items: [String]
    /// For `selectionMode`: the new mode.
    public let mode: String?
    /// For `revealed`, `hidden` and `reparented`: the ancestor or new parent named (nil for
    /// a row reparented to the top level).
    public let parent: String?
    /// For `changedSection`: the section the rows came from.
    public let fromSection: String?
    /// For moves: the row (section) just before the moved run in the new list; nil at the start.
    public let after: String?
    /// For moves: the row (section) just after the moved run in the new list; nil at the end.
    public let before: String?
    /// For `changed`: each field that changed.
    public let fields: [FieldChange]
    /// The edit of the batch that caused it, if one did.
    public let edit: Edit?
    /// The cause as it came.
    public let raw: JSONValue

    /// Decodes a cause; nil without a `change` or a `reason`.
    public init?(_ value: JSONValue) {
      guard let change = value["change"]?.stringValue, let reason = value["reason"]?.stringValue else {
        return nil
      }
      func int(_ key: String) -> Int? { value[key]?.intValue.map(Int.init) }
      func string(_ key: String) -> String? { value[key]?.stringValue }
      self.change = change
      self.reason = reason
      entry = int("entry")
      items = (value["items"]?.arrayValue ?? []).compactMap(\.stringValue)
      offset = int("offset") ?? 0
      count = int("count") ?? (value["items"] == nil ? 1 : items.count)
      item = string("item")
      section = string("section")
      mode = string("mode")
      parent = string("parent")
      fromSection = string("fromSection")
      after = string("after")
      before = string("before")
      fields = (value["fields"]?.arrayValue ?? []).compactMap { field in
        field["field"]?.stringValue.map {
          FieldChange(field: $0, old: field["old"] ?? .null, new: field["new"] ?? .null)
        }
      }
      edit = value["edit"].flatMap { edit in
        guard let index = edit["index"]?.intValue, let op = edit["op"]?.stringValue else { return nil }
        return Edit(index: Int(index), op: op)
      }
      raw = value
    }
  }

  /// The source of the change.
  public let source: Source
  /// The causes, in the changeset's member order; together they cover every part of it once.
  public let causes: [Cause]
  /// The member as it came.
  public let raw: JSONValue

  /// Decodes an `explain` member `{source, causes}`; nil if it does not have that shape.
  public init?(_ value: JSONValue) {
    guard let method = value["source"]?["method"]?.stringValue, let causes = value["causes"]?.arrayValue
    else { return nil }
    let by = value["source"]?["by"]
    source = Source(
      method: method, session: by?["session"]?.intValue.map(Int.init), name: by?["name"]?.stringValue)
    var decoded: [Cause] = []
    for cause in causes {
      guard let cause = Cause(cause) else { return nil }
      decoded.append(cause)
    }
    self.causes = decoded
    raw = value
  }
}
