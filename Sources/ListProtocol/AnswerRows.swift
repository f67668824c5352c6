// The `rows` member of a mutation: whether its answer's changeset carries the rows (`all`) or only its structure (`none`).
import JSONRPC

/// What a mutation's answer carries of the rows of its changeset (Protocol/README.md,
/// "Lean answers"). Subscribers' notifications are not affected.
public enum AnswerRows: String, CaseIterable, Sendable {
  /// Every row, as the notifications carry them (the default, but for `list/create`).
  case all
  /// No row: runs are `{at, count}`, inserted sections `{id, header?, footer?, kind?,
  /// headerMode?, rowCount}`.
  case none

  /// The optional `rows` member of `p` (absent: `default`); -32602 naming it for another value.
  public init(_ p: Params, default: AnswerRows = .all) throws(ResponseError) {
    self = try p.optionalEnumeration("rows", as: AnswerRows.self) ?? `default`
  }

  /// The changeset encoding of an answer of this form.
  public var encoding: ChangesetEncoding.Rows {
    switch self {
    case .all: .all
    case .none: .none
    }
  }
}
