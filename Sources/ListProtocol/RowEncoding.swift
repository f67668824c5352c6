// Encodes rows, payloads, accessories and actions as the wire JSON of Protocol/README.md §3.
import JSON
import ListModel

/// Model values → wire JSON. Default-valued payload fields are omitted, so rows stay small.
public enum RowEncoding {
  /// A row: its id, payload fields, `level`, and for outline rows `parent`, `hasChildren`,
  /// `expanded`. O(size of the payload).
  public static func row(_ row: Row) -> JSONValue {
    var object = JSONObject()
    object.reserveCapacity(8)
    object.append("id", .string(row.id))
    appendPayload(row.payload, to: &object)
    object.append("level", .int(Int64(row.level)))
    if let parent = row.parent { object.append("parent", .string(parent)) }
    if row.hasChildren { object.append("hasChildren", true) }
    if row.isExpanded { object.append("expanded", true) }
    return .object(object)
  }

  /// Rows as a JSON array. O(total payload size).
  public static func rows(_ rows: [Row]) -> JSONValue {
    .array(rows.map(row))
  }

  /// Appends the payload's non-default fields. O(size of the payload).
  public static func appendPayload(_ payload: ItemPayload, to object: inout JSONObject) {
    let content = payload.content
    if let text = content.text { object.append("text", .string(text)) }
    if let secondary = content.secondaryText { object.append("secondaryText", .string(secondary)) }
    if let image = content.image { object.append("image", .string(image)) }
    if let data = content.data { object.append("data", data) }
    if !payload.placedAccessories.isEmpty {
      object.append("accessories", .array(payload.placedAccessories.map(accessory)))
    }
    if !payload.leadingSwipeActions.isEmpty {
      object.append("leadingSwipeActions", actions(payload.leadingSwipeActions))
    }
    if !payload.trailingSwipeActions.isEmpty {
      object.append("trailingSwipeActions", actions(payload.trailingSwipeActions))
    }
    if !payload.contextMenuActions.isEmpty {
      object.append("contextMenuActions", actions(payload.contextMenuActions))
    }
    if !payload.isSelectable { object.append("selectable", false) }
    if payload.isMovable { object.append("movable", true) }
    if let kind = payload.kind { object.append("kind", .string(kind)) }
    if payload.topSeparator != .automatic {
      object.append("topSeparator", .string(payload.topSeparator.rawValue))
    }
    if payload.bottomSeparator != .automatic {
      object.append("bottomSeparator", .string(payload.bottomSeparator.rawValue))
    }
    if !payload.cells.isEmpty { object.append("cells", CellValue.json(payload.cells)) }
  }

  /// An accessory with `placement` and `displayed` when they are not its type's defaults.
  public static func accessory(_ placed: PlacedAccessory) -> JSONValue {
    guard case .object(var object) = accessory(placed.accessory) else { return accessory(placed.accessory) }
    if placed.placement != placed.accessory.defaultPlacement {
      object.append("placement", .string(placed.placement.rawValue))
    }
    if placed.displayed != placed.accessory.defaultDisplayed {
      object.append("displayed", .string(placed.displayed.rawValue))
    }
    return .object(object)
  }

  /// An accessory: `{"type": name, …fields}`.
  public static func accessory(_ accessory: ListAccessory) -> JSONValue {
    func typed(_ type: String, _ fields: (String, JSONValue)...) -> JSONValue {
      .object(JSONObject([("type", .string(type))] + fields))
    }
    switch accessory {
    case .disclosureIndicator: return typed("disclosureIndicator")
    case .checkmark: return typed("checkmark")
    case .delete: return typed("delete")
    case .reorder: return typed("reorder")
    case .outlineDisclosure: return typed("outlineDisclosure")
    case .detail: return typed("detail")
    case .multiselect: return typed("multiselect")
    case .label(let text): return typed("label", ("text", .string(text)))
    case .badge(let text): return typed("badge", ("text", .string(text)))
    case .image(let name): return typed("image", ("name", .string(name)))
    case .progress(let value): return typed("progress", ("value", .double(value)))
    case .activityIndicator: return typed("activityIndicator")
    case .toggle(let isOn): return typed("toggle", ("isOn", .bool(isOn)))
    case .popUpMenu(let menu): return typed("popUpMenu", ("actions", actions(menu)))
    case .custom(let name): return typed("custom", ("name", .string(name)))
    }
  }

  /// Actions: `[{"id", "title", "style"?, "image"?, "disabled"?, "checked"?, "children"?}]`
  /// (defaults omitted: style normal, not disabled, not checked, no children).
  public static func actions(_ actions: [ListAction]) -> JSONValue {
    .array(
      actions.map { action in
        var object: JSONObject = ["id": .string(action.id), "title": .string(action.title)]
        if action.style != .normal { object.append("style", .string(action.style.rawValue)) }
        if let image = action.image { object.append("image", .string(image)) }
        if action.isDisabled { object.append("disabled", true) }
        if action.isChecked { object.append("checked", true) }
        if !action.children.isEmpty { object.append("children", Self.actions(action.children)) }
        return .object(object)
      })
  }

  /// A section's description without rows: `{"id", "header"?, "footer"?, "kind"?,
  /// "headerMode"?}` (`headerMode` only when not `supplementary`).
  public static func sectionHeader(
    id: String, header: String?, footer: String?, kind: String? = nil,
    headerMode: HeaderMode = .supplementary
  ) -> JSONObject {
    var object: JSONObject = ["id": .string(id)]
    if let header { object.append("header", .string(header)) }
    if let footer { object.append("footer", .string(footer)) }
    if let kind { object.append("kind", .string(kind)) }
    if headerMode != .supplementary { object.append("headerMode", .string(headerMode.rawValue)) }
    return object
  }

  /// `section`'s description without its rows.
  public static func sectionHeader(_ section: RowSection) -> JSONObject {
    sectionHeader(
      id: section.id, header: section.header, footer: section.footer, kind: section.kind,
      headerMode: section.headerMode)
  }

  /// A section with its rows: `{"id", "header"?, "footer"?, "kind"?, "headerMode"?, "rows": […]}`.
  /// O(rows).
  public static func section(_ section: RowSection) -> JSONValue {
    var object = sectionHeader(section)
    object.append("rows", rows(section.rows))
    return .object(object)
  }

  /// A whole snapshot: `{"sections": […], "selection": [ids], "columns"?}`, the selection in
  /// index-path order (as `query/selection` and the changeset's `selected` list it), and the
  /// list attributes that are not the default. O(rows + s log s for s selected items).
  public static func snapshot(_ snapshot: ListSnapshot) -> JSONValue {
    var object: JSONObject = [
      "sections": .array(snapshot.rows.sections.map(section)),
      "selection": .array(snapshot.selectedItems.map { .string($0) }),
    ]
    ListAttributeCoding.append(snapshot, to: &object)
    return .object(object)
  }
}
