// The keys the TUI understands, decoded from terminal input.

/// A key press.
public enum Key: Equatable, Sendable {
  /// A printable character (`j`, `/`, `é`, …).
  case char(Character)
  case up, down, left, right
  case pageUp, pageDown, home, end
  case enter, tab, backTab, backspace, delete, escape
  /// Ctrl with a letter (`ctrl("l")`); Ctrl-C arrives as SIGINT while the terminal keeps ISIG.
  case ctrl(Character)
  /// An escape sequence the decoder does not know (ignored by the app).
  case unknown
}
