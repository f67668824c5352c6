// The Emacs package's ERT tests, one XCTest each, and its lint checks: emacs --batch against the real listd.
import Foundation
import XCTest

final class EmacsPackageTests: XCTestCase {
  /// The package byte-compiles with no warning, and checkdoc and package-lint (Debian's elpa-package-lint) find
  /// nothing.
  func testByteCompileCheckdocPackageLint() throws {
    try ERTRunner.lint(["compile", "checkdoc", "package-lint"], file: #filePath, line: #line)
  }

  /// What needs no daemon: the default socket's rule, untrusted sockets refused naming the path and the problem,
  /// describe-mode listing every key, customize-group listd.
  func testSocketRulesAndConventions() throws {
    try ERTRunner.run(
      "listd-default-socket-follows-the-daemon-rule", "listd-refuses-untrusted-sockets",
      "listd-mode-describes-every-key-and-customizes", file: #filePath, line: #line)
  }

  /// listd-spawn (a private demo daemon), listd-lists and RET, t flips a toggle through the owner.
  func testSpawnListsAndToggle() throws {
    try ERTRunner.run("listd-spawn-lists-and-toggle", file: #filePath, line: #line)
  }

  /// listd-open draws headers, rows, secondary text, accessories in order, footers; imenu and eldoc; a list that
  /// does not exist yet fills its buffer once created.
  func testOpen() throws {
    try ERTRunner.run("listd-open-shows-sections-items-and-accessories", file: #filePath, line: #line)
  }

  /// Another session edits the list: the buffer follows, point stays on its item.
  func testLiveChange() throws {
    try ERTRunner.run("listd-live-change-keeps-point-on-its-item", file: #filePath, line: #line)
  }

  /// TAB and S-TAB expand and collapse through the daemon.
  func testOutline() throws {
    try ERTRunner.run("listd-outline-expand-and-collapse-through-the-daemon", file: #filePath, line: #line)
  }

  /// RET selects and deselects; the mark follows; the owner hears it.
  func testSelect() throws {
    try ERTRunner.run("listd-select-marks-and-reaches-the-daemon", file: #filePath, line: #line)
  }

  /// Actions through completing-read, g (refresh), delete and move reach the owner, where allowed.
  func testActionsReachTheOwner() throws {
    try ERTRunner.run("listd-actions-refresh-delete-and-move-reach-the-owner", file: #filePath, line: #line)
  }

  /// w explains the last change; every case of clients/wording reads the same.
  func testExplain() throws {
    try ERTRunner.run("listd-explain-says-why-in-the-shared-wording", file: #filePath, line: #line)
  }

  /// Tables under a header line, sort and filter as a live view, empty states.
  func testTablesSortFilterEmpty() throws {
    try ERTRunner.run("listd-tables-sort-filter-and-empty-states", file: #filePath, line: #line)
  }

  /// listd-show-version: read-only, with a header saying so; killing a buffer unsubscribes.
  func testVersionAndUnsubscribe() throws {
    try ERTRunner.run("listd-show-version-and-unsubscribe-on-kill", file: #filePath, line: #line)
  }

  /// The daemon restarts: the buffer says disconnected, then g reconnects and resubscribes.
  func testReconnect() throws {
    try ERTRunner.run("listd-reconnects-after-a-daemon-restart", file: #filePath, line: #line)
  }

  /// A stopped daemon leaves Emacs usable: listd-open returns at once, the rows come when it runs again.
  func testNeverBlocks() throws {
    try ERTRunner.run("listd-never-blocks-on-a-stopped-daemon", file: #filePath, line: #line)
  }

  /// Seeded random edits: the windowed decoder and the full one agree with query/window.
  func testMirrorProperty() throws {
    try ERTRunner.run("listd-mirror-windowed-and-full-agree-with-the-daemon", file: #filePath, line: #line)
  }

  /// Reversing 10,000 rows visits rows in proportion to moves + window (not moves × window); prints the figure.
  func testReversalCost() throws {
    try ERTRunner.run(
      "listd-mirror-reversal-costs-moves-plus-window", echo: true, file: #filePath, line: #line)
  }

  /// The findings of the new user's tour, in one Emacs: a view comes back after a restart and f RET /
  /// listd-open go back to the plain list; % in column titles, ✓/✗, widths from the window, cells in
  /// eldoc; point to a neighbour when its item goes; v in a view shows its source; refusals in plain words.
  func testTourFindings() throws {
    try ERTRunner.run(
      "listd-views-come-back-and-go-back-to-the-list", "listd-table-cells-header-booleans-and-widths",
      "listd-point-moves-to-a-neighbour-when-its-item-goes", "listd-version-of-a-view-shows-its-source",
      "listd-refusals-in-plain-words", file: #filePath, line: #line)
  }

  /// The findings of the second tour, in one Emacs: reversing a large view fetches the window afresh
  /// (no Lisp decoding of every move); point leaves an emptied section for an item; titles and the sort
  /// arrow never cut, width hints widen into spare room, rows fit the narrowest window; s offers the
  /// sortable columns and "none"; v's default and range; a view's title after its source is created
  /// again; listd-lists hides this Emacs's views; the view title's wording and point after a sort.
  func testSecondTourFindings() throws {
    try ERTRunner.run(
      "listd-reversing-a-large-view-fetches-the-window-afresh",
      "listd-point-leaves-a-section-emptied-for-a-neighbour-item",
      "listd-column-titles-and-the-sort-arrow-are-never-cut",
      "listd-column-width-hints-widen-into-spare-room",
      "listd-rows-fit-the-narrowest-window-of-the-buffer", "listd-sort-offers-sortable-columns-and-none",
      "listd-show-version-defaults-to-the-one-before-and-says-the-range",
      "listd-title-follows-a-list-created-again", "listd-lists-hides-the-views-of-this-emacs",
      "listd-view-title-wording-and-point-after-a-sort", echo: true, file: #filePath, line: #line)
  }

  /// A 10,000-row list holds only its window through changes and M->; prints the figures.
  func testLargeListWindow() throws {
    try ERTRunner.run("listd-large-list-holds-only-its-window", echo: true, file: #filePath, line: #line)
  }

  /// The same with 1,000,000 rows (the long set: creating them takes the debug daemon a while).
  func testMillionRows() throws {
    try ERTRunner.run("listd-million-rows", timeout: 900, echo: true, file: #filePath, line: #line)
  }
}
