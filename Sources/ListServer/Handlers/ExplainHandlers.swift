// The inspector's explanations of committed changes: list/explain.
import JSON
import JSONRPC
import ListModel
import ListProtocol

enum ExplainHandlers {
  static let requests: [RequestMethod] = [
    .query("list/explain", inline: false, explain)
  ]

  /// `list/explain {list, version?, item?}`: why the change that produced `version` did what
  /// it did; with `item`, only the causes concerning that item — and without `version`, the
  /// latest kept change that concerns it. Runs on the list's queue after every change queued
  /// before it. O(the diff of each change examined).
  static func explain(_ context: HandlerContext, _ request: IncomingRequest) throws {
    let p = request.params
    try p.requireKnown(["list", "version", "item"])
    let version = try p.optionalInt("version")
    let item = try p.optionalString("item")
    guard version != nil || item != nil else {
      throw p.invalid("version", "is required when \"item\" is not given")
    }
    let list = try context.registry.list(try p.string("list"))
    context.inOrder(on: list) {
      request.answer {
        switch try list.explanation(of: version, item: item) {
        case .change(let change, let causes, let source):
          var answer = ChangeFanout.params(list: list.id, change)
            .setting("explain", ExplanationEncoding.encode(causes, source: source))
          if let item { answer = answer.setting("item", .string(item)) }
          return answer
        case .none(let oldestExplainable):
          return [
            "list": .string(list.id), "version": .null, "item": item.map(JSONValue.string) ?? .null,
            "oldestVersion": oldestExplainable.map { .int(Int64($0)) } ?? .null,
          ]
        }
      }
    }
  }
}
