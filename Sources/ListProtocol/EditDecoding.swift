// Decodes the wire edits of `list/edit` into model ListEdits, remembering which wire edit each came from.
import ClosestName
import JSON
import JSONRPC
import ListModel

/// Wire edits → model edits. One wire edit may become several model edits (`appendItems` with
/// children appends trees), so the decoder keeps, for each model edit, the index of the wire
/// edit it came from — errors name the wire edit.
public struct DecodedEdits: Sendable {
  /// The model edits. A `patchItems` element is a `.setPayload` placeholder here: apply with
  /// ``applyAndDiff(to:list:)``, which computes its payload when its turn comes.
  public var edits: [ListEdit] = []
  /// For each of `edits`, the index of its wire edit.
  public var origins: [Int] = []
  /// The merge patches of `patchItems`, by the index in `edits` of their placeholder.
  public var patches: [Int: PayloadPatch] = [:]
  /// The `op` of each wire edit (empty when the edits did not come from `list/edit`).
  public var ops: [String] = []

  /// A batch of `edits`, each from the wire edit at the same place of `origins`.
  public init(
    edits: [ListEdit] = [], origins: [Int] = [], patches: [Int: PayloadPatch] = [:], ops: [String] = []
  ) {
    self.edits = edits
    self.origins = origins
    self.patches = patches
    self.ops = ops
  }

  public mutating func add(_ edit: ListEdit, from origin: Int) {
    edits.append(edit)
    origins.append(origin)
  }

  /// Adds a patch; its payload depends on the edits before it in the batch, so it is computed
  /// when applied.
  public mutating func add(_ patch: PayloadPatch, from origin: Int) {
    patches[edits.count] = patch
    add(.setPayload(item: patch.item, payload: ItemPayload()), from: origin)
  }
}

public enum EditDecoding {
  public static let ops = [
    "appendSections", "insertSections", "deleteSections", "moveSection", "reloadSections", "updateSection",
    "setColumns", "setEmptyState", "setEditing",
    "appendItems", "insertItems", "appendChildren", "deleteItems", "deleteAllItems", "moveItem",
    "reloadItems",
    "reconfigureItems", "updateItems", "patchItems", "replaceItems", "expand", "collapse", "select",
    "deselect",
    "selectAll",
    "deselectAll",
  ]

  /// Decodes `edits` (the `list/edit` array). O(size of the input).
  ///
  /// Each edit sees the list as the edits before it in the batch left it: new items without
  /// `expanded` start collapsed, and `replaceItems` items without `expanded` keep the expansion
  /// they have when that edit runs (the model resolves it then, not here).
  public static func edits(_ params: Params) throws(ResponseError) -> DecodedEdits {
    var decoded = DecodedEdits()
    for (index, edit) in try params.objects("edits").enumerated() {
      decoded.ops.append((try? edit.string("op")) ?? "")
      do throws(ResponseError) {
        try decode(edit, index: index, into: &decoded)
      } catch {
        throw error.naming(editIndex: index)
      }
    }
    return decoded
  }

  /// Decodes one wire edit. `items`, when given, are the bytes of its `items` member, which
  /// `p` holds as an empty array (``deferringItems(_:path:)``): they are decoded from the bytes.
  public static func decode(_ p: Params, index: Int, into out: inout DecodedEdits, items: JSONText? = nil)
    throws(ResponseError)
  {
    let op = try p.string("op")
    func known(_ keys: String...) throws(ResponseError) { try p.requireKnown(["op"] + keys) }
    func add(_ edit: ListEdit) { out.add(edit, from: index) }
    /// With `inherit`, items without `expanded` become nodes inheriting their current expansion.
    func trees(_ key: String, inherit: Bool = false) throws(ResponseError) -> [OutlineNode] {
      if key == "items", let items {
        if let trees = ContentDecoding.fastTrees(items, inherit: inherit) { return trees }
        // The checked path, over the same member at the same path.
        let member = Params(.object([key: items.parsed()]), path: p.path)
        return try member.objects(key).map { item throws(ResponseError) in
          try ContentDecoding.tree(item, inherit: inherit)
        }
      }
      if case .array(let items)? = try p.member(key),
        let trees = ContentDecoding.fastTrees(items, inherit: inherit)
      {
        return trees
      }
      return try p.objects(key).map { item throws(ResponseError) in
        try ContentDecoding.tree(item, inherit: inherit)
      }
    }
    /// Adds the children of inserted trees under their (now inserted) parents.
    func addChildren(of nodes: [OutlineNode]) {
      for node in nodes where !node.children.isEmpty {
        add(.appendChildTrees(node.children, parent: node.item.id))
      }
      for node in nodes where node.isExpanded { add(.expand([node.item.id])) }
    }

    switch op {
    case "appendSections", "insertSections":
      let sections = try p.objects("sections").map { s throws(ResponseError) in
        try ContentDecoding.section(s)
      }
      let specs = sections.map(\.spec)
      if op == "appendSections" {
        try known("sections")
        add(.appendSections(specs))
      } else {
        try known("sections", "before", "after")
        let anchorKey = try p.requireOne(of: ["before", "after"], "insertSections")
        let anchor = try p.string(anchorKey)
        add(
          anchorKey == "before"
            ? .insertSectionsBefore(specs, section: anchor) : .insertSectionsAfter(specs, section: anchor))
      }
      for section in sections where !section.trees.isEmpty {
        add(.appendTrees(section.trees, section: section.spec.id))
      }
    case "deleteSections":
      try known("sections")
      add(.deleteSections(try p.strings("sections")))
    case "moveSection":
      try known("section", "before", "after")
      let id = try p.string("section")
      let anchorKey = try p.requireOne(of: ["before", "after"], "moveSection")
      let anchor = try p.string(anchorKey)
      add(
        anchorKey == "before"
          ? .moveSectionBefore(id, section: anchor) : .moveSectionAfter(id, section: anchor))
    case "reloadSections":
      try known("sections")
      add(.reloadSections(try p.strings("sections")))
    case "updateSection":
      try known("section", "header", "footer", "kind", "headerMode")
      let id = try p.string("section")
      // One model edit, so the section is checked even when neither field is given.
      let header: String?? = try p.member("header") != nil ? .some(try p.optionalString("header")) : .none
      let footer: String?? = try p.member("footer") != nil ? .some(try p.optionalString("footer")) : .none
      let kind: String?? = try p.member("kind") != nil ? .some(try p.optionalString("kind")) : .none
      // `null` clears the mode back to its default, as it clears the other fields.
      let headerMode: HeaderMode? =
        try p.member("headerMode") == nil
        ? nil : .some(try p.optionalEnumeration("headerMode", as: HeaderMode.self) ?? .supplementary)
      add(.updateSection(id, header: header, footer: footer))
      if kind != nil || headerMode != nil { add(.updateSectionStyle(id, kind: kind, headerMode: headerMode)) }
    case "setColumns":
      try known("columns")
      add(.setColumns(try ColumnCoding.columns(p, "columns")))
    case "setEmptyState":
      try known("emptyState")
      add(.setEmptyState(try EmptyStateCoding.decode(p, "emptyState")))
    case "setEditing":
      try known("editing")
      add(.setEditing(try p.bool("editing")))
    case "appendItems":
      try known("items", "section")
      add(.appendTrees(try trees("items"), section: try p.optionalString("section")))
    case "insertItems":
      try known("items", "before", "after")
      let nodes = try trees("items")
      let anchorKey = try p.requireOne(of: ["before", "after"], "insertItems")
      let anchor = try p.string(anchorKey)
      let items = nodes.map(\.item)
      add(
        anchorKey == "before"
          ? .insertItemsBefore(items, item: anchor) : .insertItemsAfter(items, item: anchor))
      addChildren(of: nodes)
    case "appendChildren":
      try known("parent", "items")
      add(.appendChildTrees(try trees("items"), parent: try p.string("parent")))
    case "deleteItems":
      try known("items")
      add(.deleteItems(try p.strings("items")))
    case "deleteAllItems":
      try known()
      add(.deleteAllItems)
    case "moveItem":
      try known("item", "before", "after", "section", "parent")
      let id = try p.string("item")
      let anchorKey = try p.requireOne(of: ["before", "after", "section", "parent"], "moveItem")
      let anchor = try p.string(anchorKey)
      switch anchorKey {
      case "before": add(.moveItemBefore(id, item: anchor))
      case "after": add(.moveItemAfter(id, item: anchor))
      case "section": add(.moveItemToSection(id, section: anchor))
      default: add(.moveItemToParent(id, parent: anchor))
      }
    case "reloadItems":
      try known("items")
      add(.reloadItems(try p.strings("items")))
    case "reconfigureItems":
      try known("items")
      add(.reconfigureItems(try p.strings("items")))
    case "updateItems":
      try known("items")
      for item in try p.objects("items") {
        let decoded = try ContentDecoding.item(item)
        add(.setPayload(item: decoded.id, payload: decoded.payload))
      }
    case "patchItems":
      try known("items")
      for item in try p.objects("items") { out.add(try PayloadPatch(item), from: index) }
    case "replaceItems":
      try known("section", "items")
      add(.replaceItemTrees(try trees("items", inherit: true), section: try p.string("section")))
    case "expand", "collapse":
      try known("item", "recursive")
      let id = try p.string("item")
      let recursive = try p.optionalBool("recursive") ?? false
      if op == "expand" {
        add(recursive ? .expandSubtree(id) : .expand([id]))
      } else {
        add(recursive ? .collapseSubtree(id) : .collapse([id]))
      }
    case "select", "deselect":
      try known("items")
      let ids = try p.strings("items")
      add(op == "select" ? .select(ids) : .deselect(ids))
    case "selectAll":
      try known()
      add(.selectAll)
    case "deselectAll":
      try known()
      add(.deselectAll)
    default:
      // A near miss (`appendItem`) is named before the list of all ops, which hides it.
      let guess = closestName(to: op, among: ops).map {
        " (did you mean \(JSONValue.string($0).abbreviatedJSON)?)"
      }
      throw p.invalid(
        "op",
        "must be one of \(ops.joined(separator: ", ")), got \(JSONValue.string(op).abbreviatedJSON)\(guess ?? "")"
      )
    }
  }
}

extension ResponseError {
  /// This error with `data.editIndex` set: the failing edit of a `list/edit` batch.
  public func naming(editIndex index: Int) -> ResponseError {
    var object = data?.objectValue ?? JSONObject()
    object["editIndex"] = .int(Int64(index))
    return ResponseError(code, message, data: .object(object))
  }
}
