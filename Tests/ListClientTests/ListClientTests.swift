// End-to-end: the ListClient library over a spawned listd, and its Mirror kept current from notifications.
import Foundation
import JSON
import JSONRPC
import ListClient
import XCTest

final class ListClientTests: XCTestCase {
  private var listd: String {
    let bundle = Bundle(for: ListClientTests.self).bundleURL
    let directory = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    return directory.appendingPathComponent("listd").path
  }

  /// A windowed mirror follows the list through its window, and a moved window starts afresh.
  func testWindowedMirrorOverSpawnedDaemon() async throws {
    let client = try ListClient.spawn(listdPath: listd, arguments: ["--log-level", "warning"])
    defer { client.close() }
    _ = try await client.initialize(name: "ListClientTests")
    let items: [JSONValue] = (0..<50).map { ["id": .string("r\($0)"), "text": .string("Row \($0)")] }
    _ = try await client.create("w", content: ["sections": [["id": "s", "items": .array(items)]]])
    var mirror = try await client.windowedMirror("w", offset: 10, limit: 5)
    XCTAssertEqual(
      mirror.windowRows.compactMap { $0["id"]?.stringValue }, ["r10", "r11", "r12", "r13", "r14"])
    _ = try await client.edit("w", [["op": "deleteItems", "items": ["r0", "r1"]]])
    let moved = try await client.setWindow("w", offset: 40, limit: 5)
    var iterator = client.notifications.makeAsyncIterator()
    while mirror.version < 1, let notification = await iterator.next() {
      guard notification.method == "list/didChange" else { continue }
      try mirror.apply(didChange: notification.params)
    }
    XCTAssertEqual(
      mirror.windowRows.compactMap { $0["id"]?.stringValue }, ["r12", "r13", "r14", "r15", "r16"])
    try mirror.apply(setWindow: moved, limit: 5)
    XCTAssertEqual(mirror.totalRows, 48)
    XCTAssertEqual(
      mirror.windowRows.compactMap { $0["id"]?.stringValue }, ["r42", "r43", "r44", "r45", "r46"])
  }

  func testTypedMethodsAndMirrorOverSpawnedDaemon() async throws {
    let client = try ListClient.spawn(listdPath: listd, arguments: ["--log-level", "warning"])
    defer { client.close() }
    let initialized = try await client.initialize(name: "ListClientTests")
    XCTAssertEqual(initialized["protocolVersion"], 1)
    let content = try JSONValue(
      parsing:
        #"{"sections":[{"id":"s","items":[{"id":"a","text":"A"},{"id":"b","text":"B","children":[{"id":"c","text":"C"}]}]}]}"#
    )
    let created = try await client.create("l", selectionMode: "multiple", content: content)
    XCTAssertEqual(created.version, 0)
    var mirror = try await client.mirror("l")
    XCTAssertEqual(mirror.rowCount, 2)

    let edits: [JSONValue] = [["op": "appendItems", "items": [["id": "d", "text": "D"]]]]
    _ = try await client.edit("l", edits)
    _ = try await client.expand("l", item: "b")
    _ = try await client.select("l", ["a", "c"])
    _ = try await client.collapse("l")
    _ = try await client.deselect("l", ["a"])
    _ = try await client.replace("l", content: content, ifVersion: 5)
    var iterator = client.notifications.makeAsyncIterator()
    while mirror.version < 6, let notification = await iterator.next() {
      guard notification.method == "list/didChange" else { continue }
      try mirror.apply(didChange: notification.params)
    }
    let entry = try await client.subscribe("l").first
    let fresh = try Mirror(subscribed: try XCTUnwrap(entry))
    XCTAssertNil(mirror.firstDifference(from: fresh))

    let item = try await client.item("l", "c")
    let window = try await client.window("l")
    let search = try await client.search("l", "c")
    let all = try await client.all()
    let info = try await client.info("l")
    XCTAssertEqual(item["visible"], false)
    XCTAssertEqual(window["totalRows"], 2)
    XCTAssertEqual(search["matches"]?.arrayValue?.count, 1)
    XCTAssertEqual(all.count, 1)
    XCTAssertEqual(info["version"], 6)
    do {
      _ = try await client.edit("l", edits, ifVersion: 1)
      XCTFail("a stale ifVersion succeeded")
    } catch let error as ResponseError {
      XCTAssertEqual(error.code.rawValue, -32801)
    }
    let disposed = try await client.dispose("l")
    XCTAssertEqual(disposed, 6)
    try await client.shutdown()
  }

  func testEveryRemainingRequestHasATypedMethod() async throws {
    let client = try ListClient.spawn(listdPath: listd, arguments: ["--demo", "--log-level", "warning"])
    defer { client.close() }
    _ = try await client.initialize(name: "ListClientTests")

    let sections = try await client.sections("contacts")
    XCTAssertEqual(sections["sections"]?.arrayValue?.first?["id"], "letter-A")
    let page = try await client.items("contacts", section: "letter-A", limit: 1)
    XCTAssertEqual(page["rows"]?.arrayValue?.count, 1)
    let first = try await client.item("contacts", at: 0, 0)
    XCTAssertEqual(first["id"], "ada")
    let counts = try await client.counts("files")
    XCTAssertEqual(counts["sections"], 1)
    let roots = try await client.outline("files", depth: 0)["nodes"]?.arrayValue ?? []
    XCTAssertEqual(roots.first?["id"], "Sources")

    let expanded = try await client.expandToLevel("files", 2)
    XCTAssertEqual(expanded.version, 1)
    let selected = try await client.selectAll("contacts")
    XCTAssertGreaterThan(selected.changeset["selected"]?.arrayValue?.count ?? 0, 10)
    _ = try await client.deselectAll("contacts")
    let history = try await client.changes("contacts", since: 0)
    XCTAssertEqual(history.compactMap { $0["version"]?.intValue }, [1, 2])

    // Events go to the demo's owner, which acts on them.
    try await client.event(.toggle, "settings", item: "airplane", [("isOn", true)])
    try await client.event(.select, "files", item: "Sources")
    let version = try await client.refresh("live", timeoutMs: 5_000)
    XCTAssertGreaterThan(version, 0)
    do {
      try await client.event(.action, "contacts", item: "ada", [("action", "no-such-action")])
      XCTFail("an unknown action was accepted")
    } catch let error as ResponseError {
      XCTAssertTrue(error.message.contains("no-such-action"), error.message)
    }
  }

  func testAnOwnerAnswersAViewersRefresh() async throws {
    var template = Array("/tmp/listclient-XXXXXX".utf8CString)
    let directory = String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!)! })
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let socket = directory + "/s"
    let owner = try ListClient.spawn(
      listdPath: listd, arguments: ["--listen", socket, "--log-level", "warning"])
    defer { owner.close() }
    _ = try await owner.initialize(name: "owner")
    _ = try await owner.create("feed", content: ["sections": [["id": "s"]]])
    owner.onRefresh { list in
      _ = try await owner.edit(list, [["op": "appendItems", "items": [["id": "fresh", "text": "Fresh"]]]])
    }
    while !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(5)) }
    let viewer = try ListClient.socket(path: socket)
    defer { viewer.close() }
    _ = try await viewer.initialize(name: "viewer")
    let version = try await viewer.refresh("feed")
    XCTAssertEqual(version, 1)  // answered after the owner's edit
    let item = try await viewer.item("feed", "fresh")
    XCTAssertEqual(item["text"], "Fresh")
  }
}
