// The Neovim plugin's specs, one test each: headless nvim drives the plugin against the real listd.
import Foundation
import XCTest

final class NeovimPluginTests: XCTestCase {
  /// :Listd open renders contacts, settings and files: headers, footers, outline rows, accessories, marks.
  func testRender() throws { try SpecRunner.run("render", socket: true, file: #filePath, line: #line) }

  /// Another client edits the list: lines follow, the cursor stays on its item, the view stays put.
  func testLiveUpdates() throws { try SpecRunner.run("live", socket: true, file: #filePath, line: #line) }

  /// Tables as aligned cells under a virtual header, empty states centred, :Listd sort/filter as a live view.
  func testTablesSortAndFilter() throws {
    try SpecRunner.run("table", socket: true, file: #filePath, line: #line)
  }

  /// The window's view after changes: the top stays on its text as Vim keeps it; a list that fits is shown whole.
  func testViewport() throws { try SpecRunner.run("viewport", socket: true, file: #filePath, line: #line) }

  /// :Listd open of a missing list: a message (really shown) and the buffer fills when the list is created.
  func testOpenMissingList() throws { try SpecRunner.run("open", socket: true, file: #filePath, line: #line) }

  /// <CR> selects and deselects through the daemon; query/selection confirms.
  func testSelection() throws { try SpecRunner.run("select", socket: true, file: #filePath, line: #line) }

  /// zo, zc, za, zO, zC, zR, zM on the files outline.
  func testOutline() throws { try SpecRunner.run("outline", socket: true, file: #filePath, line: #line) }

  /// ga (actions via vim.ui.select), gt (toggle), r (refresh), K (details), q (close).
  func testActions() throws { try SpecRunner.run("actions", socket: true, file: #filePath, line: #line) }

  /// K: the item's details and why it last changed (list/explain) as readable lines, no JSON; the shared wording.
  func testDetailsAndExplanation() throws {
    try SpecRunner.run("explain", socket: true, file: #filePath, line: #line)
  }

  /// :Listd lists (picker), completion, :edit listd://LIST, :Listd info and close, custom keymaps.
  func testCommands() throws { try SpecRunner.run("commands", socket: true, file: #filePath, line: #line) }

  /// :Listd demo spawns the daemon over stdio; disconnect and reconnect; the socket option.
  func testStdio() throws { try SpecRunner.run("stdio", socket: false, file: #filePath, line: #line) }

  /// The daemon dies: one message, buffers say disconnected, no Lua error storm.
  func testDaemonDying() throws { try SpecRunner.run("dying", socket: false, file: #filePath, line: #line) }

  /// Sockets refused before connecting: a directory others can enter or own, a socket someone else owns;
  /// the plugin closes its side of a socket the daemon closed.
  func testSocketTrust() throws { try SpecRunner.run("socket", socket: false, file: #filePath, line: #line) }

  /// :checkhealth listd and :help listd.
  func testHealthAndHelp() throws {
    try SpecRunner.run("health", socket: false, file: #filePath, line: #line)
  }

  /// The Content-Length decoder: split frames, several per chunk, LF-only headers, bad headers.
  func testFraming() throws { try SpecRunner.run("framing", socket: false, file: #filePath, line: #line) }

  /// Sections' kind and headerMode held by listd.mirror and the buffer through section reloads and
  /// inserted sections; a header's text shows only in the supplementary mode.
  func testSectionKindsAndHeaderModes() throws {
    try SpecRunner.run("kinds", socket: true, file: #filePath, line: #line)
  }

  /// Seeded random edits through the daemon: the buffer's mirror equals a fresh full snapshot.
  func testMirrorProperty() throws {
    try SpecRunner.run("mirror", socket: true, file: #filePath, line: #line)
  }

  /// A list larger than the window: a line per row, only the rows near the window drawn; G, gg and search;
  /// changes inside and outside the window; the view stays on its rows; exactness against query/window.
  func testLargeListWindow() throws {
    try SpecRunner.run("window", socket: true, file: #filePath, line: #line)
  }

  /// The figures of a large list (open, changes, G, RSS beside an empty nvim), printed, not asserted.
  /// A long test (Tests/long-tests.txt: `script/test --long` runs it), on 100,000 rows (the debug
  /// daemon takes seconds per edit of a million); `LISTD_BENCH_ROWS=1000000` gives the figure.
  func testLargeListFigures() throws {
    setenv("LISTD_BENCH_ROWS", "100000", 0)
    try SpecRunner.run("bench", socket: true, timeout: 1500, echo: true, file: #filePath, line: #line)
  }
}
