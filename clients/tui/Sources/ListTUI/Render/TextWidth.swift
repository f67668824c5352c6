// Display width of text in terminal cells, conservative: wide East Asian and emoji count 2.

/// Terminal cell widths.
public enum TextWidth {
  /// The cells `character` takes: 0 for combining marks and zero-width characters, 2 for wide
  /// East Asian characters and emoji, 1 otherwise (including the glyphs the TUI draws).
  public static func of(_ character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    let value = scalar.value
    if value < 0x20 || (0x7f..<0xa0).contains(value) { return 0 }
    if (0x0300..<0x0370).contains(value) || (0x200b...0x200f).contains(value) || value == 0xfe0f {
      return 0
    }
    if character.unicodeScalars.count > 1, character.unicodeScalars.contains(where: { $0.value == 0xfe0f }) {
      return 2
    }
    let wide: [ClosedRange<UInt32>] = [
      0x1100...0x115f, 0x2e80...0x303e, 0x3041...0x33ff, 0x3400...0x4dbf, 0x4e00...0x9fff,
      0xa000...0xa4cf, 0xac00...0xd7a3, 0xf900...0xfaff, 0xfe30...0xfe4f, 0xff00...0xff60,
      0xffe0...0xffe6, 0x1f300...0x1f64f, 0x1f900...0x1f9ff, 0x1f680...0x1f6ff, 0x20000...0x3fffd,
    ]
    return wide.contains { $0.contains(value) } ? 2 : 1
  }

  /// The cells `text` takes. O(length).
  public static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

  /// `text` in lines of at most `width` cells, broken at spaces where it can be (a word longer
  /// than a line is cut into pieces). O(length).
  public static func wrap(_ text: String, to width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
      var word = word
      if !line.isEmpty, of(line) + 1 + of(word) > width {
        lines.append(line)
        line = ""
      }
      while of(word) > width {
        // A word wider than the line: as much as fits, then the rest on the next.
        var piece = ""
        for character in word where of(piece) + of(character) <= width - of(line) - (line.isEmpty ? 0 : 1) {
          piece.append(character)
        }
        if piece.isEmpty {
          lines.append(line)
          line = ""
          continue
        }
        lines.append(line.isEmpty ? piece : line + " " + piece)
        line = ""
        word.removeFirst(piece.count)
      }
      line = line.isEmpty ? word : line + " " + word
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }

  /// `text` cut to at most `width` cells, ending with `…` when cut; control characters dropped.
  public static func truncate(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    var result = ""
    var used = 0
    for character in text {
      let cells = of(character)
      if cells == 0, character.unicodeScalars.first.map({ $0.value < 0x20 || $0.value == 0x7f }) == true {
        continue
      }
      if used + cells > width {
        // Make room for the ellipsis.
        while used + 1 > width, let last = result.popLast() { used -= of(last) }
        return result + "…"
      }
      result.append(character)
      used += cells
    }
    return result
  }
}
