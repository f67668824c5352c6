// Evaluating a view definition on one item: field values, the filter, sort and group keys.
import JSON

extension ViewField {
  /// This field's value for an item. Absent values are `null`.
  public func value(id: String, payload: ItemPayload) -> ViewValue {
    switch self {
    case .id: return .string(id)
    case .text: return payload.content.text.map(ViewValue.string) ?? .null
    case .secondaryText: return payload.content.secondaryText.map(ViewValue.string) ?? .null
    case .image: return payload.content.image.map(ViewValue.string) ?? .null
    case .data(let path):
      guard var value = payload.content.data else { return .null }
      for member in path {
        guard case .object(let object) = value, let next = object[member] else { return .null }
        value = next
      }
      return ViewValue(json: value)
    case .cell:
      return ViewField.cellValue(self, payload)
    }
  }

  /// A cell's value; null when the item has no cell for the column.
  static func cellValue(_ field: ViewField, _ payload: ItemPayload) -> ViewValue {
    guard case .cell(let column) = field, let cell = payload.cells[column] else { return .null }
    return ViewValue(cell: cell)
  }

  /// The strings a text query searches in an item: text, secondary text and cells, folded.
  static func searchedStrings(_ payload: ItemPayload) -> [String] {
    var result: [String] = []
    if let text = payload.content.text { result.append(ViewValue.fold(text)) }
    if let secondary = payload.content.secondaryText { result.append(ViewValue.fold(secondary)) }
    for cell in payload.cells.values {
      switch ViewValue(cell: cell) {
      case .string(_, let folded): result.append(folded)
      case .number(let value): result.append(ViewValue.number(value).display)
      default: break
      }
    }
    return result
  }
}

extension FieldPredicate {
  /// Whether the predicate holds for `value`. Ordering operators hold only between values of
  /// the same kind (a string is neither less nor greater than a number).
  public func holds(for value: ViewValue) -> Bool {
    switch op {
    case .equal: return values.contains(value)
    case .notEqual: return !values.contains(value)
    case .in: return values.contains(value)
    case .contains:
      guard case .string(_, let folded) = value, case .string(_, let needle)? = values.first else {
        return false
      }
      return needle.isEmpty || folded.contains(needle)
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      guard let bound = values.first, value.isSameKind(as: bound) else { return false }
      let order = ViewValue.compare(value, bound)
      switch op {
      case .less: return order < 0
      case .lessOrEqual: return order <= 0
      case .greater: return order > 0
      default: return order >= 0
      }
    }
  }
}

extension ViewFilter {
  /// The folded query, nil when there is none (or it is empty).
  var foldedQuery: String? {
    guard let query, !query.isEmpty else { return nil }
    return ViewValue.fold(query)
  }

  /// Whether an item passes: it matches the query (if any) and the predicates.
  public func matches(id: String, payload: ItemPayload) -> Bool {
    if let needle = foldedQuery,
      !ViewField.searchedStrings(payload).contains(where: { $0.contains(needle) })
    {
      return false
    }
    guard !predicates.isEmpty else { return true }
    switch combination {
    case .all: return predicates.allSatisfy { $0.holds(for: $0.field.value(id: id, payload: payload)) }
    case .any: return predicates.contains { $0.holds(for: $0.field.value(id: id, payload: payload)) }
    }
  }
}

extension ViewGrouping {
  /// The group an item falls in.
  public func key(id: String, payload: ItemPayload) -> ViewValue {
    let value = field.value(id: id, payload: payload)
    guard byInitial else { return value }
    guard case .string(_, let folded) = value, let first = folded.first else { return .null }
    return .string(String(first).uppercased())
  }

  /// The id of the section of group `key`: its JSON text, so values of different kinds never share one.
  public static func sectionID(_ key: ViewValue) -> String {
    key.json.jsonString()
  }
}

extension ViewDefinition {
  /// Whether an item is in the view.
  public func includes(id: String, payload: ItemPayload) -> Bool {
    filter?.matches(id: id, payload: payload) ?? true
  }

  /// The sort keys of an item, in order.
  public func sortValues(id: String, payload: ItemPayload) -> [ViewValue] {
    sort.map { $0.field.value(id: id, payload: payload) }
  }

  /// Compares two items' sort values (-1, 0, 1), each key in its direction.
  public func compareSortValues(_ a: [ViewValue], _ b: [ViewValue]) -> Int {
    for (index, key) in sort.enumerated() {
      let order = ViewValue.compare(a[index], b[index])
      if order != 0 { return key.descending ? -order : order }
    }
    return 0
  }

  /// Compares two group keys (-1, 0, 1) in the grouping's direction.
  public func compareGroups(_ a: ViewValue, _ b: ViewValue) -> Int {
    let order = ViewValue.compare(a, b)
    return group?.descending == true ? -order : order
  }
}
