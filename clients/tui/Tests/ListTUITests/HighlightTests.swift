// The cursor row and flashed rows as the renderer draws them: no coloured blanks, readable flashes, NO_COLOR.
import JSON
import ListModel
import ListTUI
import XCTest

final class HighlightTests: XCTestCase {
  /// An outline: an expanded parent with a selected child, a collapsed parent, a multiselect leaf,
  /// and a plain leaf with a badge and a progress bar.
  func fixture() throws -> ModelFixture {
    var snapshot = ListSnapshot(selectionMode: .multiple)
    try snapshot.appendSections([SectionSpec("s", header: "Files")])
    func item(_ id: String, _ text: String, _ accessories: [ListAccessory] = []) -> ListItem {
      ListItem(id, payload: ItemPayload(content: ItemContent(text: text), accessories: accessories))
    }
    try snapshot.appendTrees([
      OutlineNode(item("a", "src"), children: [OutlineNode(item("a1", "main.swift"))], isExpanded: true),
      OutlineNode(item("b", "docs"), children: [OutlineNode(item("b1", "guide"))]),
      OutlineNode(item("c", "check", [.multiselect])),
      OutlineNode(item("d", "plain", [.badge("3"), .progress(0.5)])),
    ])
    return ModelFixture(snapshot)
  }

  /// The app with the fixture open and `a1` selected (by a change the daemon sent).
  func app(_ fixture: inout ModelFixture, now: Double = 0) throws -> TUIApp {
    var app = opened(&fixture, width: 60, height: 10)
    _ = app.handle(
      .notification(method: "list/didChange", params: try fixture.change { try $0.select(["a1"]) }), now: now)
    return app
  }

  /// The blank cells of `cells` that show a colour: a background, or under reverse video a
  /// foreground, which then fills the cell (a coloured block).
  func colouredBlanks(_ cells: [Cell]) -> [String] { colouredBlankCells(cells) }

  func testTheCursorRowHasNoColouredBlanksOnAnyKindOfRow() throws {
    var fixture = try fixture()
    var app = try app(&fixture)
    // Rows: src (parent, expanded), main.swift (selected leaf), docs (collapsed), check (multiselect), plain.
    for (row, text) in ["▾ src", "main.swift", "▸ docs", "○", "plain"].enumerated() {
      let frame = Renderer.frame(app, time: 10)
      let line = try XCTUnwrap(frame.first { $0.plainText.hasPrefix("▶") }, "no cursor row at \(row)")
      XCTAssertTrue(line.plainText.contains(text), "row \(row): \(line.plainText)")
      // The renderer's spans: the empty slots carry no colour.
      for span in line.spans where span.text.allSatisfy({ $0 == " " }) {
        XCTAssertNil(span.style.color, "row \(row) '\(line.plainText)': a blank span with a colour")
        XCTAssertNil(span.style.background, "row \(row) '\(line.plainText)': a blank span with a background")
      }
      // What the terminal gets: reverse video on every cell, no blank cell with a colour.
      let cells = Cells.line(line.render(width: 60, colors: true))
      XCTAssertEqual(cells.count, 60)
      XCTAssertTrue(
        cells.allSatisfy { $0.style.reverse || $0.character != " " || $0.style.foreground != nil },
        "row \(row): the whole line is reversed (but for a badge's blanks)")
      XCTAssertEqual(colouredBlanks(cells), [], "row \(row): \(line.plainText)")
      XCTAssertEqual(cells.first?.style.foreground, Style.cyan, "the ▶ keeps its colour")
      _ = app.handle(.key(.char("j")), now: 10)
    }
  }

  func testReversedSpansDrawTheirLeadingAndTrailingBlanksWithoutColour() {
    var line = StyledLine(
      [("▶ ", Style(color: Style.cyan)), ("name", .plain)], right: [("  v12 ", Style(color: Style.yellow))])
    line.overlay = Style(reverse: true)
    let cells = Cells.line(line.render(width: 30, colors: true))
    XCTAssertEqual(colouredBlanks(cells), [])
    XCTAssertEqual(String(cells.filter { $0.style.foreground == Style.yellow }.map(\.character)), "v12")
    XCTAssertEqual(String(cells.filter { $0.style.foreground == Style.cyan }.map(\.character)), "▶")
    // A badge is reversed on purpose: its blanks belong to it.
    let badge = StyledLine([(" 3 ", Style(color: Style.red, reverse: true))])
    XCTAssertEqual(Cells.line(badge.render(width: 3, colors: true)).map(\.style.foreground), [1, 1, 1])
  }

  func testABackgroundIsAlwaysPairedWithAForeground() {
    for background in 0...7 {
      let cells = Cells.line(StyledLine("x", Style(background: background)).render(width: 1, colors: true))
      let expected = [2, 3, 6, 7].contains(background) ? Style.black : Style.white
      XCTAssertEqual(cells.first?.style.foreground, expected, "on background \(background)")
    }
    // An overlay's background replaces the spans' colours with its pair.
    var line = StyledLine([("a", Style(color: Style.cyan)), ("b", Style(color: Style.green))])
    line.overlay = Style(bold: true, background: Style.yellow)
    let cells = Cells.line(line.render(width: 4, colors: true))
    XCTAssertTrue(
      cells.allSatisfy { $0.style.foreground == Style.black && $0.style.background == Style.yellow },
      cells.map(\.style.description).joined(separator: ", "))
  }

  /// A row that changed flashes: every cell of it reads on a dark and on a light theme, the cursor's too.
  func testAFlashedRowReadsOnDarkAndLightThemesAndNoColorUnderlinesIt() throws {
    var fixture = try fixture()
    var app = try app(&fixture)
    let change = try fixture.change { snapshot in
      try snapshot.setPayload(
        ItemPayload(
          content: ItemContent(text: "plain (changed)"), accessories: [.badge("4"), .progress(0.6)]),
        forItem: "d")
      try snapshot.setPayload(ItemPayload(content: ItemContent(text: "src (changed)")), forItem: "a")
    }
    _ = app.handle(.notification(method: "list/didChange", params: change), now: 20)
    let frame = Renderer.frame(app, time: 20.1)
    let flashed = try XCTUnwrap(frame.first { $0.plainText.contains("plain (changed)") })
    let cursor = try XCTUnwrap(frame.first { $0.plainText.contains("src (changed)") })
    XCTAssertTrue(cursor.plainText.hasPrefix("▶"), "the cursor is on src: \(cursor.plainText)")
    for (name, line) in [("flashed row", flashed), ("flashed cursor row", cursor)] {
      let cells = Cells.line(line.render(width: 60, colors: true))
      for theme in [Theme.dark, Theme.light] {
        for (column, cell) in cells.enumerated() where cell.character != " " {
          XCTAssertGreaterThanOrEqual(
            theme.contrast(of: cell.style), 4.5,
            "\(name) on the \(theme.name) theme, column \(column) '\(cell.character)': \(cell.style)")
        }
      }
      XCTAssertTrue(
        cells.allSatisfy { $0.style.background != nil && $0.style.bold }, "\(name): the whole row")
      // NO_COLOR: no colour at all; bold and an underline mark the row.
      let plain = Cells.line(line.render(width: 60, colors: false))
      XCTAssertTrue(
        plain.allSatisfy { $0.style.foreground == nil && $0.style.background == nil },
        "\(name): colours under NO_COLOR")
      XCTAssertTrue(plain.allSatisfy { $0.style.bold && $0.style.underline }, "\(name): bold and underlined")
    }
    // Once the flash is over the row is drawn as before.
    let later = try XCTUnwrap(
      Renderer.frame(app, time: 30).first { $0.plainText.contains("plain (changed)") })
    XCTAssertTrue(Cells.line(later.render(width: 60, colors: true)).allSatisfy { $0.style.background == nil })
  }
}
