// `$/cancelRequest` from the peer: cancelling a request in progress and answering it -32800.
import JSON

extension Connection {
  /// `$/cancelRequest {id}`: cancel the request's token and, by default, answer -32800 now.
  func cancelIncoming(_ params: JSONValue?) {
    guard let idValue = params?["id"], let id = RequestID(json: idValue) else {
      logger.warning(
        "\(options.name): $/cancelRequest without a valid id: \(params?.abbreviatedJSON ?? "no params")")
      return
    }
    guard let request = state.withLock({ $0.inFlight[id]?.request }) else { return }
    request.cancellation.cancel()
    if request.policy == .immediate { request.respond(error: .requestCancelled(id)) }
  }
}
