// Terminal cells read back from text with SGR escapes (rendered lines, tmux capture-pane -e), and their contrast on a theme.
import Foundation

/// The attributes of one cell: colours as palette indexes (nil: the terminal's default).
struct CellStyle: Equatable, CustomStringConvertible {
  var foreground: Int?
  var background: Int?
  var bold = false
  var dim = false
  var underline = false
  var reverse = false

  var description: String {
    var parts: [String] = []
    if let foreground { parts.append("fg \(foreground)") }
    if let background { parts.append("bg \(background)") }
    if bold { parts.append("bold") }
    if dim { parts.append("dim") }
    if underline { parts.append("underline") }
    if reverse { parts.append("reverse") }
    return parts.isEmpty ? "plain" : parts.joined(separator: " ")
  }
}

/// A character cell.
struct Cell {
  let character: Character
  let style: CellStyle
}

/// The blank cells of `cells` that show a colour: a background, or under reverse video a
/// foreground, which then fills the cell (a coloured block). Described by column and style.
func colouredBlankCells(_ cells: [Cell]) -> [String] {
  cells.enumerated().compactMap { column, cell in
    guard cell.character == " " else { return nil }
    let shown = cell.style.reverse ? cell.style.foreground : cell.style.background
    return shown == nil ? nil : "column \(column): \(cell.style)"
  }
}

enum Cells {
  /// The lines of `text` as cells. SGR state carries from line to line, as in tmux's
  /// `capture-pane -e` output; other escape sequences are skipped.
  static func parse(_ text: String) -> [[Cell]] {
    var lines: [[Cell]] = [[]]
    var style = CellStyle()
    var characters = Array(text)[...]
    while let character = characters.popFirst() {
      if character == "\n" {
        lines.append([])
      } else if character == "\u{1b}", characters.first == "[" {
        characters.removeFirst()
        var parameters = ""
        while let next = characters.popFirst() {
          if next.isLetter {
            if next == "m" { apply(parameters, to: &style) }
            break
          }
          parameters.append(next)
        }
      } else {
        lines[lines.count - 1].append(Cell(character: character, style: style))
      }
    }
    return lines
  }

  /// The cells of one line (state starting from the default).
  static func line(_ text: String) -> [Cell] { parse(text).first ?? [] }

  private static func apply(_ parameters: String, to style: inout CellStyle) {
    var codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
    if codes.isEmpty { codes = [0] }
    while let code = codes.popFirst() {
      switch code {
      case 0: style = CellStyle()
      case 1: style.bold = true
      case 2: style.dim = true
      case 4: style.underline = true
      case 7: style.reverse = true
      case 22: (style.bold, style.dim) = (false, false)
      case 24: style.underline = false
      case 27: style.reverse = false
      case 30...37: style.foreground = code - 30
      case 39: style.foreground = nil
      case 40...47: style.background = code - 40
      case 49: style.background = nil
      case 90...97: style.foreground = code - 90 + 8
      case 100...107: style.background = code - 100 + 8
      case 38, 48:
        // 38;5;N (256 colours); 38;2;R;G;B is not used by listd-tui and is skipped.
        let kind = codes.popFirst()
        if kind == 5, let index = codes.popFirst() {
          if code == 38 { style.foreground = index } else { style.background = index }
        } else if kind == 2 {
          codes = codes.dropFirst(3)
        }
      default: break
      }
    }
  }
}

/// A terminal colour theme: the default foreground and background that cells without colours get.
struct Theme {
  typealias RGB = (red: Double, green: Double, blue: Double)

  let name: String
  /// tmux's `window-style`, which gives the pane these defaults.
  let tmuxStyle: String
  let foreground: Int
  let background: Int

  /// Light grey on near-black.
  static let dark = Theme(
    name: "dark", tmuxStyle: "fg=colour252,bg=colour234", foreground: 252, background: 234)
  /// Near-black on light grey.
  static let light = Theme(
    name: "light", tmuxStyle: "fg=colour235,bg=colour255", foreground: 235, background: 255)

  /// The colours a cell shows: its own or the theme's, swapped by reverse video.
  func colours(of style: CellStyle) -> (foreground: Int, background: Int) {
    let pair = (style.foreground ?? foreground, style.background ?? background)
    return style.reverse ? (pair.1, pair.0) : pair
  }

  /// The WCAG contrast ratio of a cell's text on its background (1…21).
  func contrast(of style: CellStyle) -> Double {
    let (text, back) = colours(of: style)
    let a = Self.luminance(Self.rgb(text))
    let b = Self.luminance(Self.rgb(back))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
  }

  /// xterm's palette: 16 system colours, the 6×6×6 cube, 24 greys.
  static func rgb(_ index: Int) -> RGB {
    let system: [(Double, Double, Double)] = [
      (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
      (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
      (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
    if index < 16 { return system[index] }
    if index < 232 {
      let level = { (value: Int) -> Double in value == 0 ? 0 : Double(55 + 40 * value) }
      let cube = index - 16
      return (level(cube / 36), level(cube / 6 % 6), level(cube % 6))
    }
    let grey = Double(8 + 10 * (index - 232))
    return (grey, grey, grey)
  }

  /// Relative luminance (WCAG 2).
  static func luminance(_ colour: RGB) -> Double {
    func linear(_ value: Double) -> Double {
      let c = value / 255
      return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(colour.red) + 0.7152 * linear(colour.green) + 0.0722 * linear(colour.blue)
  }
}
