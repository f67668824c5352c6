// The specification and the code never drift: registered methods vs Protocol/protocol.json.
import JSON
import XCTest

@testable import ListServer

final class ProtocolSpecTests: XCTestCase {
  let spec = ProtocolSpec.shared

  func testEveryServedMethodIsSpecifiedAndEverySpecifiedMethodIsServed() {
    let served = Set(MethodTable.clientMethods)
    let specified = spec.names(direction: "clientToServer")
    XCTAssertEqual(served.subtracting(specified).sorted(), [], "served but not in Protocol/protocol.json")
    XCTAssertEqual(specified.subtracting(served).sorted(), [], "in Protocol/protocol.json but not served")
  }

  func testEveryServerMessageIsSpecified() {
    let sent = Set(MethodTable.serverToClient)
    let specified = spec.names(direction: "serverToClient")
    XCTAssertEqual(
      sent.symmetricDifference(specified).sorted(), [], "server-to-client methods differ from the spec")
  }

  func testTheReadmeDocumentsEveryMethod() throws {
    let readme = try String(
      contentsOf: ProtocolSpec.directory.appendingPathComponent("README.md"), encoding: .utf8)
    for method in spec.methods.keys {
      XCTAssertTrue(readme.contains("`\(method)`"), "Protocol/README.md does not mention `\(method)`")
    }
  }

  func testEveryMethodHasParamsAResultAndErrorsWhereItIsARequest() {
    for (method, description) in spec.methods {
      XCTAssertNotNil(description["params"], "\(method) has no params schema")
      XCTAssertNotNil(description["summary"]?.stringValue, "\(method) has no summary")
      if description["kind"] == "request" {
        XCTAssertNotNil(description["result"], "\(method) has no result schema")
        XCTAssertNotNil(description["errors"]?.arrayValue, "\(method) lists no errors")
      }
    }
  }

  func testTheServerAdvertisesExactlyTheSpecifiedMethods() throws {
    let client = try TestClient.inProcess()
    let result = try client.initialize()
    let advertised = Set(result["capabilities"]?["methods"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    XCTAssertEqual(advertised, spec.names(direction: "clientToServer"))
    let notifications = Set(
      result["capabilities"]?["notifications"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    XCTAssertEqual(notifications, spec.names(direction: "serverToClient"))
    client.close()
  }

  /// The validator itself must reject what does not match, or conformance checks prove nothing.
  func testTheSchemaValidatorRejectsMismatches() {
    XCTAssertEqual(spec.checkResult("list/info", ["list": "x"]).isEmpty, false)
    XCTAssertEqual(
      spec.checkResult(
        "query/counts", ["list": "x", "version": 1, "sections": 1, "items": 2, "rows": 2, "selected": 0]), [])
    XCTAssertFalse(
      spec.checkResult(
        "query/counts", ["list": "x", "version": -1, "sections": 1, "items": 2, "rows": 2, "selected": 0]
      ).isEmpty)
    XCTAssertFalse(
      spec.checkParams(
        "list/didChange",
        ["list": "x", "version": 2, "previousVersion": 1, "changeset": ["itemMoves": [[0, 1, 2]]]]
      ).isEmpty)
    XCTAssertFalse(spec.checkParams("no/such/method", nil).isEmpty)
    XCTAssertFalse(spec.checkError("query/counts", code: -32013, message: "x").isEmpty)
    XCTAssertEqual(spec.checkError("query/counts", code: -32010, message: "unknown list 'x'"), [])
  }
}
