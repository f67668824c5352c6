// The overlays drawn over a screen: help, the actions popup, the search prompt, the explanation panel.

/// The actions popup of one row.
public struct ActionMenu: Equatable, Sendable {
  /// The item the actions belong to.
  public var item: String
  /// Its text, for the popup's title.
  public var title: String
  /// The actions.
  public var actions: [RowAction]
  /// The highlighted action.
  public var cursor = 0
}

/// What is drawn over the current screen and gets the keys first.
public enum Overlay: Equatable, Sendable {
  /// The key help.
  case help
  /// The actions popup.
  case actions(ActionMenu)
  /// The search prompt, with the text typed so far.
  case search(String)
  /// Why a row last changed (`list/explain`).
  case explain(ExplainPanel)
}

/// The state of the connection to the daemon.
public enum ConnectionState: Equatable, Sendable {
  /// Connecting for the first time.
  case connecting
  /// Connected and initialized.
  case connected
  /// Lost (or never made), with the reason; the runner retries every second.
  case disconnected(String)
}
