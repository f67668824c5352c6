// The -32020 error of a change the journal could not write: the server's own, since it names a JournalError.
import JSON
import JSONRPC
import ListProtocol

extension ResponseError {
  /// -32020: a change of `list` could not be written to the journal (`--state`), so it was
  /// not made; `error` names the cause (a full disk, an I/O error).
  static func journalFailed(list: String, _ error: JournalError) -> ResponseError {
    ResponseError(
      .journalFailed, "list '\(list)' was not changed: \(error)",
      data: ["list": .string(list), "cause": .string(error.description)])
  }
}
