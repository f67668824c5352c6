// Applies a decoded `list/edit` batch atomically, computing `patchItems` payloads in turn.
import JSONRPC
import ListModel

extension DecodedEdits {
  /// Applies the batch to `snapshot` and returns the changeset; on error `snapshot` is unchanged
  /// and the error names the wire edit (`data.editIndex`). Without patches this is
  /// ``ListSnapshot/applyAndDiff(_:)``; with patches the edits run one by one so each patch
  /// merges into the payload left by the edits before it. O(sum of the edits' costs + diff).
  func applyAndDiff(to snapshot: inout ListSnapshot, list: String) throws(ResponseError) -> Changeset {
    if patches.isEmpty {
      do throws(ListModelError) {
        return try snapshot.applyAndDiff(edits)
      } catch {
        throw ResponseError.model(error, list: list, editIndex: error.editIndex.map { origins[$0] })
      }
    }
    let old = snapshot
    for (index, planned) in edits.enumerated() {
      var edit = planned
      do throws(ResponseError) {
        if let patch = patches[index] {
          guard let payload = snapshot.payload(of: patch.item) else {
            throw ResponseError.model(
              ListModelError(.unknownItem(patch.item)), list: list, editIndex: origins[index])
          }
          edit = .setPayload(item: patch.item, payload: try patch.applied(to: payload))
        }
        do throws(ListModelError) {
          try snapshot.apply(edit)
        } catch {
          throw ResponseError.model(error, list: list, editIndex: origins[index])
        }
      } catch {
        snapshot = old
        throw error
      }
    }
    return ListSnapshot.diff(from: old, to: snapshot)
  }
}
