// listd's own JSON-RPC error codes (Protocol/README.md §1) and the mapping of model errors onto them.
import JSON
import JSONRPC
import ListModel

extension ErrorCode {
  public static let unknownList: ErrorCode = -32010
  public static let unknownSection: ErrorCode = -32011
  public static let unknownItem: ErrorCode = -32012
  public static let duplicateID: ErrorCode = -32013
  public static let invalidEdit: ErrorCode = -32014
  public static let historyUnavailable: ErrorCode = -32015
  public static let noOwner: ErrorCode = -32016
  public static let ownerTimeout: ErrorCode = -32017
  public static let notOwner: ErrorCode = -32018
  public static let stopping: ErrorCode = -32019
  public static let journalFailed: ErrorCode = -32020
}

extension ResponseError {
  public static func unknownList(_ id: String) -> ResponseError {
    ResponseError(.unknownList, "unknown list '\(id)'", data: ["list": .string(id)])
  }

  public static func unknownSection(_ id: String, in list: String) -> ResponseError {
    ResponseError(
      .unknownSection, "unknown section '\(id)' in list '\(list)'", data: ["section": .string(id)])
  }

  public static func unknownItem(_ id: String, in list: String) -> ResponseError {
    ResponseError(.unknownItem, "unknown item '\(id)' in list '\(list)'", data: ["item": .string(id)])
  }

  /// -32018: `action` needs ownership of `list`, which `owner` (`{session, name?}`) has.
  public static func notOwner(list: String, owner: JSONValue, action: String) -> ResponseError {
    let name = owner["name"]?.stringValue.map { " (\($0))" } ?? ""
    let session = owner["session"]?.intValue.map { "session \($0)" } ?? "another session"
    return ResponseError(
      .notOwner,
      "list '\(list)' is owned by \(session)\(name): pass \"force\": true to \(action) it anyway",
      data: ["list": .string(list), "owner": owner])
  }

  /// -32019: a request read once the daemon began to stop, or after this session's `exit`: it
  /// was not executed. `why` says which ("the daemon is stopping (SIGTERM)").
  public static func stopping(_ method: String, _ why: String) -> ResponseError {
    ResponseError(
      .stopping, "\(why): '\(method)' was read but not executed", data: ["method": .string(method)])
  }

  public static func duplicateList(_ id: String) -> ResponseError {
    ResponseError(
      .duplicateID, "duplicate list id '\(id)': a list with this id exists",
      data: ["id": .string(id), "kind": "list"])
  }

  public static func staleVersion(list: String, expected: Int, current: Int) -> ResponseError {
    ResponseError(
      .contentModified, "list '\(list)' is at version \(current), not ifVersion \(expected)",
      data: ["currentVersion": .int(Int64(current)), "ifVersion": .int(Int64(expected))])
  }

  /// A model error as the JSON-RPC error of its kind; `editIndex` (the wire edit) replaces the
  /// model's own index, and the message names the list.
  public static func model(_ error: ListModelError, list: String, editIndex: Int? = nil) -> ResponseError {
    model(error, prefix: "list '\(list)': ", editIndex: editIndex)
  }

  /// A model error whose message starts with `prefix` (what it happened to: a list, a side of a diff).
  public static func model(_ error: ListModelError, prefix: String, editIndex: Int? = nil) -> ResponseError {
    let index = editIndex ?? error.editIndex
    let message = prefix + ListModelError(error.kind, editIndex: index).message
    var data = JSONObject()
    if let index { data.append("editIndex", .int(Int64(index))) }
    let code: ErrorCode
    switch error.kind {
    case .duplicateSection(let id):
      code = .duplicateID
      data.append("id", .string(id))
      data.append("kind", "section")
    case .duplicateItem(let id):
      code = .duplicateID
      data.append("id", .string(id))
      data.append("kind", "item")
    case .unknownSection(let id):
      code = .unknownSection
      data.append("section", .string(id))
    case .unknownItem(let id):
      code = .unknownItem
      data.append("item", .string(id))
    case .noSections, .sectionMovedRelativeToItself, .itemMovedRelativeToItself, .itemMovedIntoOwnSubtree,
      .selectionDisabled, .multipleSelectionNotAllowed, .itemNotSelectable, .itemNotVisible,
      .invalidChangeset:
      code = .invalidEdit
      data.append("reason", .string(ListModelError(error.kind).message))
    case .duplicateColumn(let id):
      code = .invalidParams
      data.append("field", "columns")
      data.append("column", .string(id))
    case .unknownColumn(let item, let column):
      code = .invalidParams
      data.append("field", .string("cells.\(column)"))
      data.append("item", .string(item))
      data.append("column", .string(column))
    }
    return ResponseError(code, message, data: .object(data))
  }
}
