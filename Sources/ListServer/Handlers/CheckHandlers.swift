// The inspector's checks: check/batchUpdate (what UIKit would do with a batch update) and check/snapshot.
import JSON
import JSONRPC
import ListModel
import ListProtocol

enum CheckHandlers {
  static let requests: [RequestMethod] = [
    .query("check/batchUpdate", inline: false, batchUpdate),
    .query("check/snapshot", inline: false, snapshot),
  ]

  /// `check/batchUpdate {before, update, after?}`: `{valid: true, after}` or `{valid: false,
  /// problems}`, as UIKit's `performBatchUpdates` would judge the update. No list is involved.
  /// O(input + sections + entries log entries).
  static func batchUpdate(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["before", "update", "after"])
    let before = try CheckDecoding.counts(p, "before")
    let update = try CheckDecoding.update(try p.object("update"))
    let after = try p.contains("after") ? try CheckDecoding.counts(p, "after") : nil
    request.respond(CheckDecoding.answer(checkBatchUpdate(before: before, update, after: after)))
  }

  /// `check/snapshot {content | flat}`: every identifier problem a diffable data source would
  /// raise — `{valid: true}` or `{valid: false, problems}`. O(input).
  static func snapshot(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["content", "flat"])
    let (sections, items, cellProblems) = try CheckDecoding.snapshotIdentifiers(p)
    request.respond(CheckDecoding.answer(checkSnapshot(sections: sections, items: items) + cellProblems))
  }
}
