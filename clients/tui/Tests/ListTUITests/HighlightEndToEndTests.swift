// listd-tui's colours in a real terminal (tmux capture-pane -e): a cursor row without coloured blocks, flashes that read on dark and light themes, NO_COLOR.
import Foundation
import JSON
import ListClient
import XCTest

final class HighlightEndToEndTests: XCTestCase {
  var daemon: Daemon?
  var tmux: Tmux?
  var log = ""

  override func setUp() async throws {
    log = NSTemporaryDirectory() + "listd-tui-colours-\(getpid())-\(UUID().uuidString).log"
  }

  override func tearDown() async throws {
    tmux?.kill()
    daemon?.remove()
    try? FileManager.default.removeItem(atPath: log)
  }

  /// The cells of the screen line whose text contains `text`, attributes included.
  func styledLine(_ tmux: Tmux, containing text: String) -> [Cell]? {
    Cells.parse(tmux.styledScreen()).first { String($0.map(\.character)).contains(text) }
  }

  /// Waits until the cursor row reads `text`, then checks it: reversed across the whole width,
  /// no blank cell with a colour (which reverse video shows as a block).
  func checkCursorRow(_ tmux: Tmux, _ text: String, file: StaticString = #filePath, line: UInt = #line) {
    tmux.wait(for: "the cursor on '\(text)'", file: file, line: line) { _ in
      tmux.line(containing: "▶")?.contains(text) ?? false
    }
    guard let cells = styledLine(tmux, containing: "▶") else {
      return XCTFail("no cursor row", file: file, line: line)
    }
    XCTAssertEqual(cells.count, 100, file: file, line: line)
    XCTAssertTrue(
      cells.allSatisfy { $0.style.reverse || $0.character != " " || $0.style.foreground != nil },
      "the whole row is reversed (but for a badge's blanks)", file: file, line: line)
    XCTAssertEqual(
      colouredBlankCells(cells), [], "'\(String(cells.map(\.character)))'\n\(tmux.styledScreen())",
      file: file,
      line: line)
  }

  func testTheCursorRowShowsNoColouredBlocks() throws {
    let daemon = try Daemon(["--demo"])
    self.daemon = daemon
    let tmux = try Tmux(daemon.tuiCommand(["--list", "contacts"], log: log))
    self.tmux = tmux
    tmux.wait(forText: "Contacts · contacts", "Ada Lovelace")
    checkCursorRow(tmux, "Ada Lovelace")  // a leaf, not selected: both slots empty
    try tmux.send("Space")
    tmux.wait(forText: "1 selected")
    checkCursorRow(tmux, "●   Ada Lovelace")  // selected: the mark, then an empty slot
    try tmux.send("q", "j", "j", "Enter")
    tmux.wait(forText: "Files · files", "▾ Sources")
    checkCursorRow(tmux, "▾ Sources")  // an outline parent
    try tmux.send("q")
    tmux.wait(forText: "listd · lists (6)")
    checkCursorRow(tmux, "Files")  // the picker's cursor row
  }

  /// Changes an item until a capture shows it flashing (a flash lasts 0.6 s, so each change
  /// starts a new one); returns that row's cells.
  func flashedRow(theme: Theme, noColor: Bool, file: StaticString = #filePath, line: UInt = #line)
    async throws
    -> [Cell]
  {
    let daemon = try Daemon()
    self.daemon = daemon
    let tmux = try Tmux((noColor ? "NO_COLOR=1 " : "") + daemon.tuiCommand(["--list", "jobs"], log: log))
    self.tmux = tmux
    try tmux.use(theme)
    let client = try await daemon.client()
    defer { client.close() }
    func job(_ id: Int, run: Int = 0) -> JSONValue {
      [
        "id": .string("j\(id)"), "text": .string("Job \(id)"), "secondaryText": .string("run \(run)"),
        "accessories": [["type": "badge", "text": .string("\(run)")], ["type": "progress", "value": 0.5]],
      ]
    }
    _ = try await client.create(
      "jobs", title: "Jobs",
      content: ["sections": [["id": "s", "header": "Queue", "items": .array((0..<5).map { job($0) })]]])
    tmux.wait(forText: "Jobs · jobs", "Job 4", file: file, line: line)
    for run in 1...100 {
      _ = try await client.edit("jobs", [["op": "updateItems", "items": [job(2, run: run)]]])
      for _ in 0..<5 {
        // Flashing, the row's padding is bold (and coloured, or underlined); otherwise it is plain.
        if let cells = styledLine(tmux, containing: "run \(run)"), cells.last?.style.bold == true {
          return cells
        }
      }
    }
    XCTFail("no capture caught the flash:\n\(tmux.styledScreen())", file: file, line: line)
    return []
  }

  func testAFlashedRowReadsOnADarkAndALightTheme() async throws {
    for theme in [Theme.dark, Theme.light] {
      let cells = try await flashedRow(theme: theme, noColor: false)
      let text = String(cells.map(\.character))
      XCTAssertEqual(cells.count, 100, text)
      // The escape sequences: bold, black (30) on yellow (43), on every cell of the row.
      for (column, cell) in cells.enumerated() {
        XCTAssertEqual(
          cell.style,
          CellStyle(
            foreground: 0, background: 3, bold: true, dim: cell.style.dim, reverse: cell.style.reverse),
          "\(theme.name): column \(column) '\(cell.character)' of '\(text)'")
        if cell.character != " " {
          XCTAssertGreaterThanOrEqual(
            theme.contrast(of: cell.style), 4.5,
            "\(theme.name) theme: column \(column) '\(cell.character)' of '\(text)' (\(cell.style))")
        }
      }
      tmux?.kill()
      daemon?.remove()
    }
  }

  func testNoColorFlashesWithBoldAndUnderlineAndNoColour() async throws {
    let cells = try await flashedRow(theme: .dark, noColor: true)
    let text = String(cells.map(\.character))
    XCTAssertEqual(cells.count, 100, text)
    for (column, cell) in cells.enumerated() {
      XCTAssertNil(cell.style.foreground, "column \(column) of '\(text)'")
      XCTAssertNil(cell.style.background, "column \(column) of '\(text)'")
      XCTAssertTrue(cell.style.bold && cell.style.underline, "column \(column) of '\(text)': \(cell.style)")
    }
    let screen = Cells.parse(tmux?.styledScreen() ?? "")
    XCTAssertFalse(
      screen.joined().contains { $0.style.foreground != nil || $0.style.background != nil },
      "NO_COLOR: no colour anywhere")
  }
}
