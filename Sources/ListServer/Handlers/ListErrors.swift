// A live list's refusals (ListError) as the JSON-RPC errors of Protocol/README.md §1.
import JSON
import JSONRPC
import ListProtocol

extension ResponseError {
  /// The JSON-RPC error of a list's refusal: its code, message and `data`.
  init(_ error: ListError) {
    switch error {
    case .unknownList(let id):
      self = .unknownList(id)
    case .duplicateList(let id):
      self = .duplicateList(id)
    case .staleVersion(let list, let expected, let current):
      self = .staleVersion(list: list, expected: expected, current: current)
    case .journalFailed(let list, let cause):
      self = .journalFailed(list: list, cause)
    case .notOwner(let list, let owner, let action):
      self = .notOwner(list: list, owner: owner.identity.json, action: action)
    case .invalidParams(let message, let field):
      self = .invalidParams(message, field: field)
    case .historyUnavailable(let message, let oldest, let current):
      self = ResponseError(
        .historyUnavailable, message,
        data: ["oldestVersion": .int(Int64(oldest)), "currentVersion": .int(Int64(current))])
    case .refreshFailed(let list, .answered(let code, let message)):
      self = ResponseError(
        ErrorCode(rawValue: code), "the owner of list '\(list)' failed to refresh: \(message)")
    case .refreshFailed(let list, .timedOut(let timeout)):
      self = ResponseError(
        .ownerTimeout, "the owner of list '\(list)' did not answer the refresh within \(timeout)",
        data: ["list": .string(list)])
    case .refreshFailed(let list, .ownerGone):
      self = ResponseError(
        .noOwner, "the owner of list '\(list)' went away during the refresh", data: ["list": .string(list)])
    }
  }

  /// `error` as a handler answers it: a list's refusal as its JSON-RPC error, anything else as
  /// it is.
  static func mapping(_ error: any Error) -> any Error {
    if let error = error as? ListError { return ResponseError(error) }
    return error
  }
}

/// Runs `body`, a call into a live list, answering its refusal as the JSON-RPC error.
func mappingListErrors<T>(_ body: () throws(ListError) -> T) throws(ResponseError) -> T {
  do {
    return try body()
  } catch {
    throw ResponseError(error)
  }
}
