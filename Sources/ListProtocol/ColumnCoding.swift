// Wire form of columns, cells and the list attributes that list/create, list/info and snapshots carry.
import JSON
import JSONRPC
import ListModel

/// Columns `[{id, title, alignment?, width?, sortable?}]` and cells `{columnId: value}`, both
/// ways, with -32602 errors naming the field and the value. Defaults are omitted when encoding.
public enum ColumnCoding {
  /// A column: `{id, title, alignment?, width?, sortable?}`.
  public static func column(_ column: ListColumn) -> JSONValue {
    var object: JSONObject = ["id": .string(column.id), "title": .string(column.title)]
    if column.alignment != .leading { object.append("alignment", .string(column.alignment.rawValue)) }
    if let width = column.width { object.append("width", .double(width)) }
    if column.isSortable { object.append("sortable", true) }
    return .object(object)
  }

  public static func columns(_ columns: [ListColumn]) -> JSONValue { .array(columns.map(column)) }

  /// The `key` member as columns: ids non-empty and unique, widths positive and finite.
  public static func columns(_ p: Params, _ key: String) throws(ResponseError) -> [ListColumn] {
    var seen = Set<String>()
    return try p.objects(key).map { c throws(ResponseError) in
      try c.requireKnown(["id", "title", "alignment", "width", "sortable"])
      let id = try c.string("id")
      guard !id.isEmpty else { throw c.invalid("id", "must not be empty") }
      guard seen.insert(id).inserted else {
        throw c.mismatch("id", "unique among the columns", .string(id))
      }
      let width = try c.optionalDouble("width")
      if let width, !(width > 0 && width.isFinite) {
        throw c.mismatch("width", "a positive number", .double(width))
      }
      return ListColumn(
        id: id, title: try c.string("title"),
        alignment: try c.optionalEnumeration("alignment", as: ColumnAlignment.self) ?? .leading,
        width: width, isSortable: try c.optionalBool("sortable") ?? false)
    }
  }

  /// The `cells` member of an item: an object whose values are strings, numbers, Booleans or
  /// null. Whether each names a column of the list is the model's check (-32602 as well).
  public static func cells(_ p: Params) throws(ResponseError) -> [String: CellValue] {
    guard let value = try p.member("cells"), !value.isNull else { return [:] }
    guard case .object(let object) = value else {
      throw p.mismatch("cells", "an object of column id to value", value)
    }
    var cells: [String: CellValue] = [:]
    cells.reserveCapacity(object.count)
    for (column, member) in object where cells[column] == nil {
      let cell: CellValue
      switch member {
      case .string(let string): cell = .string(string)
      case .int(let int): cell = .number(Double(int))
      case .double(let double): cell = .number(double)
      case .bool(let bool): cell = .bool(bool)
      case .null: cell = .null
      default:
        throw p.mismatch("cells.\(column)", "a string, number, Boolean or null", member)
      }
      cells[column] = cell
    }
    return cells
  }
}

/// An empty state: `{kind?, query?, title, image?, description?}` (`kind` `search` with its
/// `query`, or `standard`, the default, without one).
public enum EmptyStateCoding {
  public static func encode(_ state: EmptyState?) -> JSONValue {
    guard let state else { return .null }
    var object = JSONObject()
    if state.kind != .standard { object.append("kind", .string(state.kind.rawValue)) }
    if let query = state.query { object.append("query", .string(query)) }
    object.append("title", .string(state.title))
    if let image = state.image { object.append("image", .string(image)) }
    if let description = state.description { object.append("description", .string(description)) }
    return .object(object)
  }

  /// The `key` member: an empty state, or nil for `null`.
  public static func decode(_ p: Params, _ key: String) throws(ResponseError) -> EmptyState? {
    guard let state = try p.optionalObject(key) else {
      _ = try p.value(key)  // present: null removes it
      return nil
    }
    try state.requireKnown(["kind", "query", "title", "image", "description"])
    let kind = try state.optionalEnumeration("kind", as: EmptyState.Kind.self) ?? .standard
    let query = try state.optionalString("query")
    if kind == .search && query == nil { throw state.missing("query") }
    if kind == .standard, let query {
      throw state.invalid(
        "query", "is only for \"kind\": \"search\", got \(JSONValue.string(query).abbreviatedJSON)")
    }
    var result =
      kind == .search
      ? EmptyState.search(query: query ?? "") : EmptyState(title: try state.string("title"))
    if let title = try state.optionalString("title") { result.title = title }
    if try state.member("image") != nil { result.image = try state.optionalString("image") }
    if try state.member("description") != nil { result.description = try state.optionalString("description") }
    return result
  }
}

/// The list attributes beside its sections — `columns`, `emptyState`, `editing` — as
/// `list/create` takes them and `list/info`, snapshots and the journal carry them (each only
/// when not the default).
public enum ListAttributeCoding {
  /// The members `list/create` accepts for them.
  public static let keys = ["columns", "emptyState", "editing"]

  /// Appends the non-default attributes of `snapshot`. O(columns).
  public static func append(_ snapshot: ListSnapshot, to object: inout JSONObject) {
    if !snapshot.columns.isEmpty { object.append("columns", ColumnCoding.columns(snapshot.columns)) }
    if let state = snapshot.emptyState { object.append("emptyState", EmptyStateCoding.encode(state)) }
    if snapshot.isEditing { object.append("editing", true) }
  }

  /// The non-default attributes as an object. O(columns).
  public static func object(_ snapshot: ListSnapshot) -> JSONObject {
    var object = JSONObject()
    append(snapshot, to: &object)
    return object
  }

  /// Sets the attributes `p` names on `snapshot` (an empty one: nothing to check cells against).
  public static func decode(_ p: Params, into snapshot: inout ListSnapshot, list: String)
    throws(ResponseError)
  {
    if try p.contains("columns") {
      let columns = try ColumnCoding.columns(p, "columns")
      do throws(ListModelError) {
        try snapshot.setColumns(columns)
      } catch {
        throw ResponseError.model(error, list: list)
      }
    }
    if try p.member("emptyState") != nil {
      snapshot.setEmptyState(try EmptyStateCoding.decode(p, "emptyState"))
    }
    if let editing = try p.optionalBool("editing") { snapshot.setEditing(editing) }
  }
}
