// A windowed mirror holds what the full mirror holds of a list's sections (kind and headerMode too), over random histories.
import Foundation
import JSON
import ListClient
import ListModel
import ListProtocol
import ListdTestSupport
import SeededRandom
import XCTest

final class WindowedMirrorPropertyTests: XCTestCase {
  /// Over random histories of lists whose sections carry `kind` and `headerMode` (inserted with
  /// them, changed by `updateSection`, reloaded), ListClient's `WindowedMirror` is driven by the
  /// daemon's own encodings — the windowed subscribe entry, filtered changesets, composed
  /// catch-ups, `list/setWindow` answers — beside the full `Mirror` driven by full changesets.
  /// With a window covering everything it equals the full mirror (sections with their header,
  /// footer, kind, header mode and count; rows; selection); with small windows its sections
  /// still agree and its rows are the window's.
  ///
  /// `LISTD_WINDOWED_MIRROR_SEED=n` runs one other seed.
  func testWindowedMirrorsAgreeWithTheFullMirrorOnSectionKindAndHeaderMode() throws {
    let started = Date()
    let seeds: [UInt64] =
      ProcessInfo.processInfo.environment["LISTD_WINDOWED_MIRROR_SEED"].flatMap(UInt64.init).map { [$0] }
      ?? [1, 2, 3, 4]
    var compared = 0
    var styled = 0
    for seed in seeds {
      var run = MirrorRun(seed: seed, list: "k")
      run.styledSections = true
      run.recordsStates = false
      _ = run.initialContent()
      try run.createReference()
      var full = try WireMirror(
        list: "k", version: 0, snapshot: Self.roundTrip(RowEncoding.snapshot(run.model)))
      // Everything, two small windows moved now and then, and one caught up by composed changes.
      var windows = [
        RowWindow(offset: 0, limit: 1_000_000), RowWindow(offset: 3, limit: 5),
        RowWindow(offset: 20, limit: 1),
      ]
      windows.append(RowWindow(offset: 10, limit: 8))
      var mirrors = try windows.map {
        try WindowedMirror(subscribed: Self.entry(run.model, 0, $0), limit: $0.limit)
      }
      var laggingBase = run.model
      for _ in 0..<150 {
        let previous = run.model
        let version = run.version
        _ = try run.nextBatch()
        guard run.version > version, let changeset = run.lastChangeset else { continue }
        let new = run.model
        try full.apply(
          didChange: Self.change(ChangesetEncoding.changeset(changeset), from: version, to: run.version))
        for index in 0..<3 {
          try mirrors[index].apply(
            didChange: Self.change(
              ChangesetEncoding.changeset(changeset, rows: .window(windows[index], old: previous, new: new)),
              from: version, to: run.version))
        }
        if run.random.chance(0.3) {
          let composed = ListSnapshot.diff(from: laggingBase, to: new)
          try mirrors[3].apply(
            didChange: Self.change(
              ChangesetEncoding.changeset(composed, rows: .window(windows[3], old: laggingBase, new: new)),
              from: mirrors[3].version, to: run.version))
          laggingBase = new
        }
        // A small window moves: the mirror starts afresh from the list/setWindow answer.
        if run.random.chance(0.1) {
          let index = run.random.int(in: 1...2)
          windows[index] = RowWindow(
            offset: run.random.int(in: 0...(mirrors[0].totalRows + 2)),
            limit: run.random.element([0, 1, 4, 12])!)
          try mirrors[index].apply(
            setWindow: Self.entry(new, run.version, windows[index]), limit: windows[index].limit)
        }

        let context = "seed \(seed) v\(run.version)"
        let sections = Self.sections(full)
        let rows = full.sections.flatMap { $0.rows }
        for mirror in mirrors where mirror.version == run.version {
          guard Self.sections(mirror) == sections else {
            throw TestFailure("\(context): \(mirror): sections \(Self.sections(mirror)) ≠ \(sections)")
          }
          let lower = min(mirror.offset, rows.count)
          guard mirror.windowRows == Array(rows[lower..<min(mirror.offset + mirror.limit, rows.count)]),
            mirror.selection == full.selection
          else { throw TestFailure("\(context): \(mirror): rows or selection differ from the full mirror") }
          compared += 1
        }
        if full.sections.contains(where: { $0.kind != nil || $0.headerMode != nil }) { styled += 1 }
        run.forget(before: run.version)
      }
    }
    print(
      "WindowedMirrorPropertyTests: \(compared) windowed mirrors equal to the full one, "
        + "\(styled) versions with styled sections, "
        + String(format: "%.2f s", Date().timeIntervalSince(started)))
    XCTAssertGreaterThan(compared, 1_000)
    XCTAssertGreaterThan(styled, 200)
  }

  // MARK: - Helpers

  /// Each section's id, header, footer, kind, header mode and row count.
  private static func sections(_ mirror: WireMirror) -> [[String]] {
    mirror.sections.map {
      [
        $0.id, $0.header ?? "-", $0.footer ?? "-", $0.kind ?? "-", $0.headerMode ?? "-",
        String($0.rows.count),
      ]
    }
  }

  private static func sections(_ mirror: WindowedMirror) -> [[String]] {
    mirror.sections.map {
      [$0.id, $0.header ?? "-", $0.footer ?? "-", $0.kind ?? "-", $0.headerMode ?? "-", String($0.count)]
    }
  }

  /// A windowed `list/subscribe` entry (the same as a `list/setWindow` answer), as read by a client.
  private static func entry(_ snapshot: ListSnapshot, _ version: Int, _ window: RowWindow) throws -> JSONValue
  {
    var object: JSONObject = ["list": "k", "version": .int(Int64(version))]
    WindowEncoding.appendWindowed(snapshot, window: window, to: &object)
    return try roundTrip(.object(object))
  }

  /// `list/didChange` params, as read by a client.
  private static func change(_ changeset: JSONValue, from: Int, to: Int) throws -> JSONValue {
    try roundTrip([
      "list": "k", "version": .int(Int64(to)), "previousVersion": .int(Int64(from)), "changeset": changeset,
    ])
  }

  private static func roundTrip(_ value: JSONValue) throws -> JSONValue {
    try JSONValue(parsing: value.jsonBytes())
  }
}
