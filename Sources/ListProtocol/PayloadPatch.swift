// The `patchItems` edit: a JSON Merge Patch (RFC 7396) of one item's payload, in its wire form.
import JSON
import JSONRPC
import ListModel

/// One element of a `patchItems` edit: `{"id", …merge patch of the payload…}`.
///
/// The patch is merged into the item's payload as rows show it (``RowEncoding/appendPayload(_:to:)``:
/// `text`, `secondaryText`, `image`, `data`, `accessories`, the actions, `selectable`, `movable`):
/// a member the patch does not name is kept, a `null` member is removed (back to its default),
/// objects (`data`) merge member by member and anything else replaces the old value. The
/// result is decoded like an item of content, so a bad value is refused naming its field.
public struct PayloadPatch: Sendable {
  /// The item to patch.
  public let item: String
  /// The patch members (without `id`), first occurrence of each name.
  public let members: JSONObject
  /// The wire path of the patch object (`edits[2].items[0]`), for errors.
  public let path: String

  /// Reads and checks one patch object: only payload members (and `id`), each of the right type
  /// unless `null`. O(size of the patch).
  public init(_ params: Params) throws(ResponseError) {
    try params.requireKnown(["id"] + ContentDecoding.payloadKeys)
    item = try params.string("id")
    path = params.path
    var members = JSONObject()
    for (key, value) in try params.object() where key != "id" && members[key] == nil {
      members.append(key, value)
    }
    self.members = members
    // Check the values now, so a bad patch fails before anything is applied; `null` removes.
    _ = try ContentDecoding.payload(
      Params(.object(JSONObject(members.filter { !$0.value.isNull })), path: path), item: item)
  }

  /// The payload after the patch; `payload` itself when the patch changes nothing.
  /// O(size of the payload + size of the patch).
  public func applied(to payload: ItemPayload) throws(ResponseError) -> ItemPayload {
    var current = JSONObject()
    RowEncoding.appendPayload(payload, to: &current)
    let merged = MergePatch.apply(.object(members), to: .object(current))
    if merged == .object(current) { return payload }
    let result = try ContentDecoding.payload(Params(merged, path: path), item: item)
    return result == payload ? payload : result
  }
}

/// JSON Merge Patch, RFC 7396 §2.
public enum MergePatch {
  /// `patch` applied to `target`: an object patch merges member by member (`null` removes the
  /// member; a non-object target is replaced by `{}` first); any other patch replaces the target.
  /// O(size of the patch × members of the objects it touches).
  public static func apply(_ patch: JSONValue, to target: JSONValue?) -> JSONValue {
    guard case .object(let changes) = patch else { return patch }
    var result: JSONObject
    if case .object(let object)? = target { result = object } else { result = JSONObject() }
    for (key, value) in changes {
      if value.isNull {
        result[key] = nil
      } else {
        result[key] = apply(value, to: result[key])
      }
    }
    return .object(result)
  }
}
