// The inspector's previews: diff/preview (what a change would do, committing nothing) and diff/contents.
import JSON
import JSONRPC
import ListModel
import ListProtocol

enum PreviewHandlers {
  static let requests: [RequestMethod] = [
    .query("diff/preview", inline: false, preview),
    .query("diff/contents", inline: false, contents),
  ]

  /// `diff/preview {list, content | edits, ifVersion?, explain?}`: the answer `list/replace`
  /// (with `content`) or `list/edit` (with `edits`) would give now — the same version,
  /// changeset, explanation and errors — but nothing is committed: no version, no
  /// notification, no history. Runs on the list's queue after every change queued before it.
  /// O(the change + the diff).
  static func preview(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list", "content", "edits", "ifVersion", "explain"])
    let key = try p.requireOne(of: ["content", "edits"], "diff/preview")
    let ifVersion = try p.optionalInt("ifVersion")
    let explain = try p.optionalBool("explain") ?? false
    let method = key == "content" ? "list/replace" : "list/edit"
    let by = context.session.ownerInfo
    // Type errors are answered before queuing; content and edits kept as bytes decode from them.
    let content = key == "content" ? try ContentHandlers.contentSource(p) : nil
    let editsText = key == "edits" ? p.memberText("edits").flatMap { $0.isArray ? $0 : nil } : nil
    if key == "edits" && editsText == nil { _ = try p.array("edits") }
    let list = try context.registry.list(try p.string("list"))
    try list.refuseEditIfView("diff/preview")
    context.inOrder(on: list) {
      request.answer {
        let current = try list.current(ifVersion: ifVersion)
        let old = current.snapshot
        var new = old
        let changeset: Changeset
        var source = ChangeSource(method: method, by: by)
        if let content {
          let sections = try ContentDecoding.content(content, inherit: true)
          new = try ContentHandlers.replaced(old, by: sections, list: list.id)
          changeset = diff(old, new)
        } else {
          let edits =
            try editsText.map { text throws(ResponseError) in try EditDecoding.edits(text) }
            ?? EditDecoding.edits(p)
          changeset = try edits.applyAndDiff(to: &new, list: list.id, batch: true)
          source.edits = edits
        }
        // As LiveList.commit decides: only a snapshot that differs makes a version.
        let changes = !changeset.isEmpty || new != old
        let answer = ListChanges.result(
          list: list.id, version: current.version + (changes ? 1 : 0),
          changeset: ChangesetEncoding.changeset(changeset))
        guard explain else { return answer }
        return answer.setting(
          "explain", ExplanationEncoding.explain(changeset, from: old, to: new, source: source))
      }
    }
  }

  /// `diff/contents {old, new, selectionMode?, columns?, explain?}`: the changeset from one content to
  /// another, in the content format of `list/create`, with no list involved; `columns` are both
  /// sides' (what their cells may name). `new` is read as `list/replace`
  /// reads it: an item without `expanded` keeps its state in `old`. O(both contents).
  static func contents(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["old", "new", "selectionMode", "explain", "columns"])
    let mode = try p.optionalEnumeration("selectionMode", as: SelectionMode.self) ?? .single
    let explain = try p.optionalBool("explain") ?? false
    let oldSections = try ContentDecoding.content(try ContentHandlers.contentSource(p, "old"), inherit: false)
    let newSections = try ContentDecoding.content(try ContentHandlers.contentSource(p, "new"), inherit: true)
    var base = ListSnapshot(selectionMode: mode)
    try ListAttributeCoding.decode(p, into: &base, list: "")
    let old = try snapshot(oldSections, sharingWith: base, side: "old")
    let new = try snapshot(newSections, sharingWith: old, side: "new")
    let changeset = diff(old, new)
    var answer: JSONObject = ["changeset": ChangesetEncoding.changeset(changeset)]
    if explain {
      answer.append(
        "explain",
        ExplanationEncoding.explain(
          changeset, from: old, to: new, source: ChangeSource(method: "diff/contents")))
    }
    request.respond(.object(answer))
  }

  /// The snapshot of one side of `diff/contents`; a model error names the side ("old", "new").
  private static func snapshot(
    _ sections: [ContentDecoding.SectionContent], sharingWith base: ListSnapshot, side: String
  ) throws(ResponseError) -> ListSnapshot {
    do throws(ListModelError) {
      return try ContentDecoding.snapshot(sections, sharingWith: base, selectionMode: base.selectionMode)
    } catch {
      throw ResponseError.model(error, prefix: "\"\(side)\": ")
    }
  }
}
