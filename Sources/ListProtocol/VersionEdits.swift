// The list/edit batch between two versions of a list, checked the way list/edit would apply it.
import JSON
import JSONRPC
import ListModel

/// The `edits` of `list/diff`: ``ListSnapshot/editScript(from:to:)`` as wire edits, checked by
/// decoding them as `list/edit` does and applying them to the `from` side, so the answer is
/// exact or an error, never a batch that would do something else.
public enum VersionEdits {
  /// The wire edits that take `old` to `new` with `changeset` (= `diff(old, new)`), and their
  /// decoding (for explanations that name the edit). Throws -32603 naming the versions if the
  /// script does not give exactly that (a bug). O(the script + its application + a diff).
  public static func edits(
    from old: ListSnapshot, to new: ListSnapshot, changeset: Changeset, list: String, versions: (Int, Int)
  ) throws(ResponseError) -> (wire: JSONValue, decoded: DecodedEdits) {
    func failure(_ why: String) -> ResponseError {
      .internalError(
        "cannot make the edits from version \(versions.0) to \(versions.1) of list '\(list)': \(why)")
    }
    guard let script = ListSnapshot.editScript(from: old, to: new) else {
      throw failure("the versions differ in selection mode")
    }
    let wire = JSONValue.array(script.map(EditEncoding.edit))
    let decoded = try EditDecoding.edits(Params(["edits": wire]))
    var result = old
    let made = try decoded.applyAndDiff(to: &result, list: list, batch: true)
    guard result == new else { throw failure("the edits make another content") }
    guard ChangesetEncoding.changeset(made) == ChangesetEncoding.changeset(changeset) else {
      throw failure("the edits make another changeset")
    }
    return (wire, decoded)
  }
}
