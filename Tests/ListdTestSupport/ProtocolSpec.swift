// Loads Protocol/protocol.json and checks messages against its schemas.
import Foundation
import JSON

/// The machine-readable protocol description, and validation of messages against it.
public struct ProtocolSpec: Sendable {
  public let document: JSONValue
  public let methods: JSONObject

  /// The repository's `Protocol/` directory.
  public static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Protocol")

  /// The spec, parsed once.
  public static let shared: ProtocolSpec = {
    let data = try! Data(contentsOf: directory.appendingPathComponent("protocol.json"))
    let document = try! JSONParser().parse(Array(data))
    return ProtocolSpec(document: document, methods: document["methods"]?.objectValue ?? JSONObject())
  }()

  private var validator: SchemaValidator { SchemaValidator(root: document) }

  /// Names of methods in a direction (`clientToServer` / `serverToClient`).
  public func names(direction: String) -> Set<String> {
    Set(methods.filter { $0.value["direction"]?.stringValue == direction }.map(\.key))
  }

  /// Problems with `params` of `method`, or an unknown method.
  public func checkParams(_ method: String, _ params: JSONValue?) -> [String] {
    guard let spec = methods[method] else { return ["\(method): not in Protocol/protocol.json"] }
    guard let schema = spec["params"] else { return [] }
    return validator.validate(params ?? .null, against: schema, path: "\(method).params")
  }

  /// Problems with the result of `method`.
  public func checkResult(_ method: String, _ result: JSONValue) -> [String] {
    guard let spec = methods[method] else { return ["\(method): not in Protocol/protocol.json"] }
    guard let schema = spec["result"] else { return [] }
    return validator.validate(result, against: schema, path: "\(method).result")
  }

  /// Problems with an error answer of `method`: its code must be a generic one or one the spec
  /// lists for the method, and its message must not be empty.
  public func checkError(_ method: String, code: Int, message: String) -> [String] {
    var problems: [String] = []
    if message.isEmpty { problems.append("\(method): error \(code) has an empty message") }
    let generic = [-32700, -32600, -32601, -32602, -32603, -32800, -32002, -32019]
    let listed = methods[method]?["errors"]?.arrayValue?.compactMap(\.intValue).map(Int.init) ?? []
    if !generic.contains(code) && !listed.contains(code) {
      problems.append("\(method): error code \(code) is not listed for it in Protocol/protocol.json")
    }
    return problems
  }
}
