// The fields that differ between two versions of a row or a section header.

extension FieldChange {
  /// The fields of `new` that differ from `old` (same item), in wire order. O(size of the payloads).
  static func between(_ old: Row, _ new: Row) -> [FieldChange] {
    between(
      old.payload, new.payload, level: (old.level, new.level), parent: (old.parent, new.parent),
      hasChildren: (old.hasChildren, new.hasChildren), expanded: (old.isExpanded, new.isExpanded))
  }

  /// The fields that differ, given each side's payload and row fields.
  static func between(
    _ oldPayload: ItemPayload, _ newPayload: ItemPayload, level: (Int, Int), parent: (String?, String?),
    hasChildren: (Bool, Bool), expanded: (Bool, Bool)
  ) -> [FieldChange] {
    var changes: [FieldChange] = []
    func string(_ value: String?) -> Value { value.map(Value.string) ?? .absent }
    func add(_ field: Field, _ a: Value, _ b: Value) {
      if a != b { changes.append(FieldChange(field, old: a, new: b)) }
    }
    if !oldPayload.isIdentical(to: newPayload) && oldPayload != newPayload {
      let (a, b) = (oldPayload, newPayload)
      add(.text, string(a.content.text), string(b.content.text))
      add(.secondaryText, string(a.content.secondaryText), string(b.content.secondaryText))
      add(.image, string(a.content.image), string(b.content.image))
      add(.data, a.content.data.map(Value.json) ?? .absent, b.content.data.map(Value.json) ?? .absent)
      add(.accessories, .accessories(a.placedAccessories), .accessories(b.placedAccessories))
      add(.leadingSwipeActions, .actions(a.leadingSwipeActions), .actions(b.leadingSwipeActions))
      add(.trailingSwipeActions, .actions(a.trailingSwipeActions), .actions(b.trailingSwipeActions))
      add(.contextMenuActions, .actions(a.contextMenuActions), .actions(b.contextMenuActions))
      add(.selectable, .bool(a.isSelectable), .bool(b.isSelectable))
      add(.movable, .bool(a.isMovable), .bool(b.isMovable))
      add(.cells, .json(CellValue.json(a.cells)), .json(CellValue.json(b.cells)))
      add(.kind, string(a.kind), string(b.kind))
      add(.topSeparator, .string(a.topSeparator.rawValue), .string(b.topSeparator.rawValue))
      add(.bottomSeparator, .string(a.bottomSeparator.rawValue), .string(b.bottomSeparator.rawValue))
    }
    add(.level, .int(level.0), .int(level.1))
    add(.parent, string(parent.0), string(parent.1))
    add(.hasChildren, .bool(hasChildren.0), .bool(hasChildren.1))
    add(.expanded, .bool(expanded.0), .bool(expanded.1))
    return changes
  }

  /// The header, footer, kind and header mode changes of a section. O(1) plus the strings' length.
  static func between(
    header: String?, footer: String?, newHeader: String?, newFooter: String?, kind: (String?, String?),
    headerMode: (HeaderMode, HeaderMode)
  ) -> [FieldChange] {
    var changes = between(header: header, footer: footer, newHeader: newHeader, newFooter: newFooter)
    if kind.0 != kind.1 {
      changes.append(
        FieldChange(.kind, old: kind.0.map(Value.string) ?? .absent, new: kind.1.map(Value.string) ?? .absent)
      )
    }
    if headerMode.0 != headerMode.1 {
      changes.append(
        FieldChange(.headerMode, old: .string(headerMode.0.rawValue), new: .string(headerMode.1.rawValue)))
    }
    return changes
  }

  /// The header and footer changes of a section. O(1) plus the strings' length.
  static func between(header: String?, footer: String?, newHeader: String?, newFooter: String?)
    -> [FieldChange]
  {
    var changes: [FieldChange] = []
    if header != newHeader {
      changes.append(
        FieldChange(
          .header, old: header.map(Value.string) ?? .absent, new: newHeader.map(Value.string) ?? .absent))
    }
    if footer != newFooter {
      changes.append(
        FieldChange(
          .footer, old: footer.map(Value.string) ?? .absent, new: newFooter.map(Value.string) ?? .absent))
    }
    return changes
  }

  /// Whether the field belongs to the payload (changed by `setPayload`, `replaceItems`, …).
  var isPayload: Bool {
    switch field {
    case .level, .parent, .hasChildren, .expanded, .header, .footer, .headerMode: return false
    default: return true
    }
  }
}

extension FieldChange {
  /// The fields that differ between an item's node in an old and a new snapshot, as
  /// ``between(_:_:)`` of their rows, without building the rows. O(size of the payloads).
  static func between(_ old: Node, _ new: Node, _ oldStrings: [String], _ newStrings: [String])
    -> [FieldChange]
  {
    let parentChanged =
      old.parent < 0 || new.parent < 0
      ? old.parent != new.parent : oldStrings[Int(old.parent)] != newStrings[Int(new.parent)]
    if old.payload.isIdentical(to: new.payload) && old.level == new.level && !parentChanged
      && old.hasChildren == new.hasChildren && old.isExpanded == new.isExpanded
    {
      return []
    }
    return between(
      old.payload, new.payload, level: (Int(old.level), Int(new.level)),
      parent: (
        old.parent < 0 ? nil : oldStrings[Int(old.parent)], new.parent < 0 ? nil : newStrings[Int(new.parent)]
      ),
      hasChildren: (old.hasChildren, new.hasChildren), expanded: (old.isExpanded, new.isExpanded))
  }
}
