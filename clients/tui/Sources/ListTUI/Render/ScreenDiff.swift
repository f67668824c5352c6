// Redraws only the lines that changed since the last frame, so the screen never flickers.

/// Turns successive frames into the minimal terminal output: a full redraw for the first
/// frame and after a resize, then only the lines whose rendered text changed, each addressed
/// with a cursor move. The whole update is wrapped in synchronized-output mode (DEC 2026),
/// which terminals that know it use to show it at once.
public struct ScreenDiff: Sendable {
  private var previous: [String] = []
  private var width = 0

  /// A differ that has drawn nothing.
  public init() {}

  /// Forgets the last frame: the next one is drawn whole (after a resize, suspend or error).
  public mutating func invalidate() { previous = [] }

  /// The output that turns the last frame into `lines` (rendered lines, each exactly `width`
  /// cells). Empty when nothing changed. O(lines).
  public mutating func update(_ lines: [String], width: Int) -> String {
    var output = ""
    if width != self.width || lines.count != previous.count {
      output += "\u{1b}[H\u{1b}[2J"
      previous = Array(repeating: "\u{0}", count: lines.count)
      self.width = width
    }
    for (index, line) in lines.enumerated() where previous[index] != line {
      output += "\u{1b}[\(index + 1);1H\u{1b}[0m" + line
      previous[index] = line
    }
    guard !output.isEmpty else { return "" }
    return "\u{1b}[?2026h" + output + "\u{1b}[0m\u{1b}[?2026l"
  }
}
