// Time travel: list/diff between two versions, query/content, and list/subscribe from a past version.
import JSON
import JSONRPC
import ListModel
import ListProtocol

/// The methods built on ``LiveList/snapshot(atVersion:field:)``. (`atVersion` on the other
/// queries goes through ``HandlerContext/read(_:_:atVersion:_:)``, on `list/info` through
/// ``ListInfo/encode(_:version:_:)``.)
enum VersionHandlers {
  static let requests: [RequestMethod] = [
    .query("list/diff", inline: false, diff)
  ]

  /// `list/diff {list, from, to, explain?, edits?}`: one changeset that takes version `from` to
  /// version `to` (either way) — `diff` of the two snapshots, so a mirror at `from` that applies
  /// it equals the list at `to`; for adjacent versions it is that change's own changeset (or its
  /// inverse). With `edits`, the `list/edit` batch that makes exactly this changeset from
  /// `from` (``VersionEdits``); with `explain`, why each row differs (source `list/diff`, and
  /// the edit of `edits` that does it when both are asked). Runs on the list's queue after
  /// every change queued before it. O(the changed sections of the two versions).
  static func diff(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list", "from", "to", "explain", "edits"])
    let from = try p.version("from")
    let to = try p.version("to")
    let explain = try p.optionalBool("explain") ?? false
    let withEdits = try p.optionalBool("edits") ?? false
    let list = try context.registry.list(try p.string("list"))
    context.onQueue(of: list, request) {
      let (old, new) = try list.snapshots(from: from, to: to)
      let changeset = ListSnapshot.diff(from: old, to: new)
      var answer: JSONObject = [
        "list": .string(list.id), "from": .int(Int64(from)), "to": .int(Int64(to)),
        "changeset": ChangesetEncoding.changeset(changeset),
      ]
      var source = ChangeSource(method: "list/diff")
      if withEdits {
        let (wire, decoded) = try VersionEdits.edits(
          from: old, to: new, changeset: changeset, list: list.id, versions: (from, to))
        answer.append("edits", wire)
        source.edits = decoded
      }
      if explain {
        answer.append("explain", ExplanationEncoding.explain(changeset, from: old, to: new, source: source))
      }
      return .object(answer)
    }
  }

  /// `query/content {list, atVersion?}`: the list's whole content in `list/create`'s format —
  /// hidden items included, `expanded: true` on every expanded item — with its selection mode
  /// and selection (in index-path order). `list/create` with it (then selecting the selection)
  /// makes an equal list. O(items).
  static func content(_ context: HandlerContext, _ request: IncomingRequest) throws {
    try QueryHandlers.query(context, request, keys: []) { snapshot, _, _ in
      [
        ("selectionMode", .string(snapshot.selectionMode.rawValue)),
        ("content", ContentEncoding.content(snapshot)),
        ("selection", .array(snapshot.selectedItems.map(JSONValue.string))),
      ] + ListAttributeCoding.object(snapshot).map { ($0.0, $0.1) }
    }
  }

  /// `list/subscribe {list, atVersion, snapshot?, window?}`: the answer describes the list at
  /// `atVersion` (its `info` counts and its snapshot or window then), and the session then
  /// receives every `list/didChange` after `atVersion` — those already committed right after
  /// the answer, then the new ones — so a mirror built from the answer is exact at every
  /// version. On the list's queue, so no change slips between the history read and the
  /// registration. -32015 if the version, or a change since, is no longer retained.
  static func subscribe(
    _ context: HandlerContext, _ request: IncomingRequest, list id: String, atVersion version: Int,
    form: SnapshotForm
  ) throws {
    let list = try context.registry.list(id)
    let session = context.session
    let gate = SubscriptionGate(session: session)
    context.inOrder(on: list) {
      do throws(ListError) {
        let snapshot = try list.snapshot(atVersion: version)
        // Held by the gate (closed until the answer is sent), before any later change.
        if let window = form.window {
          // A windowed subscriber catches up in one change, composed (as list/diff composes it).
          let current = list.committed
          if current.version > version {
            let changeset = ListSnapshot.diff(from: snapshot, to: current.snapshot)
            let params: JSONValue = [
              "list": .string(list.id), "version": .int(Int64(current.version)),
              "previousVersion": .int(Int64(version)),
              "changeset": ChangesetEncoding.changeset(
                changeset, rows: .window(window, old: snapshot, new: current.snapshot)),
            ]
            _ = gate.send(encoded: Session.encodeNotification("list/didChange", params))
          }
        } else {
          let (_, changes) = try list.changes(since: version)
          for change in changes {
            _ = gate.send(
              encoded: Session.encodeNotification(
                "list/didChange", ChangeFanout.params(list: list.id, change)))
          }
        }
        _ = try list.subscribe(gate, window: form.window)
        session.addSubscription(list.id)
        var object: JSONObject = [
          "list": .string(list.id), "version": .int(Int64(version)),
          "info": ListInfo.encode(list, version: version, snapshot),
        ]
        form.append(snapshot, to: &object)
        request.respond(["lists": [.object(object)]])
      } catch {
        request.respond(error: ResponseError(error))
      }
      gate.release()
    }
  }
}
