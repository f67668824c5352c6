// A live list's commit is a value (issue 24): versions, changeset, what to fan out and the durability ticket; no JSON in the list.
import Foundation
import JSONRPC
import ListModel
import ListProtocol
import XCTest

@testable import ListServer

final class LiveListCommitTests: XCTestCase {
  private func makeList(journal: Journal? = nil) throws -> LiveList {
    var snapshot = ListSnapshot(selectionMode: .single)
    try snapshot.appendSections(["s"])
    return LiveList(
      id: "l", snapshot: snapshot, metadata: ListMetadata(title: "l", appearance: .plain), owner: nil,
      historyLimit: 100, journal: journal)
  }

  /// A commit returns its versions and changeset, and the history keeps that changeset until
  /// the server layer publishes the change (the list encodes nothing); a change that alters
  /// nothing makes no version and nothing to fan out.
  func testACommitReturnsItsVersionsAndChangeset() throws {
    let list = try makeList()
    let base = list.committed
    var snapshot = base.snapshot
    try snapshot.appendItems(["a", "b"], toSection: "s")
    let changeset = diff(base.snapshot, snapshot)
    let commit = try list.queue.sync {
      try list.commit(snapshot, changeset: changeset, from: base, source: ChangeSource(method: "test"))
    }
    XCTAssertEqual(commit.previousVersion, 0)
    XCTAssertEqual(commit.version, 1)
    XCTAssertTrue(commit.isNewVersion)
    XCTAssertEqual(commit.changeset, changeset)
    XCTAssertTrue(commit.subscribers.isEmpty)
    XCTAssertNil(commit.durabilityTicket, "no journal, nothing to wait for")
    XCTAssertEqual(list.committed.version, 1)
    let kept = try list.queue.sync { try list.changes(since: 0) }
    XCTAssertEqual(kept.current, 1)
    XCTAssertEqual(kept.changes.map(\.changeset), [changeset])
    XCTAssertEqual(kept.changes.map(\.previousVersion), [0])

    let unchanged = try list.queue.sync {
      try list.commit(
        list.committed.snapshot, changeset: Changeset(), from: list.committed,
        source: ChangeSource(method: "test"))
    }
    XCTAssertFalse(unchanged.isNewVersion)
    XCTAssertEqual(unchanged.version, 1)
    XCTAssertEqual(list.committed.version, 1)
  }

  /// In `--sync batch` mode the ticket comes back in the result of the commit and of the
  /// disposal — the one convention — rather than parked in the list for the caller to fetch.
  func testAJournaledCommitAndDisposalReturnTheirTickets() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livelist-commit-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = try Journal(
      directory: try StateDirectory(folder.path), generation: 1, intactBytes: nil, checkpointed: 0,
      settings: Journal.Settings(sync: .batch), logger: Logger { _, _ in })
    defer { journal.close() }
    let list = try makeList(journal: journal)
    let base = list.committed
    var snapshot = base.snapshot
    try snapshot.appendItems(["a"], toSection: "s")
    let commit = try list.queue.sync {
      try list.commit(
        snapshot, changeset: diff(base.snapshot, snapshot), from: base, source: ChangeSource(method: "test"))
    }
    let ticket = try XCTUnwrap(commit.durabilityTicket)
    let disposal = try list.queue.sync { try list.dispose() }
    XCTAssertEqual(disposal.version, 1)
    let later = try XCTUnwrap(disposal.durabilityTicket)
    XCTAssertGreaterThan(later.number, ticket.number)
    let durable = expectation(description: "durable")
    DurabilityTicket.afterDurable(later) { durable.fulfill() }
    wait(for: [durable], timeout: 60)
  }

  /// The list layer knows no wire form: none of its files imports JSON or JSONRPC — the list,
  /// its owner and the registry included (the handler layer encodes answers, owners and events,
  /// and maps ``ListError`` onto protocol errors).
  func testTheListFilesImportNoJSON() throws {
    let lists = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/ListServer/Lists")
    let files = try FileManager.default.contentsOfDirectory(atPath: lists.path).filter {
      $0.hasSuffix(".swift")
    }
    for file in ["LiveList.swift", "ListOwner.swift", "ListRegistry.swift"] {
      XCTAssertTrue(files.contains(file), "\(lists.path): \(files)")
    }
    for file in files {
      let text = try String(contentsOf: lists.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where line == "import JSON" || line == "import JSONRPC" {
        XCTFail("Sources/ListServer/Lists/\(file): \(line)")
      }
    }
  }
}
