// Encodes edit-script edits as the wire edits of list/edit (Protocol/README.md §5).
import JSON
import ListModel

/// ``ScriptEdit`` → the `list/edit` edit object of the same name; `EditDecoding` reads it back
/// into ``ScriptEdit/edits``.
public enum EditEncoding {
  public static func edit(_ edit: ScriptEdit) -> JSONValue {
    func ids(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
    func sections(_ specs: [SectionSpec]) -> JSONValue {
      .array(
        specs.map {
          .object(
            RowEncoding.sectionHeader(
              id: $0.id, header: $0.header, footer: $0.footer, kind: $0.kind, headerMode: $0.headerMode))
        })
    }
    func anchored(_ object: JSONObject, _ anchor: ScriptEdit.Anchor) -> JSONValue {
      var object = object
      switch anchor {
      case .before(let id): object.append("before", .string(id))
      case .after(let id): object.append("after", .string(id))
      }
      return .object(object)
    }
    func trees(_ nodes: [OutlineNode]) -> JSONValue { .array(nodes.map(ContentEncoding.item)) }

    switch edit {
    case .appendSections(let specs):
      return ["op": "appendSections", "sections": sections(specs)]
    case .insertSections(let specs, let anchor):
      return anchored(["op": "insertSections", "sections": sections(specs)], anchor)
    case .deleteSections(let list):
      return ["op": "deleteSections", "sections": ids(list)]
    case .moveSection(let id, let anchor):
      return anchored(["op": "moveSection", "section": .string(id)], anchor)
    case .updateSection(let id, let header, let footer, let kind, let headerMode):
      var object: JSONObject = ["op": "updateSection", "section": .string(id)]
      if let header { object.append("header", header.map(JSONValue.string) ?? .null) }
      if let footer { object.append("footer", footer.map(JSONValue.string) ?? .null) }
      if let kind { object.append("kind", kind.map(JSONValue.string) ?? .null) }
      if let headerMode { object.append("headerMode", .string(headerMode.rawValue)) }
      return .object(object)
    case .setColumns(let columns):
      return ["op": "setColumns", "columns": ColumnCoding.columns(columns)]
    case .setEmptyState(let state):
      return ["op": "setEmptyState", "emptyState": EmptyStateCoding.encode(state)]
    case .setEditing(let editing):
      return ["op": "setEditing", "editing": .bool(editing)]
    case .reloadSections(let list):
      return ["op": "reloadSections", "sections": ids(list)]
    case .appendItems(let nodes, let section):
      return ["op": "appendItems", "section": .string(section), "items": trees(nodes)]
    case .insertItems(let nodes, let anchor):
      return anchored(["op": "insertItems", "items": trees(nodes)], anchor)
    case .appendChildren(let nodes, let parent):
      return ["op": "appendChildren", "parent": .string(parent), "items": trees(nodes)]
    case .moveItem(let id, let destination):
      let object: JSONObject = ["op": "moveItem", "item": .string(id)]
      switch destination {
      case .sibling(let anchor): return anchored(object, anchor)
      case .section(let section): return .object(object).setting("section", .string(section))
      case .parent(let parent): return .object(object).setting("parent", .string(parent))
      }
    case .deleteItems(let list):
      return ["op": "deleteItems", "items": ids(list)]
    case .updateItems(let items):
      return [
        "op": "updateItems",
        "items": .array(
          items.map { .object(ContentEncoding.object($0.id, payload: $0.payload, expanded: false)) }),
      ]
    case .expand(let id):
      return ["op": "expand", "item": .string(id)]
    case .collapse(let id):
      return ["op": "collapse", "item": .string(id)]
    case .select(let list):
      return ["op": "select", "items": ids(list)]
    case .deselect(let list):
      return ["op": "deselect", "items": ids(list)]
    case .reloadItems(let list):
      return ["op": "reloadItems", "items": ids(list)]
    case .reconfigureItems(let list):
      return ["op": "reconfigureItems", "items": ids(list)]
    }
  }
}
