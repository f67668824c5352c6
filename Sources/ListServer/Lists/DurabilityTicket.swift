// The one convention for answers that wait for the journal: a ticket returned with the result.

/// The promise of the journal for one record written in `--sync batch` mode: what an answer
/// reporting that record's change waits for.
///
/// Every operation that journals returns its ticket as part of its result
/// (``ListCommit/durabilityTicket``, ``ListDisposal/durabilityTicket``,
/// ``ListServer/CreatedList/durabilityTicket``); nil when nothing needs waiting for (no journal,
/// or a sync mode that makes records durable before returning). Nothing is parked in a list for
/// a caller to fetch later.
struct DurabilityTicket: Sendable {
  let journal: Journal
  let number: UInt64

  /// The ticket of `journal`'s record `number`, nil without one.
  init?(_ journal: Journal?, _ number: UInt64?) {
    guard let journal, let number else { return nil }
    self.journal = journal
    self.number = number
  }

  /// Runs `body` once `ticket`'s record is durable (after the bodies of earlier tickets), or at
  /// once without a ticket.
  static func afterDurable(_ ticket: DurabilityTicket?, _ body: @escaping @Sendable () -> Void) {
    Journal.afterDurable(ticket?.journal, ticket?.number, body)
  }
}
