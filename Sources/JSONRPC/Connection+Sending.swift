// Sending messages and the answers to requests read: framing, queueing, batches.
import JSON

extension Connection {
  // MARK: - Sending

  /// Sends a notification. Returns false if the connection is closed (or just overflowed).
  @discardableResult
  public func notify(_ method: String, _ params: JSONValue? = nil) -> Bool {
    send(.notification(Notification(method: method, params: params)))
  }

  /// Sends any message as one frame. Returns false if the connection is closed.
  @discardableResult
  public func send(_ message: Message) -> Bool {
    enqueue(message.jsonBytes())
  }

  /// Sends an already encoded message body (`Message.jsonBytes()`) as one frame, so a server
  /// can encode a notification once and send it to many peers. Returns false if closed.
  @discardableResult
  public func send(body: [UInt8]) -> Bool {
    enqueue(body)
  }

  /// Frames a message body and queues it; false if closed. Disconnects on overflow.
  func enqueue(_ body: [UInt8]) -> Bool {
    guard
      let framing = state.withLock({
        $0.closed ? nil : (options.framing ?? $0.detectedFraming ?? .contentLength)
      })
    else { return false }
    let frame = FrameWriter(framing: framing).frame(body)
    switch outgoing.enqueue(frame) {
    case .queued:
      return true
    case .closed:
      return false
    case .overflow(let pending):
      logger.error(
        "\(options.name): peer is not reading: \(pending) bytes pending exceed the outgoing limit of "
          + "\(outgoing.limit) bytes; disconnecting")
      close(reason: .outgoingQueueOverflow(pendingBytes: pending, limit: outgoing.limit))
      return false
    }
  }

  /// Answers a request that was in flight (called by ``IncomingRequest``).
  func deliver(_ response: Response, batch: BatchSlot?, then afterwards: () -> Void = {}) {
    // The id is free before the answer can reach the peer, which may reuse it at once; the
    // `answering` count keeps the connection open until the answer is queued (an answer queued
    // after the close would be lost).
    state.withLock { state in
      if let id = response.id { state.inFlight[id] = nil }
      state.answering += 1
    }
    answer(response, batch: batch)
    afterwards()
    let answeredAll = state.withLock { state -> Bool in
      state.answering -= 1
      return state.answeredAll
    }
    if answeredAll { didAnswerAll() }
  }

  /// Sends a response, or files it in its batch and sends the batch once complete.
  func answer(_ response: Response, batch: BatchSlot?) {
    guard let batch else {
      send(.response(response))
      return
    }
    guard let responses = batch.collector.fill(batch.index, with: response) else { return }
    var writer = JSONWriter(reservingCapacity: 256)
    writer.writeRaw(CollectionOfOne(UInt8(ascii: "[")))
    for (index, response) in responses.enumerated() {
      if index > 0 { writer.writeRaw(CollectionOfOne(UInt8(ascii: ","))) }
      Message.response(response).write(to: &writer)
    }
    writer.writeRaw(CollectionOfOne(UInt8(ascii: "]")))
    _ = enqueue(writer.bytes)
  }
}
