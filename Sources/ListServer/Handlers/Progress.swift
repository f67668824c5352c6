// `$/progress` reports for long work, when the request carried a `workDoneToken` (as in LSP).
import JSON
import JSONRPC

/// Reports begin/end of loading large content to the requesting session. Does nothing unless
/// the request has a `workDoneToken` and the content exceeds the server's threshold.
struct Progress {
  private let session: Session
  private let token: JSONValue?
  private let title: String
  private let threshold: Int
  private var active = false

  init(_ context: HandlerContext, _ request: IncomingRequest, title: String) {
    session = context.session
    switch (try? request.params.optionalValue("workDoneToken")) ?? nil {
    case .string(let text): token = .string(text)
    case .int(let number): token = .int(number)
    default: token = nil
    }
    self.title = title
    threshold = context.options.progressThreshold
  }

  /// Sends `begin` if the work is large enough to report. `itemCount` is only evaluated when
  /// the request asked for progress (counting a large content costs a pass over it).
  mutating func begin(itemCount count: @autoclosure () -> Int) {
    guard let token else { return }
    let itemCount = count()
    guard itemCount > threshold else { return }
    active = true
    send(
      token,
      ["kind": "begin", "title": .string(title), "message": .string("\(itemCount) items"), "percentage": 0])
  }

  /// Sends `end` if `begin` was sent.
  func end() {
    guard active, let token else { return }
    send(token, ["kind": "end", "message": "done"])
  }

  private func send(_ token: JSONValue, _ value: JSONValue) {
    session.notify("$/progress", ["token": token, "value": value])
  }
}
