// Applies a decoded `list/edit` batch atomically, computing `patchItems` payloads in turn.
import JSONRPC
import ListModel

extension DecodedEdits {
  /// Applies the edits to `snapshot` and returns the changeset; on error `snapshot` is unchanged
  /// and, for a `batch` (`list/edit`), the error names the wire edit (`data.editIndex`). Without
  /// patches this is ``ListSnapshot/applyAndDiff(_:)``; with patches the edits run one by one so
  /// each patch merges into the payload left by the edits before it.
  /// O(sum of the edits' costs + diff).
  /// Without `diffing` the changeset is not computed (an empty one comes back): replaying a
  /// journal needs only the result. O(sum of the edits' costs) then.
  public func applyAndDiff(to snapshot: inout ListSnapshot, list: String, batch: Bool, diffing: Bool = true)
    throws(ResponseError) -> Changeset
  {
    func failure(_ error: ListModelError, at index: Int?) -> ResponseError {
      guard batch else { return .model(ListModelError(error.kind), list: list) }
      return .model(error, list: list, editIndex: index.map { origins[$0] })
    }
    if patches.isEmpty {
      do throws(ListModelError) {
        guard diffing else {
          try snapshot.apply(edits)
          return Changeset()
        }
        return try snapshot.applyAndDiff(edits)
      } catch {
        throw failure(error, at: error.editIndex)
      }
    }
    let old = snapshot
    for (index, planned) in edits.enumerated() {
      var edit = planned
      do throws(ResponseError) {
        if let patch = patches[index] {
          guard let payload = snapshot.payload(of: patch.item) else {
            throw failure(ListModelError(.unknownItem(patch.item)), at: index)
          }
          do throws(ResponseError) {
            edit = .setPayload(item: patch.item, payload: try patch.applied(to: payload))
          } catch {
            throw error.naming(editIndex: origins[index])
          }
        }
        do throws(ListModelError) {
          try snapshot.apply(edit)
        } catch {
          throw failure(error, at: index)
        }
      } catch {
        snapshot = old
        throw error
      }
    }
    // As a batch applied at once: a reload holds for an item that a later edit re-created.
    snapshot.remarkReloadedItems(of: edits)
    return diffing ? ListSnapshot.diff(from: old, to: snapshot) : Changeset()
  }
}
