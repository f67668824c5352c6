// Wire form of columns, cells and the list attributes that list/create, list/info and snapshots carry.
import JSON
import JSONRPC
import ListModel

/// Columns `[{id, title, alignment?, width?, sortable?}]` and cells `{columnId: value}`, both
/// ways, with -32602 errors naming the field and the value. Defaults are omitted when encoding.
enum ColumnCoding {
  /// A column: `{id, title, alignment?, width?, sortable?}`.
  static func column(_ column: ListColumn) -> JSONValue {
    var object: JSONObject = ["id": .string(column.id), "title": .string(column.title)]
    if column.alignment != .leading { object.append("alignment", .string(column.alignment.rawValue)) }
    if let width = column.width { object.append("width", .double(width)) }
    if column.isSortable { object.append("sortable", true) }
    return .object(object)
  }

  static func columns(_ columns: [ListColumn]) -> JSONValue { .array(columns.map(column)) }

  /// The `key` member as columns: ids non-empty and unique, widths positive and finite.
  static func columns(_ p: Params, _ key: String) throws(ResponseError) -> [ListColumn] {
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
  static func cells(_ p: Params) throws(ResponseError) -> [String: CellValue] {
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

/// The list attributes beside its sections — `columns` — as `list/create` takes them and
/// `list/info`, snapshots and the journal carry them (each only when not the default).
enum ListAttributeCoding {
  /// The members `list/create` accepts for them.
  static let keys = ["columns"]

  /// Appends the non-default attributes of `snapshot`. O(columns).
  static func append(_ snapshot: ListSnapshot, to object: inout JSONObject) {
    if !snapshot.columns.isEmpty { object.append("columns", ColumnCoding.columns(snapshot.columns)) }
  }

  /// The non-default attributes as an object. O(columns).
  static func object(_ snapshot: ListSnapshot) -> JSONObject {
    var object = JSONObject()
    append(snapshot, to: &object)
    return object
  }

  /// Sets the attributes `p` names on `snapshot` (an empty one: nothing to check cells against).
  static func decode(_ p: Params, into snapshot: inout ListSnapshot, list: String) throws(ResponseError) {
    if try p.contains("columns") {
      let columns = try ColumnCoding.columns(p, "columns")
      do throws(ListModelError) {
        try snapshot.setColumns(columns)
      } catch {
        throw ResponseError.model(error, list: list)
      }
    }
  }
}
