// List ownership across sessions of an in-process server: force to dispose or claim another's list, owner/lost, orphans.
import Foundation
import JSON
import JSONRPC
import ListServer
import XCTest

final class OwnershipTests: XCTestCase {
  private var server: ListServer!

  override func tearDown() {
    server = nil  // its sessions' clients are closed by each test
  }

  /// A server with `options` (as `listd --stay` with its arguments), optionally with the demo lists.
  private func start(_ options: ServerOptions = ServerOptions(), demo: Bool = false) throws {
    server = TestClient.server(options)
    if demo { try server.loadDemo() }
  }

  /// A new session of the server, initialized as `name` (as a socket client).
  private func session(_ name: String) throws -> TestClient {
    let client = try TestClient.inProcess(of: server, name: name)
    try client.initialize(name: name)
    return client
  }

  private let content: JSONValue = ["sections": [["id": "s", "items": [["id": "a", "text": "A"]]]]]

  func testDisposingAnotherSessionsListNeedsForceAndTellsTheOwner() throws {
    try start()
    let editor = try session("editor")
    let script = try session("script")
    try editor.request("list/create", ["list": "l", "content": content])

    let refused = script.error("list/dispose", ["list": "l"])
    XCTAssertEqual(refused.code.rawValue, -32018)
    XCTAssertTrue(refused.message.contains("(editor)"), refused.message)
    XCTAssertTrue(refused.message.contains("\"force\": true"), refused.message)
    XCTAssertEqual(refused.data?["owner"]?["name"], "editor")
    XCTAssertEqual(try script.version(of: "l"), 0)  // still there

    XCTAssertEqual(try script.request("list/dispose", ["list": "l", "force": true])["version"], 0)
    let lost = try XCTUnwrap(editor.next("owner/lost"))
    XCTAssertEqual(lost["list"], "l")
    XCTAssertEqual(lost["reason"], "disposed")
    XCTAssertEqual(lost["by"]?["name"], "script")
    XCTAssertNotNil(editor.next("list/didDispose"))
    let order = editor.notifications.map(\.method).filter { ["owner/lost", "list/didDispose"].contains($0) }
    XCTAssertEqual(order, ["owner/lost", "list/didDispose"], "the owner hears why before it hears what")
    // Re-created by the script, the list is the script's; the editor owns nothing now.
    try script.request("list/create", ["list": "l", "content": content])
    XCTAssertEqual(try editor.request("list/info", ["list": "l"])["owner"]?["name"], "script")
    editor.close()
    script.close()
  }

  func testDisposingYourOwnListNeedsNoForceAndSendsNoOwnerLost() throws {
    try start()
    let editor = try session("editor")
    try editor.request("list/create", ["list": "l", "content": content])
    try editor.request("list/dispose", ["list": "l"])
    XCTAssertNil(editor.next("owner/lost", timeout: 0.3))
    editor.close()
  }

  func testAnOrphanedListCanBeClaimedAndItsEventsReachTheNewOwner() throws {
    try start()
    let editor = try session("editor")
    let other = try session("other")
    try editor.request("list/create", ["list": "l", "content": content])
    try other.request("list/subscribe", ["list": "l", "snapshot": "none"])
    editor.disconnect()
    let warning = try XCTUnwrap(
      other.next("window/logMessage") { $0["message"]?.stringValue?.contains("'l'") == true })
    XCTAssertTrue(warning["message"]?.stringValue?.contains("list/claim") == true, "\(warning)")
    XCTAssertTrue(waitUntil { (try? other.request("list/info", ["list": "l"])["owner"]) == .null })
    XCTAssertEqual(other.error("event/delete", ["list": "l", "item": "a"]).code.rawValue, -32016)
    // The item is checked before the owner, the owner before what the event needs.
    XCTAssertEqual(other.error("event/delete", ["list": "l", "item": "zz"]).code.rawValue, -32012)
    XCTAssertEqual(
      other.error("event/toggle", ["list": "l", "item": "a", "isOn": true]).code.rawValue, -32016)

    let claimed = try other.request("list/claim", ["list": "l"])
    XCTAssertEqual(claimed["owner"]?["name"], "other")
    let viewer = try session("viewer")
    try viewer.request("event/delete", ["list": "l", "item": "a"])
    let event = try XCTUnwrap(other.next("owner/event"))
    XCTAssertEqual(event["item"], "a")
    other.close()
    viewer.close()
  }

  func testClaimingALiveOwnersListNeedsForceAndTellsTheOwner() throws {
    try start()
    let editor = try session("editor")
    let tui = try session("tui")
    try editor.request("list/create", ["list": "l", "content": content])
    XCTAssertEqual(tui.error("list/claim", ["list": "l"]).code.rawValue, -32018)
    XCTAssertEqual(try tui.request("list/claim", ["list": "l", "force": true])["owner"]?["name"], "tui")
    let lost = try XCTUnwrap(editor.next("owner/lost"))
    XCTAssertEqual(lost["reason"], "claimed")
    XCTAssertEqual(lost["by"]?["name"], "tui")
    // Claiming your own list is a no-op that succeeds; an unknown list is -32010.
    try tui.request("list/subscribe", ["list": "l", "snapshot": "none"])
    XCTAssertEqual(try tui.request("list/claim", ["list": "l"])["owner"]?["name"], "tui")
    // …and sends no owner/lost: one would arrive before the didChange of a later edit.
    try tui.request("selection/select", ["list": "l", "items": ["a"]])
    XCTAssertNotNil(tui.next("list/didChange"))
    XCTAssertNil(tui.next("owner/lost", timeout: 0))
    XCTAssertEqual(tui.error("list/claim", ["list": "nope"]).code.rawValue, -32010)
    XCTAssertEqual(tui.error("list/claim", ["list": "l", "force": "yes"]).code.rawValue, -32602)
    editor.close()
    tui.close()
  }

  func testDemoListsBelongToTheDaemonAndNeedForceToDispose() throws {
    try start(demo: true)  // --demo
    let script = try session("script")
    let refused = script.error("list/dispose", ["list": "contacts"])
    XCTAssertEqual(refused.code.rawValue, -32018)
    XCTAssertTrue(refused.message.contains("listd demo"), refused.message)
    script.close()
  }

  func testOrphanTimeoutDisposesUnclaimedListsOnly() throws {
    var options = ServerOptions()
    options.orphanTimeout = .seconds(1)  // --orphan-timeout 1
    try start(options)
    let editor = try session("editor")
    let watcher = try session("watcher")
    try editor.request("list/create", ["list": "kept", "content": content])
    try editor.request("list/create", ["list": "dropped", "content": content])
    editor.disconnect()
    XCTAssertTrue(waitUntil { (try? watcher.request("list/info", ["list": "kept"])["owner"]) == .null })
    try watcher.request("list/claim", ["list": "kept"])
    let disposed = try XCTUnwrap(watcher.next("list/didDispose", timeout: 10))
    XCTAssertEqual(disposed["list"], "dropped")
    XCTAssertNil(watcher.next("list/didDispose", timeout: 1.5))  // the claimed list stays
    XCTAssertEqual(try watcher.version(of: "kept"), 0)
    watcher.close()
  }
}
