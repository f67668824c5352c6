// Rendering: screen diff, width and truncation, NO_COLOR, glyphs, rows of the list view.
import JSON
import ListModel
import ListTUI
import XCTest

final class RenderTests: XCTestCase {
  func testScreenDiffWritesOnlyChangedLines() {
    var screen = ScreenDiff()
    let first = screen.update(["aaa", "bbb", "ccc"], width: 3)
    XCTAssertTrue(first.contains("\u{1b}[2J"), "the first frame clears and draws everything")
    XCTAssertTrue(first.contains("aaa") && first.contains("bbb") && first.contains("ccc"))
    XCTAssertEqual(screen.update(["aaa", "bbb", "ccc"], width: 3), "", "nothing changed, nothing written")
    let second = screen.update(["aaa", "BBB", "ccc"], width: 3)
    XCTAssertTrue(second.contains("\u{1b}[2;1H") && second.contains("BBB"))
    XCTAssertFalse(second.contains("aaa") || second.contains("ccc") || second.contains("\u{1b}[2J"))
    let resized = screen.update(["aaaa", "BBBB"], width: 4)
    XCTAssertTrue(resized.contains("\u{1b}[2J"), "a resize redraws everything")
    screen.invalidate()
    XCTAssertTrue(screen.update(["aaaa", "BBBB"], width: 4).contains("aaaa"), "invalidate redraws")
  }

  func testLinesAreExactlyTheWidthTruncatedWithAnEllipsis() {
    func cells(_ text: String) -> Int {
      TextWidth.of(
        text.replacingOccurrences(of: "\u{1b}\\[[0-9;?]*[a-zA-Z]", with: "", options: .regularExpression))
    }
    XCTAssertEqual(TextWidth.truncate("hello world", to: 8), "hello w…")
    XCTAssertEqual(TextWidth.truncate("hello", to: 5), "hello")
    XCTAssertEqual(TextWidth.truncate("日本語テキスト", to: 7), "日本語…")
    XCTAssertEqual(TextWidth.of("a日b"), 4)
    let line = StyledLine(
      [("Ada Lovelace", Style(bold: true)), ("  ada@analytical.org", Style(dim: true))],
      right: [("›", .plain)])
    for width in [10, 20, 40, 80] {
      XCTAssertEqual(cells(line.render(width: width, colors: true)), width)
    }
    XCTAssertTrue(line.render(width: 40, colors: true).contains("›"))
    XCTAssertTrue(line.render(width: 12, colors: true).contains("…"))
  }

  func testNoColorKeepsReverseVideoButDropsColours() {
    var line = StyledLine("x", Style(color: Style.red, background: Style.yellow))
    line.overlay = Style(reverse: true)
    let plain = line.render(width: 5, colors: false)
    XCTAssertFalse(plain.contains("31") || plain.contains("43"))
    XCTAssertTrue(plain.contains("\u{1b}[7m"))
    XCTAssertTrue(line.render(width: 5, colors: true).contains("31"))
  }

  func testAccessoryGlyphs() {
    func glyph(_ value: JSONValue) -> String? { Glyphs.accessory(value, time: 0)?.text }
    XCTAssertEqual(glyph(["type": "disclosureIndicator"]), "›")
    XCTAssertEqual(glyph(["type": "checkmark"]), "✓")
    XCTAssertEqual(glyph(["type": "detail"]), "ⓘ")
    XCTAssertEqual(glyph(["type": "reorder"]), "≡")
    XCTAssertEqual(glyph(["type": "badge", "text": "3"]), " 3 ")
    XCTAssertEqual(glyph(["type": "label", "text": "On"]), "On")
    XCTAssertEqual(glyph(["type": "progress", "value": 0.5]), "[████░░░░] 50%")
    XCTAssertEqual(glyph(["type": "toggle", "isOn": true]), "[on ]")
    XCTAssertEqual(glyph(["type": "toggle", "isOn": false]), "[off]")
    XCTAssertTrue(Glyphs.spinner.contains(glyph(["type": "activityIndicator"]) ?? ""))
    XCTAssertNotEqual(Glyphs.spinner(at: 0), Glyphs.spinner(at: 0.1), "the spinner turns")
    XCTAssertNil(glyph(["type": "outlineDisclosure"]), "drawn as ▸/▾")
  }

  func testTheListViewDrawsHeadersOutlineSelectionAndCursor() throws {
    var snapshot = ListSnapshot(selectionMode: .multiple)
    try snapshot.appendSections([SectionSpec("s", header: "Files", footer: "2 folders")])
    try snapshot.appendTrees([
      OutlineNode(
        ListItem("a", payload: ItemPayload(text: "src")),
        children: [OutlineNode(ListItem("a1", payload: ItemPayload(text: "main.swift")))], isExpanded: true),
      OutlineNode(ListItem("b", payload: ItemPayload(text: "docs")), children: [OutlineNode(ListItem("b1"))]),
    ])
    try snapshot.select(["a1"])
    var fixture = ModelFixture(snapshot)
    var app = TUIApp(width: 60, height: 10, endpoint: "sock")
    _ = app.handle(.connected, now: 0)
    var effects = app.handle(
      .answer(
        .subscribeAll,
        .success([
          "lists": [
            ["list": "l", "version": 0, "info": ["list": "l", "title": "Tree", "rows": 3, "version": 0]]
          ]
        ])), now: 0)
    effects = app.handle(.key(.enter), now: 0)
    XCTAssertEqual(app.screen, .list)
    serve(&app, &fixture, effects)
    _ = app.handle(.key(.char("j")), now: 0)
    let text = Renderer.frame(app, time: 0).map(\.plainText)
    XCTAssertEqual(text.count, 10)
    XCTAssertTrue(text[0].contains("Tree"), text[0])
    XCTAssertTrue(text[0].contains("row 2 of 3"), text[0])
    XCTAssertEqual(text[1], " Files")
    XCTAssertTrue(text[2].hasPrefix("   ▾ src"), text[2])
    XCTAssertTrue(text[3].hasPrefix("▶●     main.swift"), text[3])
    XCTAssertTrue(text[4].hasPrefix("   ▸ docs"), text[4])
    XCTAssertEqual(text[5], "   2 folders")
    XCTAssertTrue(text[9].contains("1 selected") && text[9].contains("connected"), text[9])
  }
}
