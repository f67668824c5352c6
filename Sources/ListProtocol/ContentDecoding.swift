// Decodes wire content (sections, items, trees, payloads, accessories, actions) into model values.
import JSONRPC
import ListModel

/// Wire content → model values, with -32602 errors that name the field path and value.
/// Everything is O(size of the input).
public enum ContentDecoding {
  /// A section of content: its spec and its item trees.
  public struct SectionContent: Sendable {
    public var spec: SectionSpec
    public var trees: [OutlineNode]
  }

  public static let sectionKeys = ["id", "header", "footer", "kind", "headerMode", "items"]
  public static let payloadKeys = [
    "text", "secondaryText", "image", "data", "accessories", "leadingSwipeActions",
    "trailingSwipeActions", "contextMenuActions", "selectable", "movable", "kind", "cells", "topSeparator",
    "bottomSeparator",
  ]
  public static let itemKeys = ["id", "children", "expanded"] + payloadKeys

  /// `{"sections": [...]}` as `list/create` reads it: an item whose `expanded` is omitted
  /// starts collapsed.
  public static func content(_ params: Params) throws(ResponseError) -> [SectionContent] {
    try content(params, inherit: false)
  }

  /// `{"sections": [...]}` as `list/replace` reads it: an item whose `expanded` is omitted
  /// becomes an ``OutlineNode/inheritingExpansion(_:children:)`` node, which
  /// ``snapshot(_:sharingWith:selectionMode:)`` gives its state in the base snapshot by interned
  /// id, with no extra string hash.
  public static func content(_ params: Params, inheritingExpansion: Void) throws(ResponseError)
    -> [SectionContent]
  {
    try content(params, inherit: true)
  }

  public static func content(_ params: Params, inherit: Bool) throws(ResponseError) -> [SectionContent] {
    if let fast = onePassContent(params, inherit: inherit) { return fast }
    return try checkedContent(params, inherit: inherit)
  }

  /// The checked decoder alone, which names the first problem: what the one-pass reader
  /// (``content(_:path:inherit:)``) leaves to it. Equal to that reader on all it takes.
  public static func checkedContent(_ params: Params, inherit: Bool) throws(ResponseError) -> [SectionContent]
  {
    try params.requireKnown(["sections"])
    return try params.objects("sections").map { section throws(ResponseError) in
      try self.section(section, inherit: inherit, onePass: false)
    }
  }

  /// A content section: `{"id", "header"?, "footer"?, "items"?}`. With `onePass`, its items are
  /// read in one pass first (``fastTrees(_:inherit:)``).
  public static func section(_ params: Params, inherit: Bool = false, onePass: Bool = true)
    throws(ResponseError) -> SectionContent
  {
    try params.requireKnown(sectionKeys)
    let spec = SectionSpec(
      try params.string("id"), header: try params.optionalString("header"),
      footer: try params.optionalString("footer"), kind: try params.optionalString("kind"),
      headerMode: try params.optionalEnumeration("headerMode", as: HeaderMode.self) ?? .supplementary)
    if onePass, case .array(let items)? = try params.member("items"),
      let trees = fastTrees(items, inherit: inherit)
    {
      return SectionContent(spec: spec, trees: trees)
    }
    let trees = try params.optionalObjects("items") ?? []
    return SectionContent(
      spec: spec,
      trees: try trees.map { item throws(ResponseError) in
        try tree(item, inherit: inherit)
      })
  }

  /// An item with optional `children` and `expanded`.
  public static func tree(_ params: Params, inherit: Bool = false)
    throws(ResponseError)
    -> OutlineNode
  {
    try params.requireKnown(itemKeys)
    let item = try self.item(params, known: nil)
    let children = try (params.optionalObjects("children") ?? []).map { child throws(ResponseError) in
      try tree(child, inherit: inherit)
    }
    let expanded = try params.optionalBool("expanded")
    if expanded == nil && inherit { return .inheritingExpansion(item, children: children) }
    return OutlineNode(item, children: children, isExpanded: expanded ?? false)
  }

  /// An item without children: its id and payload. `known` lists the allowed members (nil when
  /// the caller has checked them already).
  public static func item(_ params: Params, known: [String]? = ["id"] + payloadKeys) throws(ResponseError)
    -> ListItem
  {
    if let known { try params.requireKnown(known) }
    return ListItem(try params.string("id"), payload: try payload(params))
  }

  /// Set while `check/snapshot` decodes (it reports repeated system accessories as problems);
  /// otherwise they are `-32602`.
  @TaskLocal public static var acceptsRepeatedSystemAccessories = false

  /// The payload fields of an item object (other members are ignored here); `data` in its
  /// canonical form (``JSON/JSONValue/canonicalData``). `item` names the item in errors when
  /// the object has no `id` of its own (a `patchItems` patch).
  public static func payload(_ params: Params, item: String? = nil) throws(ResponseError) -> ItemPayload {
    let content = ItemContent(
      text: try params.optionalString("text"), secondaryText: try params.optionalString("secondaryText"),
      image: try params.optionalString("image"), data: try params.optionalValue("data")?.canonicalData)
    var payload = ItemPayload(
      content: content,
      leadingSwipeActions: try actions(params, "leadingSwipeActions", submenus: false),
      trailingSwipeActions: try actions(params, "trailingSwipeActions", submenus: false),
      contextMenuActions: try actions(params, "contextMenuActions"),
      isSelectable: try params.optionalBool("selectable") ?? true,
      isMovable: try params.optionalBool("movable") ?? false,
      cells: try ColumnCoding.cells(params), kind: try params.optionalString("kind"))
    let accessories = try params.optionalObjects("accessories") ?? []
    if !accessories.isEmpty {
      payload.placedAccessories = try accessories.map { a throws(ResponseError) in try placedAccessory(a) }
      if !acceptsRepeatedSystemAccessories,
        let type = ListAccessory.repeatedSystemTypes(payload.placedAccessories.map(\.accessory)).first
      {
        // UIKit would crash on the cell: refused here, reported by check/snapshot.
        let id = item ?? ((try? params.optionalString("id")) ?? nil)
        throw params.invalid(
          "accessories",
          (id.map { "of item '\($0)' " } ?? "") + "has more than one \(type) accessory: UIKit throws an "
            + "exception when a cell includes more than one instance of a system accessory")
      }
    }
    if let top = try params.optionalEnumeration("topSeparator", as: SeparatorVisibility.self) {
      payload.topSeparator = top
    }
    if let bottom = try params.optionalEnumeration("bottomSeparator", as: SeparatorVisibility.self) {
      payload.bottomSeparator = bottom
    }
    return payload
  }

  /// An accessory with its optional `placement` and `displayed` (each type's UIKit default when
  /// left out).
  public static func placedAccessory(_ params: Params) throws(ResponseError) -> PlacedAccessory {
    PlacedAccessory(
      try accessory(params),
      placement: try params.optionalEnumeration("placement", as: AccessoryPlacement.self),
      displayed: try params.optionalEnumeration("displayed", as: AccessoryDisplayed.self))
  }

  /// An accessory: `{"type": name, …its fields}`.
  public static func accessory(_ params: Params) throws(ResponseError) -> ListAccessory {
    let type = try params.string("type")
    func only(_ keys: String...) throws(ResponseError) {
      try params.requireKnown(["type", "placement", "displayed"] + keys)
    }
    if let system = systemAccessories[type] {
      try only()
      return system
    }
    switch type {
    case "label", "badge":
      try only("text")
      let text = try params.string("text")
      return type == "label" ? .label(text) : .badge(text)
    case "image", "custom":
      try only("name")
      let name = try params.string("name")
      return type == "image" ? .image(name) : .custom(name)
    case "progress":
      try only("value")
      let value = try params.double("value")
      guard value >= 0 && value <= 1 else {
        throw params.invalid("value", "must be between 0 and 1, got \(value)")
      }
      return .progress(value)
    case "toggle":
      try only("isOn")
      return .toggle(isOn: try params.bool("isOn"))
    case "popUpMenu":
      try only("actions")
      return .popUpMenu(try actions(params, "actions", required: true))
    default:
      throw params.mismatch("type", "an accessory type (\(accessoryTypes))", .string(type))
    }
  }

  /// The accessories that take no member of their own, by type.
  static let systemAccessories: [String: ListAccessory] = [
    "disclosureIndicator": .disclosureIndicator, "checkmark": .checkmark, "delete": .delete,
    "reorder": .reorder,
    "outlineDisclosure": .outlineDisclosure, "detail": .detail, "multiselect": .multiselect,
    "activityIndicator": .activityIndicator,
  ]

  /// The members an accessory may have besides `type`, `placement` and `displayed`, each for
  /// some types.
  static let accessoryMembers = ["text", "name", "value", "isOn", "actions"]

  /// The members of an action; `children` (a submenu, last) only where submenus are allowed.
  static let actionKeys = ["id", "title", "style", "image", "disabled", "checked", "children"]

  public static let accessoryTypes =
    "disclosureIndicator, checkmark, delete, reorder, outlineDisclosure, detail, multiselect, label, badge, "
    + "image, progress, activityIndicator, toggle, popUpMenu, custom"

  /// An array of actions `{"id", "title", "style"?, "image"?, "disabled"?, "checked"?,
  /// "children"?}` under `key`; `children` (a submenu) only where `submenus` allows them.
  public static func actions(_ params: Params, _ key: String, required: Bool = false, submenus: Bool = true)
    throws(ResponseError) -> [ListAction]
  {
    let list = required ? try params.objects(key) : try params.optionalObjects(key) ?? []
    return try list.map { action throws(ResponseError) in
      try action.requireKnown(submenus ? actionKeys : Array(actionKeys.dropLast()))
      let children = try actions(action, "children", submenus: true)
      if try action.member("children") != nil, children.isEmpty {
        throw action.invalid("children", "must not be empty: a submenu has actions")
      }
      return ListAction(
        id: try action.string("id"), title: try action.string("title"),
        style: try action.optionalEnumeration("style", as: ActionStyle.self) ?? .normal,
        image: try action.optionalString("image"), isDisabled: try action.optionalBool("disabled") ?? false,
        isChecked: try action.optionalBool("checked") ?? false, children: children)
    }
  }

  /// Builds a snapshot holding `sections`, sharing `base`'s id table so the diff against it stays
  /// integer-only; inheriting nodes take their expansion in `base`. O(items).
  public static func snapshot(
    _ sections: [SectionContent], sharingWith base: ListSnapshot, selectionMode: SelectionMode
  ) throws(ListModelError) -> ListSnapshot {
    var snapshot = ListSnapshot(sharingIdentifiersWith: base, selectionMode: selectionMode)
    try snapshot.appendSections(sections.map(\.spec))
    for section in sections where !section.trees.isEmpty {
      try snapshot.appendTrees(section.trees, toSection: section.spec.id, inheritingExpansionFrom: base)
    }
    try snapshot.checkCells()  // against the columns `base` passed on
    return snapshot
  }
}

extension ContentDecoding {
  /// The number of items in decoded content, children included. O(items).
  public static func itemCount(_ sections: [SectionContent]) -> Int {
    func count(_ nodes: [OutlineNode]) -> Int { nodes.reduce(nodes.count) { $0 + count($1.children) } }
    return sections.reduce(0) { $0 + count($1.trees) }
  }
}
