// A screen line as styled spans, rendered to exactly the terminal width with ANSI SGR codes.

/// How a span is drawn.
public struct Style: Equatable, Sendable {
  /// An ANSI colour (30–37 foreground codes minus 30: 0 black … 7 white), nil for default.
  public var color: Int?
  /// Bold.
  public var bold = false
  /// Dim (faint).
  public var dim = false
  /// Reverse video (the cursor line, badges).
  public var reverse = false
  /// Underline (the search prompt).
  public var underline = false
  /// A background colour (0–7), nil for default: flashes. Never drawn on the terminal's default
  /// foreground, which may be light or dark: with `color` nil it is paired with
  /// ``foreground(on:)``.
  public var background: Int?

  /// A style.
  public init(
    color: Int? = nil, bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false,
    background: Int? = nil
  ) {
    self.color = color
    self.bold = bold
    self.dim = dim
    self.reverse = reverse
    self.underline = underline
    self.background = background
  }

  /// No attributes.
  public static let plain = Style()
  public static let black = 0, red = 1, green = 2, yellow = 3, blue = 4, magenta = 5, cyan = 6, white = 7

  /// The foreground that reads on `background` whatever the terminal's theme: black on the
  /// light colours (green, yellow, cyan, white), white on the dark ones.
  public static func foreground(on background: Int) -> Int {
    [green, yellow, cyan, white].contains(background) ? black : white
  }

  /// The SGR sequence for this style (after a reset); colours only when `colors`.
  func sgr(colors: Bool) -> String {
    var codes: [String] = []
    if bold { codes.append("1") }
    if dim { codes.append("2") }
    if underline { codes.append("4") }
    if reverse { codes.append("7") }
    if colors, let background {
      codes.append("3\(color ?? Self.foreground(on: background))")
      codes.append("4\(background)")
    } else if colors, let color {
      codes.append("3\(color)")
    }
    return codes.isEmpty ? "" : "\u{1b}[" + codes.joined(separator: ";") + "m"
  }
}

/// A line of styled text.
public struct StyledLine: Equatable, Sendable {
  /// The spans, left to right.
  public var spans: [(text: String, style: Style)]
  /// Spans placed at the right edge (accessories, counts), dropped first when space runs out.
  public var right: [(text: String, style: Style)] = []
  /// A style laid over the whole line, padding included: the cursor's reverse video, a flash's
  /// background. An overlay's background comes with its foreground: it replaces the spans' colours.
  public var overlay: Style?

  /// A line of `spans`.
  public init(_ spans: [(text: String, style: Style)] = [], right: [(text: String, style: Style)] = []) {
    self.spans = spans
    self.right = right
  }

  /// A line of one span.
  public init(_ text: String, _ style: Style = .plain) { self.init([(text, style)]) }

  public static func == (lhs: StyledLine, rhs: StyledLine) -> Bool {
    lhs.plainText == rhs.plainText && lhs.spans.map(\.style) == rhs.spans.map(\.style)
      && lhs.right.map(\.style) == rhs.right.map(\.style) && lhs.overlay == rhs.overlay
  }

  /// Appends a span.
  public mutating func add(_ text: String, _ style: Style = .plain) { spans.append((text, style)) }

  /// The text without styles (left then right spans).
  public var plainText: String { (spans + right).map(\.text).joined() }

  /// The line as terminal output: exactly `width` cells (truncated with `…`, padded with
  /// spaces), each span's SGR codes when it has a style, ending with a reset.
  /// `colors` false (NO_COLOR) keeps bold, dim, underline and reverse but drops colours; an
  /// overlay's background becomes an underline.
  public func render(width: Int, colors: Bool) -> String {
    var rightWidth = right.reduce(0) { $0 + TextWidth.of($1.text) }
    var rightSpans = right
    // Right spans need at least a gap and half the line for the left text; else drop them.
    while !rightSpans.isEmpty && rightWidth > width / 2 {
      rightWidth -= TextWidth.of(rightSpans.removeFirst().text)
    }
    let leftWidth = width - rightWidth - (rightSpans.isEmpty ? 0 : 1)
    var output = ""
    var used = 0
    func emit(_ text: String, _ style: Style) {
      var merged = style
      if let overlay {
        merged.reverse = merged.reverse != overlay.reverse
        merged.bold = merged.bold || overlay.bold
        merged.underline = merged.underline || overlay.underline
        if let background = overlay.background {
          merged.background = background
          merged.color = overlay.color
          // NO_COLOR drops the background: an underline marks the line instead.
          if !colors { merged.underline = true }
        }
      }
      // The cursor's reverse video turns a span's foreground colour into the cells' background:
      // its blanks would show as coloured blocks. They are drawn without the colour (a span
      // reversed by its own style, a badge, keeps its blanks).
      if overlay?.reverse == true, !style.reverse, merged.background == nil, merged.color != nil, colors,
        text.contains(" ")
      {
        var blank = merged
        blank.color = nil
        var run = ""
        var runIsBlank = text.first == " "
        for character in text {
          if (character == " ") != runIsBlank {
            write(run, runIsBlank ? blank : merged)
            run = ""
            runIsBlank.toggle()
          }
          run.append(character)
        }
        write(run, runIsBlank ? blank : merged)
        return
      }
      write(text, merged)
    }
    func write(_ text: String, _ style: Style) {
      guard !text.isEmpty else { return }
      let sgr = style.sgr(colors: colors)
      output += sgr + text + (sgr.isEmpty ? "" : "\u{1b}[0m")
    }
    for span in spans where used < leftWidth {
      let text = TextWidth.truncate(span.text, to: leftWidth - used)
      used += TextWidth.of(text)
      emit(text, span.style)
    }
    emit(String(repeating: " ", count: max(0, width - used - rightWidth)), .plain)
    used = width - rightWidth
    for span in rightSpans { emit(span.text, span.style) }
    return output
  }
}
