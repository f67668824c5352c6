// Decodes wire content in one pass over its bytes or its parsed tree, with the checked decoder as its exact fallback.
import JSON
import JSONRPC
import ListModel

/// Where content comes from: the request's bytes (deferred params), or a parsed tree (a batch
/// member, a journal record).
public enum ContentSource: Sendable {
  case bytes(JSONText, path: String)
  case tree(Params)

  /// The content as a tree (for the journal, which keeps it as sent). O(size).
  public var json: JSONValue? {
    switch self {
    case .bytes(let text, _): text.parsed()
    case .tree(let params): params.value
    }
  }
}

extension ContentDecoding {
  /// `{"sections": [...]}` from `source`, as ``content(_:)`` (create) or
  /// ``content(_:inheritingExpansion:)`` (replace, with `inherit`) read it; with `current` (the
  /// version the content replaces), recalling it (``ContentRecall``): an item read from bytes
  /// whose members after its `id` are exactly the canonical bytes of the payload `current` holds
  /// for that id takes that payload, undecoded, one that is so in some members takes those, and
  /// one equal to it as a value takes it too. The same result, sharing storage.
  public static func content(_ source: ContentSource, inherit: Bool, current: ListSnapshot? = nil)
    throws(ResponseError) -> [SectionContent]
  {
    switch source {
    case .tree(let params): return try content(params, inherit: inherit)
    case .bytes(let text, let path): return try content(text, path: path, inherit: inherit, current: current)
    }
  }

  /// Content decoded from its bytes in one pass, building no tree (recalling `current`, as
  /// ``content(_:inherit:current:)`` does): the same result, or the same error, as decoding
  /// `text.parsed()` viewed at `path`. Anything the one-pass reader does not take (an unknown or
  /// repeated member, a wrong type, a repeated system accessory, …) goes to the checked decoder
  /// (``checkedContent(_:inherit:)``), which names the problem. O(size of the input).
  public static func content(_ text: JSONText, path: String, inherit: Bool, current: ListSnapshot? = nil)
    throws(ResponseError) -> [SectionContent]
  {
    if let fast = onePassContent(text, inherit: inherit, recall: current.map(ContentRecall.init)) {
      return fast
    }
    return try checkedContent(Params(text.parsed(), path: path), inherit: inherit)
  }

  /// Item trees (an array) decoded from their bytes in one pass; nil when the checked decoder
  /// must decide (an unknown or repeated member, a wrong type, …). O(size of the input).
  public static func fastTrees(_ text: JSONText, inherit: Bool) -> [OutlineNode]? {
    try? text.withReader { (reader: inout JSONReader) throws(JSONParseError) in
      try readTrees(&reader, inherit: inherit)
    }
  }

  /// Item trees (a parsed array) decoded in the same one pass as from bytes; nil when the checked
  /// decoder must decide. O(size of the input).
  public static func fastTrees(_ items: [JSONValue], inherit: Bool = false) -> [OutlineNode]? {
    var reader = JSONTreeReader(.array(items))
    return try? readTrees(&reader, inherit: inherit)
  }

  /// `{"sections": [...]}` read in one pass from its bytes, or nil where the checked decoder must
  /// decide.
  static func onePassContent(_ text: JSONText, inherit: Bool, recall: ContentRecall? = nil)
    -> [SectionContent]?
  {
    try? text.withReader { (reader: inout JSONReader) throws(JSONParseError) in
      try readContent(&reader, inherit: inherit, recall: recall)
    }
  }

  /// `{"sections": [...]}` read in one pass (from the bytes of deferred params, else over the
  /// tree), or nil where the checked decoder must decide.
  static func onePassContent(_ params: Params, inherit: Bool) -> [SectionContent]? {
    if let deferred = params.deferred { return onePassContent(deferred.text, inherit: inherit) }
    guard let value = params.value else { return nil }
    var reader = JSONTreeReader(value)
    return try? readContent(&reader, inherit: inherit)
  }

  private static func readContent<R: JSONPullReader>(
    _ reader: inout R, inherit: Bool, recall: ContentRecall? = nil
  ) throws(JSONParseError) -> [SectionContent]? {
    guard try reader.peek() == .object else { return nil }
    try reader.beginObject()
    var sections: [SectionContent]?
    while let key = try reader.nextKey() {
      guard key == "sections", sections == nil, try reader.peek() == .array else { return nil }
      try reader.beginArray()
      var list: [SectionContent] = []
      while try reader.nextElement() {
        guard let section = try readSection(&reader, inherit: inherit, recall: recall) else { return nil }
        list.append(section)
      }
      sections = list
    }
    return sections
  }

  /// A section as ``section(_:inherit:)`` reads it, or nil.
  private static func readSection<R: JSONPullReader>(
    _ reader: inout R, inherit: Bool, recall: ContentRecall?
  ) throws(JSONParseError) -> SectionContent? {
    var trees: [OutlineNode] = []
    let spec = try readSection(&reader) { (reader: inout R, head: SectionHead) throws(JSONParseError) in
      // The section's items are recalled from the current version's section of that id.
      if let recall { recall.section = head.id.map(recall.current.recall(section:)) }
      defer { recall?.section = nil }
      guard let items = try readTrees(&reader, inherit: inherit, recall: recall) else { return false }
      trees = items
      return true
    }
    return spec.map { SectionContent(spec: $0, trees: trees) }
  }

  /// A section's members as read before its `items`: what the one-pass section reader hands
  /// to whoever reads the items.
  struct SectionHead {
    var id: String?
    var header: String?
    var footer: String?
    var kind: String?
    var headerMode: HeaderMode?

    /// The section's spec, once it has an id.
    var spec: SectionSpec? {
      id.map {
        SectionSpec($0, header: header, footer: footer, kind: kind, headerMode: headerMode ?? .supplementary)
      }
    }
  }

  /// The section grammar of the one-pass readers, written once (create's streaming reader and the
  /// content reader): reads the section object at `reader` and returns its spec, or nil to leave the
  /// content to the tree-based decoder. `readItems` reads a non-null `items` array, given the
  /// members read before it; false refuses. With `itemsLast`, a member after `items` refuses too.
  static func readSection<R: JSONPullReader>(
    _ reader: inout R, itemsLast: Bool = false,
    items readItems: (inout R, SectionHead) throws(JSONParseError) -> Bool
  ) throws(JSONParseError) -> SectionSpec? {
    guard try reader.peek() == .object else { return nil }
    try reader.beginObject()
    var head = SectionHead()
    var seen: UInt8 = 0
    while let key = try reader.nextKey() {
      guard !itemsLast || seen & (1 << 5) == 0 else { return nil }
      let bit: UInt8
      switch key {
      case "id":
        guard try reader.peek() == .string else { return nil }
        head.id = try reader.readString()
        bit = 1 << 0
      case "header", "footer", "kind":
        guard let string = try optionalString(&reader) else { return nil }
        if key == "header" {
          head.header = string
          bit = 1 << 1
        } else if key == "footer" {
          head.footer = string
          bit = 1 << 2
        } else {
          head.kind = string
          bit = 1 << 3
        }
      case "headerMode":
        guard let string = try optionalString(&reader) else { return nil }
        if let string {
          guard let mode = HeaderMode(rawValue: string) else { return nil }
          head.headerMode = mode
        }
        bit = 1 << 4
      case "items":
        guard seen & (1 << 5) == 0 else { return nil }
        switch try reader.peek() {
        case .null: try reader.readNull()
        case .array: guard try readItems(&reader, head) else { return nil }
        default: return nil
        }
        bit = 1 << 5
      default:
        return nil
      }
      guard seen & bit == 0 else { return nil }
      seen |= bit
    }
    return head.spec
  }

  /// A string or null (`.some(nil)`); nil for any other type.
  static func optionalString<R: JSONPullReader>(_ reader: inout R) throws(JSONParseError) -> String?? {
    switch try reader.peek() {
    case .string: return .some(try reader.readString())
    case .null:
      try reader.readNull()
      return .some(nil)
    default: return nil
    }
  }

  /// A Boolean or null (`.some(nil)`); nil for any other type.
  private static func optionalBool<R: JSONPullReader>(_ reader: inout R) throws(JSONParseError) -> Bool?? {
    switch try reader.peek() {
    case .bool: return .some(try reader.readBool())
    case .null:
      try reader.readNull()
      return .some(nil)
    default: return nil
    }
  }

  private static func readTrees<R: JSONPullReader>(
    _ reader: inout R, inherit: Bool, recall: ContentRecall? = nil
  ) throws(JSONParseError) -> [OutlineNode]? {
    try reader.beginArray()
    var trees: [OutlineNode] = []
    while try reader.nextElement() {
      guard let tree = try readTree(&reader, inherit: inherit, recall: recall) else { return nil }
      trees.append(tree)
    }
    return trees
  }

  /// The members ``readTree(_:inherit:)`` takes.
  static let itemNames = JSONNames(itemKeys)

  /// One item as ``tree(_:inherit:)`` reads it (the same members, the same values, the same
  /// defaults), or nil where that checked decoder must decide. With `recall` (a top-level item
  /// of a section being replaced), an item whose `id` comes first and whose other members are
  /// byte for byte the canonical form of the payload recalled for that id is that payload; one
  /// whose members are so in part takes those members' values from it, undecoded.
  static func readTree<R: JSONPullReader>(_ reader: inout R, inherit: Bool, recall: ContentRecall? = nil)
    throws(JSONParseError) -> OutlineNode?
  {
    guard try reader.peek() == .object else { return nil }
    try reader.beginObject()
    var id: String?
    var seen: UInt32 = 0
    var next = try reader.nextKey(in: itemNames)
    var recalled: ItemPayload?
    var form: CanonicalForm?
    if let recall, next == 0, try reader.peek() == .string {
      let string = try reader.readString()
      recalled = recall.payload(of: string)
      if let payload = recalled, let kept = recall.form(of: payload) {
        if recall.matches(kept, &reader) {
          let item = ListItem(string, payload: payload)
          return inherit
            ? .inheritingExpansion(item, children: []) : OutlineNode(item, children: [], isExpanded: false)
        }
        form = kept
      }
      id = string
      seen = 1 << 0
      next = try reader.nextKey(in: itemNames)
    }
    var recognisedMembers = 0
    let recalledContent = form == nil ? nil : recalled?.content
    var text: String?
    var secondaryText: String?
    var image: String?
    var data: JSONValue?
    var selectable = true
    var movable = false
    var kind: String?
    var cells: [String: CellValue] = [:]
    var expanded: Bool?
    var children: [OutlineNode] = []
    var accessories: [PlacedAccessory] = []
    var leading: [ListAction] = []
    var trailing: [ListAction] = []
    var contextMenu: [ListAction] = []
    var top = SeparatorVisibility.automatic
    var bottom = SeparatorVisibility.automatic
    while let index = next {
      guard index >= 0 else { return nil }
      let key = itemNames.strings[index]
      let bit = UInt32(1) << UInt32(index)
      guard seen & bit == 0 else { return nil }  // a repeated member: the checked path reads the first
      seen |= bit
      if let recalled, form?.withValue(of: index, { reader.skip(ifNextValue: $0) }) == true {
        // Byte for byte the current payload's member: its value, undecoded.
        recognisedMembers += 1
        switch key {
        case "text": text = recalledContent?.text
        case "secondaryText": secondaryText = recalledContent?.secondaryText
        case "image": image = recalledContent?.image
        case "data": data = recalledContent?.data
        case "accessories": accessories = recalled.placedAccessories
        case "leadingSwipeActions": leading = recalled.leadingSwipeActions
        case "trailingSwipeActions": trailing = recalled.trailingSwipeActions
        case "contextMenuActions": contextMenu = recalled.contextMenuActions
        case "selectable": selectable = recalled.isSelectable
        case "movable": movable = recalled.isMovable
        case "kind": kind = recalled.kind
        case "cells": cells = recalled.cells
        case "topSeparator": top = recalled.topSeparator
        default: bottom = recalled.bottomSeparator  // the forms hold payload members alone
        }
        next = try reader.nextKey(in: itemNames)
        continue
      }
      switch key {
      case "id":
        guard try reader.peek() == .string else { return nil }
        id = try reader.readString()
      case "kind":
        guard let string = try optionalString(&reader) else { return nil }
        kind = string
      case "cells":
        switch try reader.peek() {
        case .null: try reader.readNull()
        case .object:
          try reader.beginObject()
          while let column = try reader.nextKey() {
            guard cells[column] == nil else {  // the first of a repeated member
              try reader.passValue()
              continue
            }
            switch try reader.peek() {
            case .string: cells[column] = .string(try reader.readString())
            case .number:
              switch try reader.readValue() {
              case .int(let int): cells[column] = .number(Double(int))
              case .double(let double): cells[column] = .number(double)
              default: return nil
              }
            case .bool: cells[column] = .bool(try reader.readBool())
            case .null:
              try reader.readNull()
              cells[column] = .null
            default: return nil
            }
          }
        default: return nil
        }
      case "text", "secondaryText", "image":
        guard let string = try optionalString(&reader) else { return nil }
        if key == "text" {
          text = string
        } else if key == "secondaryText" {
          secondaryText = string
        } else {
          image = string
        }
      case "data":
        if try reader.peek() == .null {
          try reader.readNull()
        } else if let current = recalledContent?.data {
          // Spelled otherwise, but maybe the current value: told while read, nothing built.
          let start = reader
          if try current.isCanonicalForm(ofNext: &reader) {
            data = current
          } else {
            reader = start
            data = .some(try reader.readValue().canonicalData)
          }
        } else {
          data = .some(try reader.readValue().canonicalData)
        }
      case "selectable", "movable", "expanded":
        guard let flag = try optionalBool(&reader) else { return nil }
        if key == "selectable" {
          selectable = flag ?? true
        } else if key == "movable" {
          movable = flag ?? false
        } else {
          expanded = flag
        }
      case "children":
        switch try reader.peek() {
        case .null: try reader.readNull()
        case .array:
          guard let trees = try readTrees(&reader, inherit: inherit) else { return nil }
          children = trees
        default: return nil
        }
      case "accessories":
        switch try reader.peek() {
        case .null: try reader.readNull()
        case .array:
          guard let list = try readAccessories(&reader) else { return nil }
          accessories = list
        default: return nil
        }
      case "leadingSwipeActions", "trailingSwipeActions", "contextMenuActions":
        var list: [ListAction] = []
        switch try reader.peek() {
        case .null: try reader.readNull()
        case .array:
          guard let actions = try readActions(&reader, submenus: key == "contextMenuActions") else {
            return nil
          }
          list = actions
        default: return nil
        }
        if key == "leadingSwipeActions" {
          leading = list
        } else if key == "trailingSwipeActions" {
          trailing = list
        } else {
          contextMenu = list
        }
      case "topSeparator", "bottomSeparator":
        guard let string = try optionalString(&reader) else { return nil }
        var visibility = SeparatorVisibility.automatic
        if let string {
          guard let parsed = SeparatorVisibility(rawValue: string) else { return nil }
          visibility = parsed
        }
        if key == "topSeparator" {
          top = visibility
        } else {
          bottom = visibility
        }
      default:
        return nil
      }
      next = try reader.nextKey(in: itemNames)
    }
    if form != nil { recall?.count(recognisedMembers: recognisedMembers) }
    guard let id else { return nil }
    let content = ItemContent(text: text, secondaryText: secondaryText, image: image, data: data)
    let payload: ItemPayload
    if let recalled,
      recalled.holds(
        content: content, placedAccessories: accessories, leadingSwipeActions: leading,
        trailingSwipeActions: trailing, contextMenuActions: contextMenu, isSelectable: selectable,
        isMovable: movable, cells: cells, kind: kind, topSeparator: top, bottomSeparator: bottom)
    {
      // Equal in other bytes: the current payload is kept (its bytes, and the identity that
      // makes comparing it O(1)), so it is encoded once however often it is re-sent so.
      payload = recalled
    } else {
      payload = ItemPayload(
        content: content, placedAccessories: accessories, leadingSwipeActions: leading,
        trailingSwipeActions: trailing, contextMenuActions: contextMenu, isSelectable: selectable,
        isMovable: movable, cells: cells, kind: kind, topSeparator: top, bottomSeparator: bottom)
    }
    if expanded == nil && inherit {
      return .inheritingExpansion(ListItem(id, payload: payload), children: children)
    }
    return OutlineNode(
      ListItem(id, payload: payload), children: children, isExpanded: expanded ?? false)
  }

  /// Accessories (an array) as ``payload(_:item:)`` reads them, or nil where it must decide
  /// (an unknown or repeated member, a wrong type, a value out of range, a repeated system
  /// accessory).
  private static func readAccessories<R: JSONPullReader>(_ reader: inout R) throws(JSONParseError)
    -> [PlacedAccessory]?
  {
    try reader.beginArray()
    var list: [PlacedAccessory] = []
    while try reader.nextElement() {
      guard let accessory = try readAccessory(&reader) else { return nil }
      list.append(accessory)
    }
    guard ListAccessory.repeatedSystemTypes(list.map(\.accessory)).isEmpty else { return nil }
    return list
  }

  /// The members an accessory object may have: `type`, `placement`, `displayed`, and its type's.
  private static let accessoryNames = JSONNames(["type", "placement", "displayed"] + accessoryMembers)

  private static func readAccessory<R: JSONPullReader>(_ reader: inout R) throws(JSONParseError)
    -> PlacedAccessory?
  {
    guard try reader.peek() == .object else { return nil }
    try reader.beginObject()
    var type: String?
    var placement: AccessoryPlacement?
    var displayed: AccessoryDisplayed?
    var string: String?
    var number: Double?
    var flag: Bool?
    var actions: [ListAction]?
    var seen: UInt8 = 0
    while let index = try reader.nextKey(in: accessoryNames) {
      guard index >= 0 else { return nil }
      let bit = UInt8(1) << UInt8(index)
      guard seen & bit == 0 else { return nil }
      seen |= bit
      switch index {
      case 0:
        guard try reader.peek() == .string else { return nil }
        type = try reader.readString()
      case 1, 2:
        guard let value = try optionalString(&reader) else { return nil }
        guard let value else { continue }
        if index == 1 {
          guard let parsed = AccessoryPlacement(rawValue: value) else { return nil }
          placement = parsed
        } else {
          guard let parsed = AccessoryDisplayed(rawValue: value) else { return nil }
          displayed = parsed
        }
      case 3, 4:
        guard try reader.peek() == .string else { return nil }
        string = try reader.readString()
      case 5:
        guard try reader.peek() == .number else { return nil }
        switch try reader.readValue() {
        case .int(let int): number = Double(int)
        case .double(let double): number = double
        default: return nil
        }
      case 6:
        guard try reader.peek() == .bool else { return nil }
        flag = try reader.readBool()
      default:
        guard try reader.peek() == .array, let list = try readActions(&reader, submenus: true)
        else { return nil }
        actions = list
      }
    }
    // Which member each type takes besides type/placement/displayed (bits of accessoryNames).
    let own = seen & ~0b111
    let accessory: ListAccessory
    if let type, let system = systemAccessories[type] {
      guard own == 0 else { return nil }
      return PlacedAccessory(system, placement: placement, displayed: displayed)
    }
    switch type {
    case "label", "badge":
      guard own == 1 << 3, let string else { return nil }
      accessory = type == "label" ? .label(string) : .badge(string)
    case "image", "custom":
      guard own == 1 << 4, let string else { return nil }
      accessory = type == "image" ? .image(string) : .custom(string)
    case "progress":
      guard own == 1 << 5, let number, number >= 0 && number <= 1 else { return nil }
      accessory = .progress(number)
    case "toggle":
      guard own == 1 << 6, let flag else { return nil }
      accessory = .toggle(isOn: flag)
    case "popUpMenu":
      guard own == 1 << 7, let actions else { return nil }
      accessory = .popUpMenu(actions)
    default:
      return nil
    }
    return PlacedAccessory(accessory, placement: placement, displayed: displayed)
  }

  /// The members an action object may have.
  private static let actionNames = JSONNames(actionKeys)

  /// Actions (an array) as ``actions(_:_:required:submenus:)`` reads them, or nil where it must
  /// decide (also an empty submenu, or one where `submenus` forbids it).
  private static func readActions<R: JSONPullReader>(_ reader: inout R, submenus: Bool) throws(JSONParseError)
    -> [ListAction]?
  {
    try reader.beginArray()
    var list: [ListAction] = []
    while try reader.nextElement() {
      guard try reader.peek() == .object else { return nil }
      try reader.beginObject()
      var id: String?
      var title: String?
      var style = ActionStyle.normal
      var image: String?
      var disabled = false
      var checked = false
      var children: [ListAction] = []
      var seen: UInt8 = 0
      while let index = try reader.nextKey(in: actionNames) {
        guard index >= 0 else { return nil }
        let bit = UInt8(1) << UInt8(index)
        guard seen & bit == 0 else { return nil }
        seen |= bit
        switch index {
        case 0, 1:
          guard try reader.peek() == .string else { return nil }
          if index == 0 { id = try reader.readString() } else { title = try reader.readString() }
        case 2:
          guard let value = try optionalString(&reader) else { return nil }
          if let value {
            guard let parsed = ActionStyle(rawValue: value) else { return nil }
            style = parsed
          }
        case 3:
          guard let value = try optionalString(&reader) else { return nil }
          image = value
        case 4, 5:
          guard let value = try optionalBool(&reader) else { return nil }
          if index == 4 { disabled = value ?? false } else { checked = value ?? false }
        default:
          guard submenus, try reader.peek() == .array,
            let nested = try readActions(&reader, submenus: true),
            !nested.isEmpty
          else { return nil }
          children = nested
        }
      }
      guard let id, let title else { return nil }
      list.append(
        ListAction(
          id: id, title: title, style: style, image: image, isDisabled: disabled,
          isChecked: checked,
          children: children))
    }
    return list
  }
}
