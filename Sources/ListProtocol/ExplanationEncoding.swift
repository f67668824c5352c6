// Encodes an explanation (the causes of a changeset's entries) as the wire `explain` member.
import JSON
import ListModel

/// Causes → `{"source": {method, by?}, "causes": […]}` (Protocol/README.md, "Inspector:
/// explanations").
public enum ExplanationEncoding {
  /// Explains `changeset` (= `diff(old, new)`) made by `source`. O(the explanation).
  public static func explain(
    _ changeset: Changeset, from old: ListSnapshot, to new: ListSnapshot, source: ChangeSource
  ) -> JSONValue {
    encode(ListSnapshot.explain(changeset, from: old, to: new, edits: source.edits?.edits), source: source)
  }

  /// Explains a kept change. O(its diff + the explanation).
  public static func explain(_ record: ChangeRecord) -> JSONValue {
    explain(diff(record.before, record.after), from: record.before, to: record.after, source: record.source)
  }

  /// The wire form of `causes`. O(causes + the values they carry).
  public static func encode(_ causes: [ChangeCause], source: ChangeSource) -> JSONValue {
    var origin: JSONObject = ["method": .string(source.method)]
    if let by = source.by { origin.append("by", by) }
    return ["source": .object(origin), "causes": .array(causes.map { cause($0, source: source) })]
  }

  public static func cause(_ cause: ChangeCause, source: ChangeSource) -> JSONValue {
    var object: JSONObject = ["change": .string(cause.change.rawValue)]
    switch cause.change {
    case .selected, .deselected, .expanded, .collapsed:
      object.append("items", .array(cause.ids.map(JSONValue.string)))
    case .selectionMode:
      object.append("mode", .string(cause.ids.first ?? ""))
    case .columns, .emptyState, .isEditing:
      break
    case .sectionDeletes, .sectionInserts, .sectionMoves, .sectionReloads:
      object.append("entry", .int(Int64(cause.entry)))
      object.append("offset", .int(Int64(cause.offset)))
      object.append("count", .int(Int64(cause.count)))
      object.append("section", .string(cause.ids.first ?? ""))
    default:
      object.append("entry", .int(Int64(cause.entry)))
      object.append("offset", .int(Int64(cause.offset)))
      object.append("count", .int(Int64(cause.count)))
      object.append("item", .string(cause.ids.first ?? ""))
    }
    object.append("reason", .string(cause.reason.rawValue))
    if cause.reason == .reparented && cause.related == nil {
      object.append("parent", .null)  // it became a root
    }
    if let related = cause.related {
      switch cause.reason {
      case .revealed, .hidden, .reparented: object.append("parent", .string(related))
      case .changedSection: object.append("fromSection", .string(related))
      default: object.append("section", .string(related))
      }
    }
    if cause.reason == .reordered || cause.reason == .changedSection {
      object.append("after", cause.after.map(JSONValue.string) ?? .null)
      object.append("before", cause.before.map(JSONValue.string) ?? .null)
    }
    if !cause.fields.isEmpty {
      object.append(
        "fields",
        .array(
          cause.fields.map { change in
            ["field": .string(change.field.rawValue), "old": value(change.old), "new": value(change.new)]
          }))
    }
    if let edit = cause.edit, let edits = source.edits {
      let index = edits.origins.isEmpty ? edit : edits.origins[edit]
      let op = index < edits.ops.count ? edits.ops[index] : source.method
      object.append("edit", ["index": .int(Int64(index)), "op": .string(op)])
    }
    return .object(object)
  }

  /// A field value as JSON; an unset optional is null.
  public static func value(_ value: FieldChange.Value) -> JSONValue {
    switch value {
    case .absent: return .null
    case .string(let string): return .string(string)
    case .json(let json): return json
    case .bool(let bool): return .bool(bool)
    case .int(let int): return .int(Int64(int))
    case .accessories(let accessories): return .array(accessories.map(RowEncoding.accessory))
    case .actions(let actions): return RowEncoding.actions(actions)
    }
  }
}
