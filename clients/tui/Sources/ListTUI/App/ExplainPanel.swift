// The explanation panel's state: which row, and its lines once `list/explain` answers.

/// Why a row last changed, as the panel shows it.
public struct ExplainPanel: Equatable, Sendable {
  /// The item asked about.
  public var item: String
  /// Its text (or id), for the panel's title.
  public var title: String
  /// The explanation in words (``ExplainWords``); nil until the answer arrives.
  public var lines: [String]?
  /// The error the daemon answered instead, if any.
  public var failure: String?
}
